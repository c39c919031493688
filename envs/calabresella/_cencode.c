/* Calabresella's compiled encoder: a batch of InfoViews -> float32 observation rows and int8
 * legal masks, entry for entry what envs/calabresella/encode.py computes (its Python encoder is
 * the reference; tests/vector/test_compiled_encoder.py holds the two equal on random states
 * of every variant). The layout (offsets, constants, field positions) is handed over by
 * encode.py through configure(), so the block table exists once, in Python.
 *
 * LAYOUT: tuple[str, ...], the names of the layout's ints, in order
 * configure(layout: tuple[int, ...]) -> None
 * encode_rows(views: Sequence[InfoView], obs: float32[B', obs_size], masks: int8[B', n] | None)
 */
#include "../common/cencode.h"

/* The layout configure() takes, in this order (the module's LAYOUT names it): offsets and
 * constants, then the positions of the view's fields (F_<field>) and the view's length. */
#define LAYOUT(X) \
    X(N_BINARY) X(OBS_SIZE) X(NUM_ACTIONS) X(PLAY_PHASE) X(PASS) X(BID_BASE) X(GIVER_MONTE) \
    X(ACES) X(COUNTERS) X(TRICKS_SCALE) X(THIRDS_SCALE) X(O_PHASE) X(O_MYPOS) X(O_TOPLAY) \
    X(O_ROLE) X(O_HAND) X(O_PARTNER) X(O_BIDS) X(O_HIGH) X(O_NOCH) X(O_CONTRACT) X(O_SOLO) \
    X(O_CALLED) X(O_GIVER) X(O_RETURNED) X(O_MONTE) X(O_DISC) X(O_SPLIT1) X(O_SPLIT2) \
    X(O_TRICK) X(O_LEADER) X(O_PLAYED) X(O_VOID) X(O_PILE_S) X(O_PILE_D) X(F_seat) \
    X(F_position) X(F_n_players) X(F_phase) X(F_to_play) X(F_legal_mask) X(F_hand) \
    X(F_partner_hand) X(F_bids) X(F_no_chiamo) X(F_contract) X(F_soloist) X(F_called) \
    X(F_giver) X(F_returned) X(F_known_monte) X(F_discards) X(F_split_d1) X(F_split_d2) \
    X(F_trick) X(F_leader) X(F_played_by) X(F_void) X(F_piles) X(F_tricks_won) X(F_n_tricks) \
    X(F_totals) X(F_rules) X(N_FIELDS)

MZ_LAYOUT_STATE(LAYOUT)
static PyObject *s_target; /* "target", interned */

/* Position x relative to me, (x - me) % 3, for x in -3..2 (Python's indexing of a 3-tuple). */
static int rel_of(long long me, long long x, long long *out, const char *field) {
    if (x < -3 || x > 2) {
        PyErr_Format(PyExc_ValueError, "view field %s must be a position 0..2, got %lld", field,
                     x);
        return -1;
    }
    *out = (((x - me) % 3) + 3) % 3;
    return 0;
}

static int read_u64(PyObject *v, int f, uint64_t *out, const char *field) {
    return mz_u64(FIELD(v, f), out, field);
}

static int auction(const MzRow *r, PyObject *v, PyObject *bids, long long me) {
    long long last[3] = {-1, -1, -1}, high = -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bids); i++) {
        PyObject *bid = mz_tuple(PyTuple_GET_ITEM(bids, i), 2, "bids");
        long long pos, action;
        if (!bid || mz_small(PyTuple_GET_ITEM(bid, 0), &pos, "bids") < 0 ||
            mz_small(PyTuple_GET_ITEM(bid, 1), &action, "bids") < 0)
            return -1;
        if (pos < -3 || pos > 2) {
            PyErr_Format(PyExc_ValueError, "view field bids has position %lld", pos);
            return -1;
        }
        last[(pos + 3) % 3] = action;
        if (action != L[L_PASS]) high = action - L[L_BID_BASE];
    }
    for (long long pos = 0; pos < 3; pos++) {
        long long a = last[pos], rp = (((pos - me) % 3) + 3) % 3;
        if (a >= 0 &&
            mz_bit(r, L[L_O_BIDS] + 6 * rp + (a == L[L_PASS] ? 0 : 1 + a - L[L_BID_BASE]), "bids") < 0)
            return -1;
    }
    if (high >= 0 && mz_bit(r, L[L_O_HIGH] + high, "bids") < 0) return -1;
    int no_chiamo = PyObject_IsTrue(FIELD(v, L_F_no_chiamo));
    if (no_chiamo < 0 || (no_chiamo && mz_bit(r, L[L_O_NOCH], "no_chiamo") < 0)) return -1;
    long long contract;
    if (mz_small(FIELD(v, L_F_contract), &contract, "contract") < 0) return -1;
    if (contract >= 0 && mz_bit(r, L[L_O_CONTRACT] + contract, "contract") < 0) return -1;
    return 0;
}

