/* Calabresella's compiled search core: determinized playouts and the exact endgame solver,
 * move for move what agents/calabresella/rollout.py computes (``rollout_action`` in PLAY, and
 * ``solve``); the Python code is the reference, tests/calabresella/test_compiled_search.py
 * holds the two equal. The settlement is not here: the Python side tabulates it once per
 * (rules, contract, soloist, seat) from the rules kernel (agents/calabresella/csearch.py),
 * and the core looks the finished deal up in those tables.
 *
 * A world is the tuple (hands: (h0, h1, h2), trick: tuple of 0..2 cards, leader, pos, soloist,
 * thirds: the soloist pile's thirds, tricks: the soloist's tricks, done: closed tricks, aside:
 * the set-aside cards' thirds). The tables are indexed by the soloist side's final thirds
 * (the set-aside included), its tricks and the last trick's side.
 *
 * card_tables() -> (suit, strength, thirds): the card tables compiled in, for the loader's check
 * greedy_action(world) -> int: rollout_action of the position on turn
 * heuristic_action(world, views) -> int: HeuristicV1's play on the view of the position on turn
 * honest_value(world, views, play_table) -> float: the seat's return of PIMC's honest playout
 *     (bids): the heuristic on every position's own view to the end; views = (played: every
 *     card played, discards: per position what its seat discarded, shared: bit p when p's seat
 *     also holds the other defender, aperta, void: per position the suits shown void)
 * values(world, candidates, exact_tricks, seat_positions, play_table, leaf_table)
 *     -> tuple[float, ...]: per candidate card (None: the world as it is), the value for the
 *     seat that PIMC's playout gives: greedy until exact_tricks tricks are left, then solved.
 */
#include "../csearch.h"

#define GAME "calabresella"
#define TRICKS 12
#define TABLE_SIZE ((32 + 1) * (TRICKS + 1) * 2)

static int SUIT[40], STRENGTH[40], THIRDS[40];
static uint64_t SUIT_MASK[4], ABOVE[40];
static int BY_STRENGTH_ORDER[40]; /* card ids: strength 9 down to 0, then suit 0..3 */

static void init_tables(void) {
    /* ranks A 2 3 4 5 6 7 J N K; trick order 4 5 6 7 J N K A 2 3 (deck.py) */
    static const int strength[10] = {7, 8, 9, 0, 1, 2, 3, 4, 5, 6};
    static const int thirds[10] = {3, 1, 1, 0, 0, 0, 0, 1, 1, 1};
    for (int c = 0; c < 40; c++) {
        SUIT[c] = c / 10;
        STRENGTH[c] = strength[c % 10];
        THIRDS[c] = thirds[c % 10];
    }
    for (int s = 0; s < 4; s++) SUIT_MASK[s] = ((uint64_t)1023) << (10 * s);
    for (int c = 0; c < 40; c++) {
        ABOVE[c] = 0;
        for (int d = 0; d < 40; d++)
            if (SUIT[d] == SUIT[c] && STRENGTH[d] > STRENGTH[c]) ABOVE[c] |= (uint64_t)1 << d;
    }
    int k = 0;
    for (int st = 9; st >= 0; st--)
        for (int c = 0; c < 40; c++)
            if (STRENGTH[c] == st) BY_STRENGTH_ORDER[k++] = c;
}

#define BIT(c) ((uint64_t)1 << (c))
#define CTZ(m) __builtin_ctzll(m)
#define POPCOUNT(m) __builtin_popcountll(m)

typedef struct {
    uint64_t hands[3];
    int trick[3];
    int nt; /* cards in the trick */
    int leader, pos, soloist;
    int thirds, tricks, done;
    int aside;     /* the set-aside cards' thirds (they go to the last trick's side) */
    int last_side; /* of the last closed trick */
    /* for the heuristic's own views (honest playouts): */
    uint64_t played;      /* every card played (played_by), the trick included */
    uint64_t discards[3]; /* what the seat of each position knows it discarded */
    int shared;           /* bit p: p's seat also holds the other defender's position */
    int aperta;           /* the other defender's hand is open after trick 1 */
    int void_[3];         /* suits each position showed void in */
} World;

