/* Minchiate's compiled encoder: a batch of InfoViews -> float32 observation rows and int8 legal
 * masks, entry for entry what envs/minchiate/encode.py computes (its Python encoder is the
 * reference; tests/vector/test_compiled_encoder.py holds the two equal on random states of
 * every variant). The layout (offsets, field positions) is handed over by encode.py through
 * configure(), so the block table exists once, in Python.
 *
 * LAYOUT: tuple[str, ...], the names of the layout's ints, in order
 * configure(layout: tuple[int, ...]) -> None
 * encode_rows(views: Sequence[InfoView], obs: float32[B', obs_size], masks: int8[B', n] | None)
 */
#include "../common/cencode.h"

/* The layout configure() takes, in this order (the module's LAYOUT names it): offsets and
 * constants, then the positions of the view's fields (F_<field>) and the view's length. */
#define LAYOUT(X) \
    X(N_BINARY) X(OBS_SIZE) X(NUM_ACTIONS) X(C) X(PLAY_PHASE) X(RESTI_SCALE) X(TRICKS_SCALE) \
    X(O_PHASE) X(O_TOPLAY) X(O_DEALER) X(O_CUTTER) X(O_HAND) X(O_DISC) X(O_ROBBED) X(O_STOP) \
    X(O_FACEUP) X(O_DROB) X(O_DTAKE) X(O_DECL) X(O_FOLA) X(O_FOLA_EXP) X(O_OKIND) X(O_OCARDS) \
    X(O_TRICK) X(O_LEADER) X(O_LED) X(O_PLAYED) X(O_SUITS) X(O_MOWNER) X(O_MDEBT) X(O_MINE) \
    X(O_THEIRS) X(F_seat) X(F_phase) X(F_to_play) X(F_dealer) X(F_cutter) X(F_n_tricks) \
    X(F_hand) X(F_robbed) X(F_stop_card) X(F_faceup) X(F_dealer_robbed) X(F_dealer_taken) \
    X(F_discards) X(F_fola_known) X(F_fola_exposed) X(F_declared) X(F_offered) X(F_trick) \
    X(F_leader) X(F_led) X(F_played_by) X(F_suits_led) X(F_piles) X(F_matto_owner) \
    X(F_matto_debt) X(F_D) X(F_R) X(F_legal_mask) X(F_rules) X(F_series_resti) X(N_FIELDS)

MZ_LAYOUT_STATE(LAYOUT)
static PyObject *s_resti_unit; /* "resti_unit", interned */

/* The cards of a tuple of card ids, each at off + card. */
static int cards_at(const MzRow *r, long long off, PyObject *cards, const char *field) {
    if (!mz_tuple(cards, -1, field)) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cards); i++) {
        long long c;
        if (mz_small(PyTuple_GET_ITEM(cards, i), &c, field) < 0 || mz_bit(r, off + c, field) < 0) {
            return -1;
        }
    }
    return 0;
}

