/* Minchiate's compiled search core: determinized playouts and the exact endgame solver, move
 * for move what agents/minchiate/rollout.py computes (``rollout_action`` in PLAY and in the
 * Matto payment, ``playout`` and ``solve``), with the rules kernel's trick closing, resti
 * ratchet and settlement (envs/minchiate/kernel.py, combos.py) ported literally; the Python
 * code is the reference, tests/minchiate/test_compiled_search.py holds the two equal.
 *
 * Cards are bits of a 97-bit mask (unsigned __int128). The per-card tables come from the
 * engine through configure(suit, strength, value); every other table is derived from them here.
 *
 * A world is the tuple (hands: 4 masks, trick: 0..3 cards, leader, suits_led, piles: 2 masks,
 * D, R, matto_owner, matto_debt, done: closed tricks, decl_end: 2 ints); the led suit, the top
 * trump and the seat on turn follow from the trick. A config is the tuple of the rules' ints
 * (agents/minchiate/csearch.py, CONFIG_FIELDS).
 *
 * configure(suit, strength, value) -> None
 * card_tables() -> (suit, strength, value)
 * greedy_action(world, config) -> int: rollout_action of the seat on turn (PLAY)
 * values(world, candidates, exact_tricks, team, point_weight, config) -> tuple[float, ...]
 */
#include "../csearch.h"

#ifndef __SIZEOF_INT128__
#error "the Minchiate search core needs a compiler with unsigned __int128"
#endif

#define GAME "minchiate"
#define NC 97
#define MATTO 40
#define TRUMP 4
#define T29 28
#define TRICKS 21

typedef unsigned __int128 u128;
#define ONE ((u128)1)
#define BIT(c) (ONE << (c))

static int SUIT[NC], STRENGTH[NC], VALUE[NC], CAPTURE[NC], POWER[NC];
static int WIN_KEY[5][NC];
static u128 SUIT_MASK[6], KING[4], ALL_KINGS, TRUMPS, MATTO_BIT, PLAIN, HIGH_MASTERS;
static u128 ABOVE_TRUMP[40], V3, V5, V10, DISCARDABLE, COMBO_CARDS;
static int KING_CARD[4];
static int SOLVE_ORDER[NC]; /* the solver's move order: key c (trumps, Matto) or 41 + strength,
                               descending, ties by id */
static int configured = 0;

static inline int ctz128(u128 m) {
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}
static inline int top128(u128 m) { /* bit_length - 1 */
    uint64_t hi = (uint64_t)(m >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)m);
}
static inline int pop128(u128 m) {
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}
/* for each card c of mask (ascending ids): the statements that follow */
#define EACH(c, mask, ...)                        \
    for (u128 _m = (mask); _m; _m &= _m - 1) { \
        int c = ctz128(_m);                       \
        __VA_ARGS__                               \
    }

/* ---------------------------------------------------------------- the rules (config) */
typedef struct {
    int king_rule, overtrump, capture_bonus, matto_last_trick_lost, unit, agent_pays,
        death_bonus, end_recount, diecine, matto_bonus_at_end, bonus_own, surplus_base,
        last_trick_bonus;
    int blind_leads; /* the playout's leads without the other hands (rollout._lead, blind) */
} Config;
#define N_CONFIG 14
enum { DIECINE_MERGE_FOUR, DIECINE_TWO_TRIPLES, DIECINE_ANY_THREE };

static int power_of(int c) { /* heuristic.power */
    if (c < 40) return 100 + c + (VALUE[c] ? 50 : 0) + (c == T29 ? 30 : 0);
    if (c == MATTO) return 500;
    return STRENGTH[c] + (VALUE[c] ? 30 : 0);
}