static inline uint64_t legal_plays(uint64_t hand, int led) {
    if (led < 0) return hand;
    uint64_t f = hand & SUIT_MASK[led];
    return f ? f : hand;
}

/* knowledge.lowest: fewest thirds then weakest (prefer_cheap), or weakest; the first minimum */
static int lowest(uint64_t cards, int prefer_cheap) {
    int best = -1, best_key = 1 << 30;
    while (cards) {
        int c = CTZ(cards);
        cards &= cards - 1;
        int key = prefer_cheap ? THIRDS[c] * 16 + STRENGTH[c] : STRENGTH[c];
        if (key < best_key) best = c, best_key = key;
    }
    return best;
}

static int trick_winner(const int *trick, int n) {
    int led = SUIT[trick[0]], best = 0;
    for (int i = 1; i < n; i++)
        if (SUIT[trick[i]] == led && STRENGTH[trick[i]] > STRENGTH[trick[best]]) best = i;
    return best;
}

/* rollout._play */
static int greedy_play(const World *w) {
    int pos = w->pos;
    uint64_t hand = w->hands[pos];
    if (w->nt == 0) {
        uint64_t rivals = w->hands[(pos + 1) % 3] | w->hands[(pos + 2) % 3];
        static const int levels[3] = {3, 1, 0};
        for (int l = 0; l < 3; l++) {
            uint64_t m = hand;
            while (m) {
                int c = CTZ(m);
                m &= m - 1;
                if (THIRDS[c] == levels[l] && (ABOVE[c] & rivals) == 0 &&
                    (rivals & SUIT_MASK[SUIT[c]]))
                    return c;
            }
        }
        int suit = 0, n = -1;
        for (int t = 0; t < 4; t++) {
            int k = POPCOUNT(hand & SUIT_MASK[t]);
            if (k > n) suit = t, n = k;
        }
        return lowest(hand & SUIT_MASK[suit], 0);
    }
    int led = SUIT[w->trick[0]];
    int best = trick_winner(w->trick, w->nt);
    int win_card = w->trick[best];
    int win_pos = (w->leader + best) % 3;
    int my_side = pos == w->soloist;
    uint64_t later = 0;
    for (int k = 1; k < 3 - w->nt; k++) {
        int p = (pos + k) % 3;
        if ((p == w->soloist) != my_side) later |= w->hands[p] & SUIT_MASK[led];
    }
    uint64_t follow = hand & SUIT_MASK[led];
    int partner = (win_pos == w->soloist) == my_side;
    if (partner && (ABOVE[win_card] & later) == 0) {
        uint64_t pool = legal_plays(hand, led);
        int out = -1, kt = -1, ks = 0;
        while (pool) { /* max by (thirds, -strength), the first maximum */
            int c = CTZ(pool);
            pool &= pool - 1;
            if (THIRDS[c] > kt || (THIRDS[c] == kt && -STRENGTH[c] > ks))
                out = c, kt = THIRDS[c], ks = -STRENGTH[c];
        }
        return out;
    }
    if (follow) {
        uint64_t m = follow & ABOVE[win_card];
        int out = -1, key = 1 << 30;
        while (m) {
            int c = CTZ(m);
            m &= m - 1;
            if ((ABOVE[c] & later) == 0 && STRENGTH[c] < key) out = c, key = STRENGTH[c];
        }
        if (out >= 0) return out;
        return lowest(follow, 1);
    }
    return lowest(hand, 1);
}

static void apply_play(World *w, int c) {
    w->hands[w->pos] ^= BIT(c);
    w->played |= BIT(c);
    if (w->nt > 0 && SUIT[c] != SUIT[w->trick[0]]) w->void_[w->pos] |= 1 << SUIT[w->trick[0]];
    w->trick[w->nt++] = c;
    if (w->nt < 3) {
        w->pos = w->pos < 2 ? w->pos + 1 : 0;
        return;
    }
    int winner = (w->leader + trick_winner(w->trick, 3)) % 3;
    if (winner == w->soloist) {
        w->thirds += THIRDS[w->trick[0]] + THIRDS[w->trick[1]] + THIRDS[w->trick[2]];
        w->tricks += 1;
    }
    w->last_side = winner == w->soloist ? 0 : 1;
    w->done += 1;
    w->nt = 0;
    w->leader = w->pos = winner;
}