static inline double thirds(uint64_t pile) {
    return (double)(3 * __builtin_popcountll(pile & (uint64_t)L[L_ACES]) +
                    __builtin_popcountll(pile & (uint64_t)L[L_COUNTERS]));
}

static int scalars(PyObject *v, float *s) {
    long long n_tricks, seat, n;
    uint64_t p0, p1;
    PyObject *piles = mz_tuple(FIELD(v, L_F_piles), 2, "piles");
    PyObject *won = mz_tuple(FIELD(v, L_F_tricks_won), 2, "tricks_won");
    PyObject *totals = mz_tuple(FIELD(v, L_F_totals), -1, "totals");
    long long w0, w1;
    if (!piles || !won || !totals || mz_small(FIELD(v, L_F_n_tricks), &n_tricks, "n_tricks") < 0 ||
        mz_u64(PyTuple_GET_ITEM(piles, 0), &p0, "piles") < 0 ||
        mz_u64(PyTuple_GET_ITEM(piles, 1), &p1, "piles") < 0 ||
        mz_small(PyTuple_GET_ITEM(won, 0), &w0, "tricks_won") < 0 ||
        mz_small(PyTuple_GET_ITEM(won, 1), &w1, "tricks_won") < 0)
        return -1;
    double ts = (double)L[L_TRICKS_SCALE], hs = (double)L[L_THIRDS_SCALE];
    s[0] = (float)((double)n_tricks / ts);
    s[1] = (float)(thirds(p0) / hs);
    s[2] = (float)(thirds(p1) / hs);
    s[3] = (float)((double)w0 / ts);
    s[4] = (float)((double)w1 / ts);
    s[5] = s[6] = s[7] = s[8] = 0.0f;
    Py_ssize_t k = PyTuple_GET_SIZE(totals);
    double t[8];
    int any = 0;
    if (k > 8) {
        PyErr_SetString(PyExc_ValueError, "view field totals has more than 8 seats");
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        t[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(totals, i)); /* floats or ints */
        if (t[i] == -1.0 && PyErr_Occurred()) return -1;
        any |= t[i] != 0.0;
    }
    if (!any) return 0; /* outside a match */
    if (mz_small(FIELD(v, L_F_n_players), &n, "n_players") < 0 ||
        mz_small(FIELD(v, L_F_seat), &seat, "seat") < 0)
        return -1;
    double target;
    if (mz_scale(FIELD(v, L_F_rules), s_target, &target) < 0) return -1;
    if (n <= 0) {
        PyErr_SetString(PyExc_ZeroDivisionError, "n_players is 0");
        return -1;
    }
    for (long long j = 0; j < 4 && j < n; j++) {
        long long idx = (seat + j) % n;
        if (idx < 0) idx += n;
        if (idx >= k) {
            PyErr_SetString(PyExc_IndexError, "view field totals has fewer than n_players items");
            return -1;
        }
        s[5 + j] = (float)(t[idx] / target);
    }
    return 0;
}