static void derive_tables(void) {
    static const int suit_base[4] = {41, 55, 69, 83};
    for (int s = 0; s < 6; s++) SUIT_MASK[s] = 0;
    V3 = V5 = V10 = DISCARDABLE = 0;
    for (int c = 0; c < NC; c++) {
        SUIT_MASK[SUIT[c]] |= BIT(c);
        CAPTURE[c] = c == MATTO ? 0 : VALUE[c];
        if (VALUE[c] == 3) V3 |= BIT(c);
        if (VALUE[c] == 5) V5 |= BIT(c);
        if (VALUE[c] == 10) V10 |= BIT(c);
        if (VALUE[c] == 0 && c != T29) DISCARDABLE |= BIT(c);
    }
    TRUMPS = (ONE << 40) - 1;
    MATTO_BIT = BIT(MATTO);
    ALL_KINGS = 0;
    for (int s = 0; s < 4; s++) {
        KING_CARD[s] = suit_base[s] + 13;
        KING[s] = BIT(KING_CARD[s]);
        ALL_KINGS |= KING[s];
    }
    PLAIN = SUIT_MASK[0] | SUIT_MASK[1] | SUIT_MASK[2] | SUIT_MASK[3];
    HIGH_MASTERS = 0;
    for (int t = 35; t < 40; t++) HIGH_MASTERS |= BIT(t);
    for (int t = 0; t < 40; t++) ABOVE_TRUMP[t] = TRUMPS & ~((ONE << (t + 1)) - 1);
    COMBO_CARDS = MATTO_BIT | ALL_KINGS;
    static const int combo_trumps[8] = {1, 2, 3, 4, 5, 10, 13, 20};
    for (int i = 0; i < 8; i++) COMBO_CARDS |= BIT(combo_trumps[i] - 1);
    for (int n = 28; n <= 40; n++) COMBO_CARDS |= BIT(n - 1);
    for (int led = 0; led < 5; led++) /* mazzo.envs.cards.tricks.build_win_keys, trumps = suit 4 */
        for (int c = 0; c < NC; c++)
            WIN_KEY[led][c] = SUIT[c] == TRUMP ? 200 + STRENGTH[c]
                              : SUIT[c] == led ? 100 + STRENGTH[c]
                                               : 0;
    for (int c = 0; c < NC; c++) POWER[c] = power_of(c);
    int k = 0;
    for (int key = 41 + 64; key >= 0; key--)
        for (int c = 0; c < NC; c++)
            if ((c < 41 ? c : 41 + STRENGTH[c]) == key) SOLVE_ORDER[k++] = c;
}

/* ---------------------------------------------------------------- kernel (mazzo.envs.minchiate.kernel) */
static u128 play_mask(u128 hand, int led, int top, int suits_led, const Config *cf) {
    if (led < 0) return hand;
    if (led != TRUMP) {
        if (cf->king_rule && top >= 0 && (hand & KING[led]) && !((suits_led >> led) & 1))
            return KING[led];
        u128 follow = hand & SUIT_MASK[led];
        if (follow) return follow | (hand & MATTO_BIT);
    }
    u128 trumps = hand & TRUMPS;
    if (!trumps) return hand;
    if (cf->overtrump && top >= 0) {
        u128 higher = trumps >> (top + 1) << (top + 1);
        if (higher) trumps = higher;
    }
    return trumps | (hand & MATTO_BIT);
}

static int trick_winner(const int *trick, int n, int led) { /* mazzo.envs.cards.tricks.trick_winner */
    const int *keys = WIN_KEY[led];
    int best = 0, best_key = keys[trick[0]];
    for (int i = 1; i < n; i++)
        if (keys[trick[i]] > best_key) best = i, best_key = keys[trick[i]];
    return best;
}

enum { NO_MATTO, MATTO_KEPT, MATTO_DEBT, MATTO_LOST };

static void ratchet(long long *d, long long *r, int unit) {
    if (*d >= unit) {
        long long q = *d / unit;
        *d -= q * unit, *r += q;
    } else if (*d <= -unit) {
        long long q = -*d / unit;
        *d += q * unit, *r -= q;
    }
}

static long long end_rounding(long long d, int unit) {
    if (d > 0) return (d + unit - 1) / unit;
    if (d < 0) return -((unit - 1 - d) / unit);
    return 0;
}

static int auto_payment(u128 pile) {
    u128 zero = pile & DISCARDABLE;
    if (zero) return ctz128(zero);
    int best = -1, key = 1 << 30;
    EACH(c, pile & ~MATTO_BIT, {
        if (VALUE[c] < key) best = c, key = VALUE[c];
    })
    return best;
}

#define ASK (-2)
static int matto_handover(u128 pile, int debt, int lost, int agent_pays) {
    if (lost) return MATTO;
    if (!debt) return -1;
    if (!(pile & ~MATTO_BIT)) return MATTO;
    return agent_pays ? ASK : auto_payment(pile);
}

static int cval(int c) { return c == T29 ? 5 : VALUE[c]; }

/* combos.find_combos scored: runs of >= 3 among first..first+width-1 */
static int runs_points(u128 holder, int first, int width) {
    int total = 0, i = 0;
    while (i < width) {
        if (!((holder >> (first + i)) & 1)) {
            i++;
            continue;
        }
        int j = i, pts = 0;
        while (j < width && ((holder >> (first + j)) & 1)) pts += cval(first + j), j++;
        if (j - i >= 3) total += pts;
        i = j;
    }
    return total;
}

static int runs_count(u128 holder, int first, int width) {
    int n = 0, i = 0;
    while (i < width) {
        if (!((holder >> (first + i)) & 1)) {
            i++;
            continue;
        }
        int j = i;
        while (j < width && ((holder >> (first + j)) & 1)) j++;
        if (j - i >= 3) n++;
        i = j;
    }
    return n;
}

static int mask_points(u128 m) {
    int p = 0;
    EACH(c, m, { p += cval(c); })
    return p;
}