/* ---------------------------------------------------------------- the heuristic (honest playouts) */
/* HeuristicV1's card play (agents/calabresella/heuristic.py) on the view of the position on
 * turn: what it reads of the view is rebuilt from the world (view.py: the partner's hand when
 * visible, the seat's discards, the played cards, the soloist's voids). */
static uint64_t masters(uint64_t hand, uint64_t gone) {
    uint64_t out = 0, safe = hand | gone;
    for (uint64_t m = hand; m; m &= m - 1) {
        int c = CTZ(m);
        if ((ABOVE[c] & ~safe) == 0) out |= BIT(c);
    }
    return out;
}

static int highest(uint64_t cards) {
    int best = -1, best_key = -1;
    for (; cards; cards &= cards - 1) {
        int c = CTZ(cards), key = STRENGTH[c] * 4 + THIRDS[c];
        if (key > best_key) best = c, best_key = key;
    }
    return best;
}

static double keep_score(int card, uint64_t hand, uint64_t gone) {
    int is_master = (ABOVE[card] & ~(hand | gone)) == 0;
    int length = POPCOUNT(hand & SUIT_MASK[SUIT[card]]);
    return (double)(100 * is_master + 10 * THIRDS[card] + 2 * length) + STRENGTH[card] / 10.0;
}

static int cheapest_to_lose(uint64_t hand, uint64_t gone) {
    int best = -1;
    double key = 0;
    for (uint64_t m = hand; m; m &= m - 1) {
        int c = CTZ(m);
        double k = keep_score(c, hand, gone);
        if (best < 0 || k < key) best = c, key = k;
    }
    return best;
}

static int feed(uint64_t cards, uint64_t safe) {
    uint64_t non_master = cards & ~masters(cards, safe & ~cards);
    uint64_t pool = non_master ? non_master : cards;
    int out = -1, kt = -1, ks = 0;
    for (; pool; pool &= pool - 1) { /* max by (thirds, -strength), the first maximum */
        int c = CTZ(pool);
        if (THIRDS[c] > kt || (THIRDS[c] == kt && -STRENGTH[c] > ks))
            out = c, kt = THIRDS[c], ks = -STRENGTH[c];
    }
    return out;
}

static int min_strength(uint64_t cards) {
    int out = -1, key = 1 << 30;
    for (; cards; cards &= cards - 1) {
        int c = CTZ(cards);
        if (STRENGTH[c] < key) out = c, key = STRENGTH[c];
    }
    return out;
}