static int encode_view(PyObject *v, float *row, int8_t *mask) {
    const long long C = L[L_C];
    MzRow r = {row, L[L_N_BINARY]};
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != L[L_N_FIELDS]) {
        PyErr_SetString(PyExc_TypeError, "views must be Minchiate InfoViews");
        return -1;
    }
    long long me, phase, to_play, dealer, cutter, stop, leader, led, suits, owner, n_tricks;
    if (mz_small(FIELD(v, L_F_seat), &me, "seat") < 0 ||
        mz_small(FIELD(v, L_F_phase), &phase, "phase") < 0 ||
        mz_small(FIELD(v, L_F_to_play), &to_play, "to_play") < 0 ||
        mz_small(FIELD(v, L_F_dealer), &dealer, "dealer") < 0 ||
        mz_small(FIELD(v, L_F_cutter), &cutter, "cutter") < 0 ||
        mz_small(FIELD(v, L_F_stop_card), &stop, "stop_card") < 0 ||
        mz_small(FIELD(v, L_F_leader), &leader, "leader") < 0 ||
        mz_small(FIELD(v, L_F_led), &led, "led") < 0 ||
        mz_small(FIELD(v, L_F_suits_led), &suits, "suits_led") < 0 ||
        mz_small(FIELD(v, L_F_matto_owner), &owner, "matto_owner") < 0 ||
        mz_small(FIELD(v, L_F_n_tricks), &n_tricks, "n_tricks") < 0) {
        return -1;
    }
    memset(row, 0, sizeof(float) * (size_t)r.n);
    /* phase .. cutter */
    if (mz_bit(&r, L[L_O_PHASE] + phase, "phase") < 0) return -1;
    if (to_play >= 0 && mz_bit(&r, L[L_O_TOPLAY] + ((to_play - me) & 3), "to_play") < 0) return -1;
    if (mz_bit(&r, L[L_O_DEALER] + ((dealer - me) & 3), "dealer") < 0) return -1;
    if (mz_bit(&r, L[L_O_CUTTER] + ((cutter - me) & 3), "cutter") < 0) return -1;
    /* hand, discards, robbed, stop_card */
    if (mz_mask(&r, L[L_O_HAND], FIELD(v, L_F_hand), "hand") < 0) return -1;
    if (mz_mask(&r, L[L_O_DISC], FIELD(v, L_F_discards), "discards") < 0) return -1;
    if (cards_at(&r, L[L_O_ROBBED], FIELD(v, L_F_robbed), "robbed") < 0) return -1;
    if (mz_bit(&r, L[L_O_STOP] + stop, "stop_card") < 0) return -1;
    /* faceup: per relative seat */
    PyObject *faceup = mz_tuple(FIELD(v, L_F_faceup), 4, "faceup");
    if (!faceup) return -1;
    for (long long seat = 0; seat < 4; seat++) {
        long long card;
        if (mz_small(PyTuple_GET_ITEM(faceup, seat), &card, "faceup") < 0) return -1;
        if (card >= 0 && mz_bit(&r, L[L_O_FACEUP] + C * ((seat - me) & 3) + card, "faceup") < 0)
            return -1;
    }
    if (cards_at(&r, L[L_O_DROB], FIELD(v, L_F_dealer_robbed), "dealer_robbed") < 0) return -1;
    if (mz_mask(&r, L[L_O_DTAKE], FIELD(v, L_F_dealer_taken), "dealer_taken") < 0) return -1;
    /* declared: (seat, combination) pairs; a combination's members are its item 1 */
    PyObject *declared = mz_tuple(FIELD(v, L_F_declared), -1, "declared");
    if (!declared) return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(declared); i++) {
        PyObject *pair = mz_tuple(PyTuple_GET_ITEM(declared, i), 2, "declared");
        long long seat;
        if (!pair || mz_small(PyTuple_GET_ITEM(pair, 0), &seat, "declared") < 0) return -1;
        PyObject *combo = mz_tuple(PyTuple_GET_ITEM(pair, 1), -1, "declared");
        if (!combo || PyTuple_GET_SIZE(combo) < 2) {
            if (combo) PyErr_SetString(PyExc_TypeError, "view field declared holds a non-Combo");
            return -1;
        }
        if (mz_mask(&r, L[L_O_DECL] + C * ((seat - me) & 3), PyTuple_GET_ITEM(combo, 1),
                    "declared") < 0)
            return -1;
    }
    /* fola_known, fola_exposed, offer_kind, offer_cards */
    if (mz_mask(&r, L[L_O_FOLA], FIELD(v, L_F_fola_known), "fola_known") < 0) return -1;
    int exposed = PyObject_IsTrue(FIELD(v, L_F_fola_exposed));
    if (exposed < 0 || (exposed && mz_bit(&r, L[L_O_FOLA_EXP], "fola_exposed") < 0)) return -1;
    PyObject *offered = FIELD(v, L_F_offered);
    if (offered != Py_None) {
        long long kind;
        if (!mz_tuple(offered, -1, "offered") || PyTuple_GET_SIZE(offered) < 2) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "view field offered must be a Combo or None");
            return -1;
        }
        if (mz_small(PyTuple_GET_ITEM(offered, 0), &kind, "offered") < 0 ||
            mz_bit(&r, L[L_O_OKIND] + kind, "offered") < 0 ||
            mz_mask(&r, L[L_O_OCARDS], PyTuple_GET_ITEM(offered, 1), "offered") < 0)
            return -1;
    }
    /* trick (the k-th card by the seat leader + k), trick_leader, led */
    PyObject *trick = mz_tuple(FIELD(v, L_F_trick), -1, "trick");
    if (!trick) return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(trick); i++) {
        long long card, seat = (leader + (long long)i) & 3;
        if (mz_small(PyTuple_GET_ITEM(trick, i), &card, "trick") < 0 ||
            mz_bit(&r, L[L_O_TRICK] + C * ((seat - me) & 3) + card, "trick") < 0)
            return -1;
    }
    if (phase == L[L_PLAY_PHASE] &&
        mz_bit(&r, L[L_O_LEADER] + ((leader - me) & 3), "leader") < 0)
        return -1;
    if (led >= 0 && mz_bit(&r, L[L_O_LED] + led, "led") < 0) return -1;
    /* played_by, suits_led, matto_owner, matto_debt */
    PyObject *pb = mz_tuple(FIELD(v, L_F_played_by), 4, "played_by");
    if (!pb) return -1;
    for (long long seat = 0; seat < 4; seat++) {
        if (mz_mask(&r, L[L_O_PLAYED] + C * ((seat - me) & 3), PyTuple_GET_ITEM(pb, seat),
                    "played_by") < 0)
            return -1;
    }
    for (long long s = 0; s < 4; s++) {
        if (((suits >> s) & 1) && mz_bit(&r, L[L_O_SUITS] + s, "suits_led") < 0) return -1;
    }
    if (owner >= 0 && mz_bit(&r, L[L_O_MOWNER] + ((owner - me) & 3), "matto_owner") < 0) return -1;
    int debt = PyObject_IsTrue(FIELD(v, L_F_matto_debt));
    if (debt < 0 || (debt && mz_bit(&r, L[L_O_MDEBT], "matto_debt") < 0)) return -1;
    /* pile_mine, pile_theirs (piles are by team) */
    PyObject *piles = mz_tuple(FIELD(v, L_F_piles), 2, "piles");
    if (!piles) return -1;
    long long team = me & 1;
    if (mz_mask(&r, L[L_O_MINE], PyTuple_GET_ITEM(piles, team), "piles") < 0 ||
        mz_mask(&r, L[L_O_THEIRS], PyTuple_GET_ITEM(piles, team ^ 1), "piles") < 0)
        return -1;
    /* scalars: n_tricks, then D, R and the series resti from my team's side */
    long long D, R, series;
    if (mz_small(FIELD(v, L_F_D), &D, "D") < 0 || mz_small(FIELD(v, L_F_R), &R, "R") < 0 ||
        mz_small(FIELD(v, L_F_series_resti), &series, "series_resti") < 0)
        return -1;
    double unit;
    if (mz_scale(FIELD(v, L_F_rules), s_resti_unit, &unit) < 0) return -1;
    long long sign = (me & 1) == 0 ? 1 : -1;
    double d = (double)(sign * D), rr = (double)(sign * R), sr = (double)(sign * series);
    double scale = (double)L[L_RESTI_SCALE];
    float *s = row + r.n;
    s[0] = (float)((double)n_tricks / (double)L[L_TRICKS_SCALE]);
    s[1] = d > 0 ? (float)(d / unit) : 0.0f;
    s[2] = d < 0 ? (float)(-d / unit) : 0.0f;
    s[3] = rr > 0 ? (float)(rr / scale) : 0.0f;
    s[4] = rr < 0 ? (float)(-rr / scale) : 0.0f;
    s[5] = sr > 0 ? (float)(sr / scale) : 0.0f;
    s[6] = sr < 0 ? (float)(-sr / scale) : 0.0f;
    if (mask && mz_legal(mask, L[L_NUM_ACTIONS], FIELD(v, L_F_legal_mask)) < 0) return -1;
    return 0;
}

MZ_MODULE("minchiate", "Minchiate", 7, s_resti_unit, "resti_unit")