static int combo_points(u128 pile, const Config *cf) { /* kernel.combo_points */
    if (!cf->end_recount) return 0;
    u128 h = pile & COMBO_CARDS;
    int points = 0, n = 0, matto_combos = 0;
    points += runs_points(h, 0, 5) + runs_points(h, 27, 13);
    n += runs_count(h, 0, 5) + runs_count(h, 27, 13);
    u128 one_13_28 = BIT(0) | BIT(12) | BIT(27), one_40_m = BIT(0) | BIT(39) | MATTO_BIT;
    u128 d4 = BIT(9) | BIT(19) | BIT(29) | BIT(39), d_low = BIT(9) | BIT(19) | BIT(29),
         d_high = BIT(19) | BIT(29) | BIT(39);
    if ((h & one_13_28) == one_13_28) points += mask_points(one_13_28), n++;
    u128 d = h & d4;
    if (d && pop128(d) >= 3) {
        if (cf->diecine == DIECINE_ANY_THREE)
            points += mask_points(d), n++;
        else if (cf->diecine == DIECINE_MERGE_FOUR && d == d4)
            points += mask_points(d4), n++;
        else {
            if ((d & d_low) == d_low) points += mask_points(d_low), n++;
            if ((d & d_high) == d_high) points += mask_points(d_high), n++;
        }
    }
    if ((h & one_40_m) == one_40_m) points += mask_points(one_40_m), n++, matto_combos++;
    u128 kings = h & ALL_KINGS;
    if (pop128(kings) >= 3) points += 5 * pop128(kings), n++;
    if (cf->matto_bonus_at_end && (h & MATTO_BIT))
        points += 5 * (cf->bonus_own ? n : n - matto_combos);
    return points;
}

static long long end_total(u128 pile, int won_last, long long declared, const Config *cf) {
    int cards = pop128(pile);
    return 3 * pop128(pile & V3) + 5 * pop128(pile & V5) + 10 * pop128(pile & V10) +
           combo_points(pile, cf) + (cards > cf->surplus_base ? cards - cf->surplus_base : 0) +
           (won_last ? cf->last_trick_bonus : 0) + declared;
}

/* kernel.settle: (d_final, R) after trick 21 */
static void settle(u128 pa, u128 pb, int mo, int card, int last_winner, const long long *decl,
                   long long d, long long r, const Config *cf, long long *d_final,
                   long long *resti) {
    if (card >= 0) {
        if ((mo & 1) == 0)
            pa ^= BIT(card), pb |= BIT(card);
        else
            pa |= BIT(card), pb ^= BIT(card);
        int points = card == MATTO && cf->death_bonus ? VALUE[MATTO] : 0;
        if (points) {
            d = (mo & 1) ? d + points : d - points;
            ratchet(&d, &r, cf->unit);
        }
    }
    int last = last_winner & 1;
    long long net = end_total(pa, last == 0, decl[0], cf) - end_total(pb, last == 1, decl[1], cf);
    *d_final = d + net;
    *resti = r + end_rounding(d + net, cf->unit);
}

/* ---------------------------------------------------------------- the world */
typedef struct {
    u128 hands[4], piles[2];
    int trick[4], nt;
    int leader, led, top, suits_led, to_play;
    long long d, r, decl[2];
    int matto_owner, matto_debt, matto_lost, done, last_winner;
} World;

/* State._apply_play and _finish_trick (no declarations in trick 1: the caller's business) */
static void apply_play(World *w, int c, const Config *cf) {
    int seat = w->to_play;
    w->hands[seat] ^= BIT(c);
    w->trick[w->nt++] = c;
    if (c < 40) {
        if (w->led < 0) w->led = TRUMP;
        if (c > w->top) w->top = c;
    } else if (c == MATTO) {
        w->matto_owner = seat;
    } else if (w->led < 0) {
        w->led = SUIT[c];
    }
    if (w->nt < 4) {
        w->to_play = (seat + 1) & 3;
        return;
    }
    int n = w->done + 1, led = w->led;
    int winner = (w->leader + trick_winner(w->trick, 4, led)) & 3, team = winner & 1;
    u128 cards = BIT(w->trick[0]) | BIT(w->trick[1]) | BIT(w->trick[2]) | BIT(w->trick[3]);
    w->piles[team] |= cards & ~MATTO_BIT;
    if (cf->capture_bonus) {
        int i = (team ^ w->leader ^ 1) & 1;
        int points = CAPTURE[w->trick[i]] + CAPTURE[w->trick[i + 2]];
        if (points) {
            w->d = team == 0 ? w->d + points : w->d - points;
            ratchet(&w->d, &w->r, cf->unit);
        }
    }
    if (cards & MATTO_BIT) {
        int matto = n == TRICKS && cf->matto_last_trick_lost ? MATTO_LOST
                    : (w->matto_owner & 1) != team           ? MATTO_DEBT
                                                             : MATTO_KEPT;
        w->piles[w->matto_owner & 1] |= MATTO_BIT;
        w->matto_debt = matto == MATTO_DEBT;
        w->matto_lost = matto == MATTO_LOST;
    }
    if (led < TRUMP) w->suits_led |= 1 << led;
    w->done = n;
    w->nt = 0;
    w->led = w->top = -1;
    w->leader = w->to_play = winner;
    if (n == TRICKS) w->last_winner = winner;
}