static int heuristic_play(const World *w) {
    int pos = w->pos, sol = w->soloist;
    uint64_t hand = w->hands[pos];
    uint64_t partner = 0;
    if (pos != sol) {
        int other = (sol + 1) % 3 == pos ? (sol + 2) % 3 : (sol + 1) % 3;
        if ((w->shared >> pos & 1) || (w->aperta && w->done > 0)) partner = w->hands[other];
    }
    uint64_t gone = w->played | w->discards[pos] | partner;
    for (int i = 0; i < w->nt; i++) gone |= BIT(w->trick[i]);
    if (w->nt == 0) { /* HeuristicV1.lead */
        uint64_t top = masters(hand, gone);
        if (POPCOUNT(hand) == 2 && top && (hand & ~top)) return lowest(hand & ~top, 1);
        if (pos != sol) {
            uint64_t attack = 0;
            for (int t = 0; t < 4; t++)
                if (w->void_[sol] >> t & 1) attack |= SUIT_MASK[t];
            attack &= hand;
            if (attack) {
                int out = -1, k1 = -1, k2 = -1;
                for (; attack; attack &= attack - 1) { /* max by (thirds, strength) */
                    int c = CTZ(attack);
                    if (THIRDS[c] > k1 || (THIRDS[c] == k1 && STRENGTH[c] > k2))
                        out = c, k1 = THIRDS[c], k2 = STRENGTH[c];
                }
                return out;
            }
        }
        if (top) {
            int suit = 0, k1 = -1, k2 = -1;
            for (int t = 0; t < 4; t++) {
                int a = POPCOUNT(top & SUIT_MASK[t]), b = POPCOUNT(hand & SUIT_MASK[t]);
                if (a > k1 || (a == k1 && b > k2)) suit = t, k1 = a, k2 = b;
            }
            return highest(top & SUIT_MASK[suit]);
        }
        int suit = 0, n = -1;
        for (int t = 0; t < 4; t++) {
            int k = POPCOUNT(hand & SUIT_MASK[t]);
            if (k > n) suit = t, n = k;
        }
        return lowest(hand & SUIT_MASK[suit], 0);
    }
    int led = SUIT[w->trick[0]];
    int win_i = trick_winner(w->trick, w->nt);
    int win_card = w->trick[win_i];
    int win_pos = (w->leader + win_i) % 3;
    int mine = pos == sol;
    int partner_winning = ((win_pos == sol) == mine) && win_pos != pos;
    int last = w->nt == 2;
    int secure = last || (ABOVE[win_card] & ~(gone | hand)) == 0;
    uint64_t follow = hand & SUIT_MASK[led];
    if (!follow)
        return partner_winning && secure ? feed(hand, gone | hand) : cheapest_to_lose(hand, gone);
    if (partner_winning) return secure ? feed(follow, gone | hand) : lowest(follow, 1);
    uint64_t beats = follow & ABOVE[win_card];
    if (!beats) return lowest(follow, 1);
    if (last) return min_strength(beats);
    uint64_t own = masters(beats, gone | (hand & ~beats));
    if (own) return min_strength(own);
    return lowest(follow, 1);
}

/* ---------------------------------------------------------------- the endgame solver */
typedef struct {
    uint64_t hands[3];
    int trick[3];
    int soloist, aside;
    const double *leaves;
} Search;

static double node(Search *s, int nt, int leader, int pos, int thirds, int tricks, int done,
                   double alpha, double beta);

static double close_trick(Search *s, int leader, int thirds, int tricks, int done, double alpha,
                          double beta) {
    int a = s->trick[0], b = s->trick[1], c = s->trick[2];
    int w = 0;
    if (SUIT[b] == SUIT[a] && STRENGTH[b] > STRENGTH[a]) w = 1;
    if (SUIT[c] == SUIT[a] && STRENGTH[c] > STRENGTH[s->trick[w]]) w = 2;
    int winner = (leader + w) % 3;
    if (winner == s->soloist) {
        thirds += THIRDS[a] + THIRDS[b] + THIRDS[c];
        tricks += 1;
    }
    if (done + 1 == TRICKS) {
        int side = winner == s->soloist ? 0 : 1;
        if (side == 0) thirds += s->aside;
        return s->leaves[(thirds * (TRICKS + 1) + tricks) * 2 + side];
    }
    int saved[3] = {a, b, c};
    double v = node(s, 0, winner, winner, thirds, tricks, done + 1, alpha, beta);
    memcpy(s->trick, saved, sizeof saved);
    return v;
}