static int encode_view(PyObject *v, float *row, int8_t *mask) {
    MzRow r = {row, L[L_N_BINARY]};
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != L[L_N_FIELDS]) {
        PyErr_SetString(PyExc_TypeError, "views must be Calabresella InfoViews");
        return -1;
    }
    long long pos, phase, to_play, soloist, called, giver, returned, leader, rp;
    if (mz_small(FIELD(v, L_F_position), &pos, "position") < 0 ||
        mz_small(FIELD(v, L_F_phase), &phase, "phase") < 0 ||
        mz_small(FIELD(v, L_F_to_play), &to_play, "to_play") < 0 ||
        mz_small(FIELD(v, L_F_soloist), &soloist, "soloist") < 0 ||
        mz_small(FIELD(v, L_F_called), &called, "called") < 0 ||
        mz_small(FIELD(v, L_F_giver), &giver, "giver") < 0 ||
        mz_small(FIELD(v, L_F_returned), &returned, "returned") < 0 ||
        mz_small(FIELD(v, L_F_leader), &leader, "leader") < 0)
        return -1;
    long long me = pos >= 0 ? pos : 0;
    uint64_t m;
    memset(row, 0, sizeof(float) * (size_t)r.n);
    /* phase, my_position, to_play, hand, partner_hand */
    if (mz_bit(&r, L[L_O_PHASE] + phase, "phase") < 0) return -1;
    if (read_u64(v, L_F_hand, &m, "hand") < 0 || mz_mask64(&r, L[L_O_HAND], m, "hand") < 0) return -1;
    if (read_u64(v, L_F_partner_hand, &m, "partner_hand") < 0 ||
        mz_mask64(&r, L[L_O_PARTNER], m, "partner_hand") < 0)
        return -1;
    if (mz_bit(&r, L[L_O_MYPOS] + (pos >= 0 ? pos : 3), "position") < 0) return -1;
    if (to_play >= 0 && (rel_of(me, to_play, &rp, "to_play") < 0 ||
                         mz_bit(&r, L[L_O_TOPLAY] + rp, "to_play") < 0))
        return -1;
    /* bids, high_bid, no_chiamo, contract (set once the auction has a bid) */
    PyObject *bids = mz_tuple(FIELD(v, L_F_bids), -1, "bids");
    if (!bids) return -1;
    if (PyTuple_GET_SIZE(bids) > 0 && auction(&r, v, bids, me) < 0) return -1;
    /* soloist, role */
    if (soloist >= 0) {
        if (rel_of(me, soloist, &rp, "soloist") < 0 || mz_bit(&r, L[L_O_SOLO] + rp, "soloist") < 0)
            return -1;
        if (pos >= 0 && mz_bit(&r, L[L_O_ROLE] + (((pos - soloist) % 3) + 3) % 3, "soloist") < 0)
            return -1;
    }
    /* called, giver, returned, known_monte, discards, split_d1, split_d2 */
    if (called >= 0) {
        long long g;
        if (giver >= 0) {
            if (rel_of(me, giver, &g, "giver") < 0) return -1;
        } else {
            g = giver == L[L_GIVER_MONTE] ? 3 : 4;
        }
        if (mz_bit(&r, L[L_O_CALLED] + called, "called") < 0 ||
            mz_bit(&r, L[L_O_GIVER] + g, "giver") < 0)
            return -1;
    }
    if (returned >= 0 && mz_bit(&r, L[L_O_RETURNED] + returned, "returned") < 0) return -1;
    static const struct { int f; int l; const char *name; } masks[] = {
        {L_F_known_monte, L_O_MONTE, "known_monte"}, {L_F_discards, L_O_DISC, "discards"},
        {L_F_split_d1, L_O_SPLIT1, "split_d1"}, {L_F_split_d2, L_O_SPLIT2, "split_d2"},
    };
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        if (read_u64(v, masks[i].f, &m, masks[i].name) < 0 ||
            mz_mask64(&r, L[masks[i].l], m, masks[i].name) < 0)
            return -1;
    }
    /* trick (the k-th card by position leader + k), trick_leader */
    PyObject *trick = mz_tuple(FIELD(v, L_F_trick), -1, "trick");
    if (!trick) return -1;
    if (PyTuple_GET_SIZE(trick) > 0) {
        long long lead;
        if (rel_of(0, leader, &lead, "leader") < 0) return -1; /* leader as 0..2 */
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(trick); i++) {
            long long card;
            if (mz_small(PyTuple_GET_ITEM(trick, i), &card, "trick") < 0 ||
                rel_of(me, (lead + (long long)i) % 3, &rp, "trick") < 0 ||
                mz_bit(&r, L[L_O_TRICK] + 40 * rp + card, "trick") < 0)
                return -1;
        }
    }
    if (phase == L[L_PLAY_PHASE] && (rel_of(me, leader, &rp, "leader") < 0 ||
                                     mz_bit(&r, L[L_O_LEADER] + rp, "leader") < 0))
        return -1;
    /* played_by, void (per relative position), pile_soloist, pile_defenders */
    PyObject *played = mz_tuple(FIELD(v, L_F_played_by), -1, "played_by");
    PyObject *voids = mz_tuple(FIELD(v, L_F_void), -1, "void");
    PyObject *piles = mz_tuple(FIELD(v, L_F_piles), 2, "piles");
    if (!played || !voids || !piles) return -1;
    if (PyTuple_GET_SIZE(played) < 3 || PyTuple_GET_SIZE(voids) < 3) {
        PyErr_SetString(PyExc_TypeError, "view fields played_by and void need 3 positions");
        return -1;
    }
    for (long long p = 0; p < 3; p++) {
        rp = (((p - me) % 3) + 3) % 3;
        if (mz_u64(PyTuple_GET_ITEM(played, p), &m, "played_by") < 0 ||
            mz_mask64(&r, L[L_O_PLAYED] + 40 * rp, m, "played_by") < 0 ||
            mz_u64(PyTuple_GET_ITEM(voids, p), &m, "void") < 0 ||
            mz_mask64(&r, L[L_O_VOID] + 4 * rp, m, "void") < 0)
            return -1;
    }
    if (mz_u64(PyTuple_GET_ITEM(piles, 0), &m, "piles") < 0 ||
        mz_mask64(&r, L[L_O_PILE_S], m, "piles") < 0 ||
        mz_u64(PyTuple_GET_ITEM(piles, 1), &m, "piles") < 0 ||
        mz_mask64(&r, L[L_O_PILE_D], m, "piles") < 0)
        return -1;
    if (scalars(v, row + r.n) < 0) return -1;
    if (mask && mz_legal(mask, L[L_NUM_ACTIONS], FIELD(v, L_F_legal_mask)) < 0) return -1;
    return 0;
}

MZ_MODULE("calabresella", "Calabresella", 9, s_target, "target")