/* ---------------------------------------------------------------- the greedy policy */
static int max_key(u128 cards, int led) {
    u128 trumps = cards & TRUMPS;
    if (trumps) return 200 + top128(trumps) + 1;
    if (led < TRUMP) {
        int best = 0;
        EACH(c, cards & SUIT_MASK[led], {
            if (100 + STRENGTH[c] > best) best = 100 + STRENGTH[c];
        })
        return best;
    }
    return 0;
}

static int beaten(const World *w, int seat, int key, int top, const Config *cf) {
    int n = w->nt + 1, team = seat & 1;
    for (int k = 1; k < 5 - n; k++) {
        int q = (seat + k) & 3;
        if ((q & 1) == team) continue;
        u128 m = play_mask(w->hands[q], w->led, top, w->suits_led, cf);
        if (max_key(m, w->led) > key) return 1;
    }
    return 0;
}

static int cheapest(u128 cards) { /* heuristic.cheapest */
    int best = -1, best_key = 1 << 30;
    EACH(c, cards, {
        int k = VALUE[c] * 1000 + POWER[c];
        if (k < best_key) best = c, best_key = k;
    })
    return best;
}

static int duck(const World *w, u128 legal, int losing) {
    u128 plain = legal & ~MATTO_BIT, cheap = 0;
    EACH(c, plain, {
        if (!VALUE[c]) cheap |= BIT(c);
    })
    if ((legal & MATTO_BIT) && ((!cheap && losing) || pop128(w->hands[w->to_play]) == 2))
        return MATTO;
    return cheapest(cheap ? cheap : plain ? plain : legal);
}

/* rollout._lead: blind, the leader sees only what the table sees (his hand, the cards out of
 * the hands): a king is led at the suit's first lead (nobody has shown a void in it yet), a
 * plain card from the suit with the most cards left in the other hands together */
static int lead(const World *w, int seat, u128 hand, u128 legal, int blind) {
    u128 others = 0;
    for (int q = 0; q < 4; q++)
        if (q != seat) others |= w->hands[q];
    if (pop128(hand) == 2) {
        if (hand & MATTO_BIT) return MATTO;
        u128 trumps = hand & TRUMPS;
        if (trumps) {
            int top = top128(trumps);
            if (!(others & ABOVE_TRUMP[top]) && (hand & ~BIT(top))) return top128(hand & ~BIT(top));
        }
    }
    int o1 = (seat + 1) & 3, o3 = (seat + 3) & 3;
    u128 opp = blind ? others : w->hands[o1] | w->hands[o3];
    for (int suit = 0; suit < 4; suit++) {
        if ((hand & KING[suit]) && !((w->suits_led >> suit) & 1)) {
            int trumpers = 0;
            int qs[2] = {o1, o3};
            for (int i = 0; i < 2 && !blind; i++)
                if (!(w->hands[qs[i]] & SUIT_MASK[suit]) && (w->hands[qs[i]] & TRUMPS)) trumpers++;
            if (!trumpers) return KING_CARD[suit];
        }
    }
    u128 plain = hand & PLAIN & ~ALL_KINGS;
    if (plain) {
        int best_suit = -1, best_n = -1;
        for (int suit = 0; suit < 4; suit++) {
            if (plain & SUIT_MASK[suit]) {
                int n = pop128(opp & SUIT_MASK[suit]) + ((hand & KING[suit]) ? 0 : 20);
                if (n > best_n) best_suit = suit, best_n = n;
            }
        }
        int out = -1, key = 1 << 30;
        EACH(c, plain & SUIT_MASK[best_suit], {
            if (STRENGTH[c] < key) out = c, key = STRENGTH[c];
        })
        return out;
    }
    u128 rest = hand & ~MATTO_BIT;
    return cheapest(rest ? rest : legal);
}