static double node(Search *s, int nt, int leader, int pos, int thirds, int tricks, int done,
                   double alpha, double beta) {
    uint64_t moves = legal_plays(s->hands[pos], nt ? SUIT[s->trick[0]] : -1);
    int maximise = pos == s->soloist;
    double best = maximise ? -1e9 : 1e9;
    int nxt = pos < 2 ? pos + 1 : 0;
    for (int k = 0; k < 40 && moves; k++) { /* strong cards first, as the Python sort */
        int c = BY_STRENGTH_ORDER[k];
        if (!(moves & BIT(c))) continue;
        moves ^= BIT(c);
        s->hands[pos] ^= BIT(c);
        s->trick[nt] = c;
        double v;
        if (nt + 1 == 3)
            v = close_trick(s, leader, thirds, tricks, done, alpha, beta);
        else
            v = node(s, nt + 1, leader, nxt, thirds, tricks, done, alpha, beta);
        s->hands[pos] ^= BIT(c);
        if (maximise) {
            if (v > best) {
                best = v;
                if (v > alpha) alpha = v;
            }
        } else if (v < best) {
            best = v;
            if (v < beta) beta = v;
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* rollout.solve's value for the seat of positions seat_positions (bit p: position p). */
static double solve(const World *w, int seat_positions, const double *leaves) {
    Search s;
    memcpy(s.hands, w->hands, sizeof s.hands);
    memcpy(s.trick, w->trick, sizeof s.trick);
    s.soloist = w->soloist;
    s.aside = w->aside;
    s.leaves = leaves;
    double value = node(&s, w->nt, w->leader, w->pos, w->thirds, w->tricks, w->done, -1e9, 1e9);
    double unit = value / 2, out = 0.0;
    for (int p = 0; p < 3; p++)
        if (seat_positions >> p & 1) out += (p == w->soloist ? 2 : -1) * unit;
    return out;
}

/* The table index of a finished deal: the soloist's final thirds, tricks, the last side. */
static inline int final_index(const World *w) {
    int thirds = w->thirds + (w->last_side == 0 ? w->aside : 0);
    return (thirds * (TRICKS + 1) + w->tricks) * 2 + w->last_side;
}

/* PIMC's playout of a world: greedy until exact tricks are left, then solved. */
static double playout(World *w, int exact, int seat_positions, const double *play,
                      const double *leaves) {
    for (;;) {
        if (w->done == TRICKS)
            return play[final_index(w)];
        if (TRICKS - w->done <= exact) return solve(w, seat_positions, leaves);
        apply_play(w, greedy_play(w));
    }
}

/* PIMC's honest playout (bids): the heuristic on every position's own view to the end. */
static double honest(World *w, const double *play) {
    while (w->done < TRICKS) apply_play(w, heuristic_play(w));
    return play[final_index(w)];
}

/* ---------------------------------------------------------------- reading a world */
static int read_world(PyObject *o, World *w) {
    PyObject *t = cs_tuple(o, 9, GAME, "world");
    if (!t) return -1;
    PyObject *hands = cs_tuple(PyTuple_GET_ITEM(t, 0), 3, GAME, "hands");
    if (!hands) return -1;
    uint64_t all = 0, hi;
    for (int p = 0; p < 3; p++) {
        if (cs_mask(PyTuple_GET_ITEM(hands, p), 40, &w->hands[p], &hi, GAME, "hands") < 0)
            return -1;
        if (all & w->hands[p]) {
            PyErr_Format(PyExc_ValueError, "%s search: world field 'hands' repeats a card",
                         GAME);
            return -1;
        }
        all |= w->hands[p];
    }
    PyObject *trick = cs_tuple(PyTuple_GET_ITEM(t, 1), -3, GAME, "trick");
    if (!trick) return -1;
    w->nt = (int)PyTuple_GET_SIZE(trick);
    for (int i = 0; i < w->nt; i++) {
        long c;
        if (cs_int(PyTuple_GET_ITEM(trick, i), 0, 39, &c, GAME, "trick") < 0) return -1;
        if (all & BIT(c)) {
            PyErr_Format(PyExc_ValueError,
                         "%s search: world field 'trick' holds card %ld, also in a hand or "
                         "earlier in the trick",
                         GAME, c);
            return -1;
        }
        all |= BIT(c);
        w->trick[i] = (int)c;
    }
    int remaining = 0;
    for (uint64_t m = all; m; m &= m - 1) remaining += THIRDS[CTZ(m)];
    long v[7];
    static const char *names[7] = {"leader", "pos",  "soloist", "thirds",
                                   "tricks", "done", "aside"};
    static const long hi_of[7] = {2, 2, 2, 32, TRICKS, TRICKS - 1, 32};
    for (int i = 0; i < 7; i++)
        if (cs_int(PyTuple_GET_ITEM(t, 2 + i), 0, hi_of[i], &v[i], GAME, names[i]) < 0)
            return -1;
    w->leader = (int)v[0], w->pos = (int)v[1], w->soloist = (int)v[2];
    w->thirds = (int)v[3], w->tricks = (int)v[4], w->done = (int)v[5], w->aside = (int)v[6];
    w->last_side = 0;
    w->played = 0;
    w->shared = w->aperta = 0;
    for (int p = 0; p < 3; p++) w->discards[p] = 0, w->void_[p] = 0;
    if (w->pos != (w->leader + w->nt) % 3) {
        PyErr_Format(PyExc_ValueError,
                     "%s search: world field 'pos' must be (leader + len(trick)) %% 3 = %d, "
                     "got %d",
                     GAME, (w->leader + w->nt) % 3, w->pos);
        return -1;
    }
    if (w->thirds + remaining + w->aside > 32) {
        PyErr_Format(PyExc_ValueError,
                     "%s search: world fields 'thirds' (%d) and 'aside' (%d) and the thirds "
                     "still in play (%d) exceed the deck's 32",
                     GAME, w->thirds, w->aside, remaining);
        return -1;
    }
    if (w->tricks > w->done) {
        PyErr_Format(PyExc_ValueError,
                     "%s search: world field 'tricks' (%d) exceeds the closed tricks 'done' (%d)",
                     GAME, w->tricks, w->done);
        return -1;
    }
    for (int k = 0; k < 3; k++) {
        int p = (w->leader + k) % 3;
        int want = TRICKS - w->done - (k < w->nt ? 1 : 0);
        if (POPCOUNT(w->hands[p]) != want) {
            PyErr_Format(PyExc_ValueError,
                         "%s search: world field 'hands' gives position %d %d cards, %d "
                         "expected after %d tricks and this trick",
                         GAME, p, POPCOUNT(w->hands[p]), want, w->done);
            return -1;
        }
    }
    return 0;
}

/* The view fields of an honest playout: (played, discards: 3 masks, shared, aperta, void: 3
 * suit masks). */
static int read_views(PyObject *o, World *w) {
    PyObject *t = cs_tuple(o, 5, GAME, "views");
    if (!t) return -1;
    uint64_t hi;
    if (cs_mask(PyTuple_GET_ITEM(t, 0), 40, &w->played, &hi, GAME, "played") < 0) return -1;
    uint64_t in_play = 0;
    for (int p = 0; p < 3; p++) in_play |= w->hands[p];
    if (w->played & in_play) {
        PyErr_Format(PyExc_ValueError, "%s search: world field 'played' holds a card of a hand",
                     GAME);
        return -1;
    }
    for (int i = 0; i < w->nt; i++) {
        if (!(w->played & BIT(w->trick[i]))) {
            PyErr_Format(PyExc_ValueError,
                         "%s search: world field 'played' lacks card %d of the trick", GAME,
                         w->trick[i]);
            return -1;
        }
    }
    PyObject *discards = cs_tuple(PyTuple_GET_ITEM(t, 1), 3, GAME, "discards");
    PyObject *voids = discards ? cs_tuple(PyTuple_GET_ITEM(t, 4), 3, GAME, "void") : NULL;
    if (!voids) return -1;
    long v;
    for (int p = 0; p < 3; p++) {
        if (cs_mask(PyTuple_GET_ITEM(discards, p), 40, &w->discards[p], &hi, GAME, "discards") <
                0 ||
            cs_int(PyTuple_GET_ITEM(voids, p), 0, 15, &v, GAME, "void") < 0)
            return -1;
        w->void_[p] = (int)v;
    }
    if (cs_int(PyTuple_GET_ITEM(t, 2), 0, 7, &v, GAME, "shared") < 0) return -1;
    w->shared = (int)v;
    if (cs_int(PyTuple_GET_ITEM(t, 3), 0, 1, &v, GAME, "aperta") < 0) return -1;
    w->aperta = (int)v;
    return 0;
}

/* ---------------------------------------------------------------- the module */
static PyObject *py_card_tables(PyObject *self, PyObject *noargs) {
    PyObject *out = PyTuple_New(3);
    if (!out) return NULL;
    const int *tables[3] = {SUIT, STRENGTH, THIRDS};
    for (int k = 0; k < 3; k++) {
        PyObject *t = PyTuple_New(40);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        for (int c = 0; c < 40; c++) PyTuple_SET_ITEM(t, c, PyLong_FromLong(tables[k][c]));
        PyTuple_SET_ITEM(out, k, t);
    }
    return out;
}

static PyObject *py_greedy_action(PyObject *self, PyObject *arg) {
    World w;
    if (read_world(arg, &w) < 0) return NULL;
    return PyLong_FromLong(greedy_play(&w));
}

static PyObject *py_heuristic_action(PyObject *self, PyObject *args) {
    PyObject *world, *views;
    if (!PyArg_ParseTuple(args, "OO:heuristic_action", &world, &views)) return NULL;
    World w;
    if (read_world(world, &w) < 0 || read_views(views, &w) < 0) return NULL;
    return PyLong_FromLong(heuristic_play(&w));
}

static PyObject *py_honest_value(PyObject *self, PyObject *args) {
    PyObject *world, *views, *play_o;
    if (!PyArg_ParseTuple(args, "OOO:honest_value", &world, &views, &play_o)) return NULL;
    World w;
    if (read_world(world, &w) < 0 || read_views(views, &w) < 0) return NULL;
    const double *play = cs_table(play_o, TABLE_SIZE, GAME, "play_table");
    if (!play) return NULL;
    return PyFloat_FromDouble(honest(&w, play));
}

static PyObject *py_values(PyObject *self, PyObject *args) {
    PyObject *world, *cands, *play_o, *leaf_o;
    int exact, seat_positions;
    if (!PyArg_ParseTuple(args, "OOiiOO:values", &world, &cands, &exact, &seat_positions,
                          &play_o, &leaf_o))
        return NULL;
    World w0;
    if (read_world(world, &w0) < 0) return NULL;
    if (exact < 0 || exact > TRICKS) {
        PyErr_Format(PyExc_ValueError, "%s search: 'exact_tricks' must be in 0..%d, got %d",
                     GAME, TRICKS, exact);
        return NULL;
    }
    if (seat_positions < 0 || seat_positions > 7) {
        PyErr_Format(PyExc_ValueError,
                     "%s search: 'seat_positions' must be a mask of positions 0..2, got %d", GAME,
                     seat_positions);
        return NULL;
    }
    const double *play = cs_table(play_o, TABLE_SIZE, GAME, "play_table");
    const double *leaves = play ? cs_table(leaf_o, TABLE_SIZE, GAME, "leaf_table") : NULL;
    if (!leaves) return NULL;
    int cand[40], n;
    if (cs_candidates(cands, 40, 40, cand, &n, GAME) < 0) return NULL;
    uint64_t legal = legal_plays(w0.hands[w0.pos], w0.nt ? SUIT[w0.trick[0]] : -1);
    for (int i = 0; i < n; i++) {
        if (!(legal & BIT(cand[i]))) {
            PyErr_Format(PyExc_ValueError,
                         "%s search: candidate %d is not a legal play of position %d", GAME,
                         cand[i], w0.pos);
            return NULL;
        }
    }
    PyObject *out = PyTuple_New(n ? n : 1);
    if (!out) return NULL;
    for (int i = 0; i < (n ? n : 1); i++) {
        World w = w0;
        if (n) apply_play(&w, cand[i]);
        PyObject *f = PyFloat_FromDouble(playout(&w, exact, seat_positions, play, leaves));
        if (!f) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, f);
    }
    return out;
}

static PyMethodDef METHODS[] = {
    {"card_tables", py_card_tables, METH_NOARGS,
     "card_tables() -> (suit, strength, thirds): the card tables compiled in."},
    {"greedy_action", py_greedy_action, METH_O,
     "greedy_action(world) -> int: rollout_action of the position on turn (PLAY)."},
    {"heuristic_action", py_heuristic_action, METH_VARARGS,
     "heuristic_action(world, views) -> int: HeuristicV1's play for the position on turn."},
    {"honest_value", py_honest_value, METH_VARARGS,
     "honest_value(world, views, play_table) -> float: the seat's return once the heuristic "
     "has played every position's own view to the end."},
    {"values", py_values, METH_VARARGS,
     "values(world, candidates, exact_tricks, seat_positions, play_table, leaf_table) -> "
     "tuple[float, ...]: each candidate's playout value for the seat (None: the world as is)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_csearch",
    "Calabresella's compiled search core (agents/calabresella/_csearch.c).", -1, METHODS,
};

PyMODINIT_FUNC PyInit__csearch(void) {
    init_tables();
    return PyModule_Create(&MODULE);
}