/* rollout._play */
static int greedy_play(const World *w, const Config *cf) {
    int seat = w->to_play;
    u128 hand = w->hands[seat];
    u128 legal = play_mask(hand, w->led, w->top, w->suits_led, cf);
    if ((legal & (legal - 1)) == 0) return top128(legal);
    if (w->led < 0) return lead(w, seat, hand, legal, cf->blind_leads);
    const int *keys = WIN_KEY[w->led];
    int best_i = trick_winner(w->trick, w->nt, w->led);
    int best_key = keys[w->trick[best_i]];
    int team = seat & 1, top = w->top;
    if (((w->leader + best_i) & 1) == team && !beaten(w, seat, best_key, top, cf)) {
        int out = -1, k1 = -1, k2 = -1, k3 = 0;
        EACH(c, legal & ~MATTO_BIT & ~HIGH_MASTERS, { /* max (c > 40, VALUE, -c) */
            if (VALUE[c]) {
                int a = c > 40, b = VALUE[c];
                if (a > k1 || (a == k1 && (b > k2 || (b == k2 && -c > k3))))
                    out = c, k1 = a, k2 = b, k3 = -c;
            }
        })
        if (out >= 0) return out;
        return duck(w, legal, 0);
    }
    int value = 0;
    for (int i = 0; i < w->nt; i++) value += CAPTURE[w->trick[i]];
    int spend = value >= 5 || w->done >= 17;
    int order[NC], n = 0;
    EACH(c, legal, {
        int j = n++; /* stable insertion sort by power */
        while (j > 0 && POWER[order[j - 1]] > POWER[c]) order[j] = order[j - 1], j--;
        order[j] = c;
    })
    for (int i = 0; i < n; i++) {
        int c = order[i];
        if (keys[c] <= best_key || c == MATTO || ((BIT(c) & HIGH_MASTERS) && !spend)) continue;
        if (!beaten(w, seat, keys[c], c < 40 && c > top ? c : top, cf)) return c;
    }
    return duck(w, legal, 1);
}

/* heuristic.pay_choice, for the Matto's owner after trick 21 */
static int pay_choice(const World *w, const Config *cf) {
    int team = w->matto_owner & 1, last = w->last_winner & 1;
    u128 mine = w->piles[team], theirs = w->piles[team ^ 1];
    int best = -1;
    long long k1 = -1000000000LL, k2 = -1000000000LL;
    EACH(c, mine & ~MATTO_BIT, {
        long long tm = end_total(mine & ~BIT(c), last == team, w->decl[team], cf);
        long long tt = end_total(theirs | BIT(c), last != team, w->decl[team ^ 1], cf);
        long long net = team == 0 ? tm - tt : tt - tm;
        long long d = w->d + net, r = w->r + end_rounding(d, cf->unit);
        long long a = team == 0 ? r : -r, b = team == 0 ? d : -d;
        if (a > k1 || (a == k1 && b > k2)) best = c, k1 = a, k2 = b;
    })
    return best;
}

/* ---------------------------------------------------------------- the endgame solver */
typedef struct {
    u128 hands[4];
    int trick[4];
    const Config *cf;
    const long long *decl;
    double w;
} Search;

static double node(Search *s, int nt, int leader, int led, int top, int suits, u128 pa, u128 pb,
                   long long d, long long r, int mo, int debt, int done, double alpha,
                   double beta);

static double leaf(Search *s, u128 pa, u128 pb, long long d, long long r, int mo, int debt,
                   int lost, int last) {
    int card = mo >= 0 ? matto_handover((mo & 1) ? pb : pa, debt, lost, 0) : -1;
    long long d_final, resti;
    settle(pa, pb, mo, card, last, s->decl, d, r, s->cf, &d_final, &resti);
    return (double)resti + s->w * (double)d_final;
}

static double close_node(Search *s, int leader, int led, int suits, u128 pa, u128 pb,
                         long long d, long long r, int mo, int debt, int done, double alpha,
                         double beta) {
    const Config *cf = s->cf;
    int n = done + 1;
    int winner = (leader + trick_winner(s->trick, 4, led)) & 3, team = winner & 1;
    u128 cards = BIT(s->trick[0]) | BIT(s->trick[1]) | BIT(s->trick[2]) | BIT(s->trick[3]);
    u128 won = cards & ~MATTO_BIT;
    int points = 0;
    if (cf->capture_bonus) {
        int i = (team ^ leader ^ 1) & 1;
        points = CAPTURE[s->trick[i]] + CAPTURE[s->trick[i + 2]];
    }
    if (team == 0)
        pa |= won;
    else
        pb |= won;
    if (points) {
        d = team == 0 ? d + points : d - points;
        ratchet(&d, &r, cf->unit);
    }
    int lost = 0;
    if (cards & MATTO_BIT) {
        int matto = n == TRICKS && cf->matto_last_trick_lost ? MATTO_LOST
                    : (mo & 1) != team                        ? MATTO_DEBT
                                                              : MATTO_KEPT;
        if ((mo & 1) == 0)
            pa |= MATTO_BIT;
        else
            pb |= MATTO_BIT;
        lost = matto == MATTO_LOST;
        debt = debt || matto == MATTO_DEBT;
    }
    if (led < TRUMP) suits |= 1 << led;
    if (n == TRICKS) return leaf(s, pa, pb, d, r, mo, debt, lost, winner);
    int saved[4];
    memcpy(saved, s->trick, sizeof saved);
    double v = node(s, 0, winner, -1, -1, suits, pa, pb, d, r, mo, debt, n, alpha, beta);
    memcpy(s->trick, saved, sizeof saved);
    return v;
}

static double node(Search *s, int nt, int leader, int led, int top, int suits, u128 pa, u128 pb,
                   long long d, long long r, int mo, int debt, int done, double alpha,
                   double beta) {
    int seat = (leader + nt) & 3;
    u128 moves = play_mask(s->hands[seat], led, top, suits, s->cf);
    int maximise = (seat & 1) == 0;
    double best = maximise ? -1e18 : 1e18;
    for (int k = 0; k < NC && moves; k++) {
        int c = SOLVE_ORDER[k];
        if (!(moves & BIT(c))) continue;
        moves ^= BIT(c);
        s->hands[seat] ^= BIT(c);
        s->trick[nt] = c;
        int nled, ntop;
        if (c < 40) {
            nled = led < 0 ? TRUMP : led;
            ntop = c > top ? c : top;
        } else {
            nled = led >= 0 || c == MATTO ? led : SUIT[c];
            ntop = top;
        }
        int nmo = c == MATTO ? seat : mo;
        double v;
        if (nt + 1 == 4)
            v = close_node(s, leader, nled, suits, pa, pb, d, r, nmo, debt, done, alpha, beta);
        else
            v = node(s, nt + 1, leader, nled, ntop, suits, pa, pb, d, r, nmo, debt, done, alpha,
                     beta);
        s->hands[seat] ^= BIT(c);
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

/* rollout.solve: the value for team */
static double solve(const World *w, int team, double point_weight, const Config *cf) {
    Search s;
    memcpy(s.hands, w->hands, sizeof s.hands);
    memcpy(s.trick, w->trick, sizeof s.trick);
    s.cf = cf;
    s.decl = w->decl;
    s.w = point_weight / cf->unit;
    double v = node(&s, w->nt, w->leader, w->led, w->top, w->suits_led, w->piles[0], w->piles[1],
                    w->d, w->r, w->matto_owner, w->matto_debt, w->done, -1e18, 1e18);
    return team == 0 ? v : -v;
}

/* rollout.playout: greedy, the last exact tricks solved, the Matto paid at the end */
static double playout(World *w, int exact, int team, double point_weight, const Config *cf) {
    while (w->done < TRICKS) {
        if (TRICKS - w->done <= exact) return solve(w, team, point_weight, cf);
        apply_play(w, greedy_play(w, cf), cf);
    }
    int owner = w->matto_owner;
    int card = matto_handover(w->piles[owner & 1], w->matto_debt, w->matto_lost, cf->agent_pays);
    if (card == ASK) card = pay_choice(w, cf);
    long long d_final, resti;
    settle(w->piles[0], w->piles[1], owner, card, w->last_winner, w->decl, w->d, w->r, cf,
           &d_final, &resti);
    double v = (double)resti + point_weight * (double)d_final / cf->unit;
    return team == 0 ? v : -v;
}

/* ---------------------------------------------------------------- reading the inputs */
static int read_config(PyObject *o, Config *cf) {
    PyObject *t = cs_tuple(o, N_CONFIG, GAME, "config");
    if (!t) return -1;
    static const char *names[N_CONFIG] = {
        "king_rule", "overtrump", "capture_bonus", "matto_last_trick_lost", "resti_unit",
        "agent_pays", "matto_death_bonus", "end_recount_combos", "diecine",
        "matto_bonus_at_end", "matto_bonus_in_own_combo", "surplus_base", "last_trick_bonus",
        "blind_leads"};
    static const long lo[N_CONFIG] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    static const long hi[N_CONFIG] = {1, 1, 1, 1, 1000000, 1, 1, 1, 2, 1, 1, 1000, 1000000, 1};
    long v[N_CONFIG];
    for (int i = 0; i < N_CONFIG; i++)
        if (cs_int(PyTuple_GET_ITEM(t, i), lo[i], hi[i], &v[i], GAME, names[i]) < 0) return -1;
    cf->king_rule = (int)v[0], cf->overtrump = (int)v[1], cf->capture_bonus = (int)v[2];
    cf->matto_last_trick_lost = (int)v[3], cf->unit = (int)v[4], cf->agent_pays = (int)v[5];
    cf->death_bonus = (int)v[6], cf->end_recount = (int)v[7], cf->diecine = (int)v[8];
    cf->matto_bonus_at_end = (int)v[9], cf->bonus_own = (int)v[10];
    cf->surplus_base = (int)v[11], cf->last_trick_bonus = (int)v[12];
    cf->blind_leads = (int)v[13];
    return 0;
}

static int read_mask(PyObject *o, u128 *out, const char *field) {
    uint64_t lo, hi;
    if (cs_mask(o, NC, &lo, &hi, GAME, field) < 0) return -1;
    *out = ((u128)hi << 64) | lo;
    return 0;
}

static int read_world(PyObject *o, World *w) {
    PyObject *t = cs_tuple(o, 11, GAME, "world");
    if (!t) return -1;
    PyObject *hands = cs_tuple(PyTuple_GET_ITEM(t, 0), 4, GAME, "hands");
    PyObject *trick = hands ? cs_tuple(PyTuple_GET_ITEM(t, 1), -4, GAME, "trick") : NULL;
    PyObject *piles = trick ? cs_tuple(PyTuple_GET_ITEM(t, 4), 2, GAME, "piles") : NULL;
    PyObject *decl = piles ? cs_tuple(PyTuple_GET_ITEM(t, 10), 2, GAME, "decl_end") : NULL;
    if (!decl) return -1;
    u128 all = 0;
    for (int q = 0; q < 4; q++) {
        if (read_mask(PyTuple_GET_ITEM(hands, q), &w->hands[q], "hands") < 0) return -1;
        if (all & w->hands[q]) {
            PyErr_Format(PyExc_ValueError, "%s search: world field 'hands' repeats a card", GAME);
            return -1;
        }
        all |= w->hands[q];
    }
    for (int i = 0; i < 2; i++) {
        if (read_mask(PyTuple_GET_ITEM(piles, i), &w->piles[i], "piles") < 0) return -1;
        if (all & w->piles[i]) {
            PyErr_Format(PyExc_ValueError,
                         "%s search: world field 'piles' holds a card of a hand or the other "
                         "pile",
                         GAME);
            return -1;
        }
        all |= w->piles[i];
    }
    long v[7];
    static const char *names[7] = {"leader", "suits_led", "D", "R", "matto_owner", "matto_debt",
                                   "done"};
    static const long lo[7] = {0, 0, -1000000, -1000000, -1, 0, 0};
    static const long hi[7] = {3, 15, 1000000, 1000000, 3, 1, TRICKS - 1};
    static const int at[7] = {2, 3, 5, 6, 7, 8, 9};
    for (int i = 0; i < 7; i++)
        if (cs_int(PyTuple_GET_ITEM(t, at[i]), lo[i], hi[i], &v[i], GAME, names[i]) < 0)
            return -1;
    w->leader = (int)v[0], w->suits_led = (int)v[1], w->d = v[2], w->r = v[3];
    w->matto_owner = (int)v[4], w->matto_debt = (int)v[5], w->done = (int)v[6];
    for (int i = 0; i < 2; i++) {
        long x;
        if (cs_int(PyTuple_GET_ITEM(decl, i), 0, 1000000, &x, GAME, "decl_end") < 0) return -1;
        w->decl[i] = x;
    }
    /* the trick: led suit, top trump, the Matto's owner */
    w->nt = (int)PyTuple_GET_SIZE(trick);
    w->led = w->top = -1;
    for (int i = 0; i < w->nt; i++) {
        long c;
        if (cs_int(PyTuple_GET_ITEM(trick, i), 0, NC - 1, &c, GAME, "trick") < 0) return -1;
        if (all & BIT(c)) {
            PyErr_Format(PyExc_ValueError,
                         "%s search: world field 'trick' holds card %ld, also in a hand, a pile "
                         "or earlier in the trick",
                         GAME, c);
            return -1;
        }
        all |= BIT(c);
        w->trick[i] = (int)c;
        if (c < 40) {
            if (w->led < 0) w->led = TRUMP;
            if (c > w->top) w->top = (int)c;
        } else if (c == MATTO) {
            if (w->matto_owner != ((w->leader + i) & 3)) {
                PyErr_Format(PyExc_ValueError,
                             "%s search: world field 'matto_owner' must be %d, the seat that "
                             "played the Matto in this trick, got %d",
                             GAME, (w->leader + i) & 3, w->matto_owner);
                return -1;
            }
        } else if (w->led < 0) {
            w->led = SUIT[c];
        }
    }
    int matto_gone = (int)(((w->piles[0] | w->piles[1]) >> MATTO) & 1);
    if (matto_gone && w->matto_owner < 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s search: world field 'matto_owner' must name the seat that played the "
                     "Matto (it lies in a pile), got -1",
                     GAME);
        return -1;
    }
    w->to_play = (w->leader + w->nt) & 3;
    for (int k = 0; k < 4; k++) {
        int q = (w->leader + k) & 3;
        int want = TRICKS - w->done - (k < w->nt ? 1 : 0);
        if (pop128(w->hands[q]) != want) {
            PyErr_Format(PyExc_ValueError,
                         "%s search: world field 'hands' gives seat %d %d cards, %d expected "
                         "after %d tricks and this trick",
                         GAME, q, pop128(w->hands[q]), want, w->done);
            return -1;
        }
    }
    w->matto_lost = 0;
    w->last_winner = -1;
    return 0;
}

static int check_configured(void) {
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError,
                        "minchiate search: configure(suit, strength, value) was not called");
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- the module */
static PyObject *py_configure(PyObject *self, PyObject *args) {
    PyObject *tables[3];
    if (!PyArg_ParseTuple(args, "OOO:configure", &tables[0], &tables[1], &tables[2]))
        return NULL;
    int *dest[3] = {SUIT, STRENGTH, VALUE};
    static const char *names[3] = {"suit", "strength", "value"};
    static const long hi[3] = {5, 40, 10};
    int tmp[3][NC];
    for (int k = 0; k < 3; k++) {
        PyObject *t = cs_tuple(tables[k], NC, GAME, names[k]);
        if (!t) return NULL;
        for (int c = 0; c < NC; c++) {
            long x;
            if (cs_int(PyTuple_GET_ITEM(t, c), 0, hi[k], &x, GAME, names[k]) < 0) return NULL;
            tmp[k][c] = (int)x;
        }
    }
    for (int k = 0; k < 3; k++) memcpy(dest[k], tmp[k], sizeof tmp[k]);
    derive_tables();
    configured = 1;
    Py_RETURN_NONE;
}

static PyObject *py_card_tables(PyObject *self, PyObject *noargs) {
    PyObject *out = PyTuple_New(3);
    if (!out) return NULL;
    const int *tables[3] = {SUIT, STRENGTH, VALUE};
    for (int k = 0; k < 3; k++) {
        PyObject *t = PyTuple_New(NC);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        for (int c = 0; c < NC; c++) PyTuple_SET_ITEM(t, c, PyLong_FromLong(tables[k][c]));
        PyTuple_SET_ITEM(out, k, t);
    }
    return out;
}

static PyObject *py_greedy_action(PyObject *self, PyObject *args) {
    PyObject *world, *config;
    if (!PyArg_ParseTuple(args, "OO:greedy_action", &world, &config)) return NULL;
    World w;
    Config cf;
    if (check_configured() < 0 || read_config(config, &cf) < 0 || read_world(world, &w) < 0)
        return NULL;
    return PyLong_FromLong(greedy_play(&w, &cf));
}

static PyObject *py_values(PyObject *self, PyObject *args) {
    PyObject *world, *cands, *config;
    int exact, team;
    double point_weight;
    if (!PyArg_ParseTuple(args, "OOiidO:values", &world, &cands, &exact, &team, &point_weight,
                          &config))
        return NULL;
    World w0;
    Config cf;
    if (check_configured() < 0 || read_config(config, &cf) < 0 || read_world(world, &w0) < 0)
        return NULL;
    if (exact < 0 || exact > TRICKS) {
        PyErr_Format(PyExc_ValueError, "%s search: 'exact_tricks' must be in 0..%d, got %d",
                     GAME, TRICKS, exact);
        return NULL;
    }
    if (team < 0 || team > 1) {
        PyErr_Format(PyExc_ValueError, "%s search: 'team' must be 0 or 1, got %d", GAME, team);
        return NULL;
    }
    if (!(point_weight >= 0 && point_weight < 1e9)) {
        PyErr_Format(PyExc_ValueError, "%s search: 'point_weight' must be a finite number >= 0",
                     GAME);
        return NULL;
    }
    int cand[NC], n;
    if (cs_candidates(cands, NC, NC, cand, &n, GAME) < 0) return NULL;
    u128 legal = play_mask(w0.hands[w0.to_play], w0.led, w0.top, w0.suits_led, &cf);
    for (int i = 0; i < n; i++) {
        if (!(legal & BIT(cand[i]))) {
            PyErr_Format(PyExc_ValueError,
                         "%s search: candidate %d is not a legal play of seat %d", GAME, cand[i],
                         w0.to_play);
            return NULL;
        }
    }
    PyObject *out = PyTuple_New(n ? n : 1);
    if (!out) return NULL;
    for (int i = 0; i < (n ? n : 1); i++) {
        World w = w0;
        if (n) apply_play(&w, cand[i], &cf);
        PyObject *f = PyFloat_FromDouble(playout(&w, exact, team, point_weight, &cf));
        if (!f) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, f);
    }
    return out;
}

static PyMethodDef METHODS[] = {
    {"configure", py_configure, METH_VARARGS,
     "configure(suit, strength, value) -> None: the engine's per-card tables (97 ints each)."},
    {"card_tables", py_card_tables, METH_NOARGS,
     "card_tables() -> (suit, strength, value): the card tables in use."},
    {"greedy_action", py_greedy_action, METH_VARARGS,
     "greedy_action(world, config) -> int: rollout_action of the seat on turn (PLAY)."},
    {"values", py_values, METH_VARARGS,
     "values(world, candidates, exact_tricks, team, point_weight, config) -> "
     "tuple[float, ...]: each candidate's playout value for team (None: the world as is)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_csearch",
    "Minchiate's compiled search core (agents/minchiate/_csearch.c).", -1, METHODS,
};

PyMODINIT_FUNC PyInit__csearch(void) { return PyModule_Create(&MODULE); }
