"""The streams and scripted decisions of the hand-worked golden deals (expected values are in
``test_golden.py``; ``test_flags.py`` replays the same deals under other flags)."""

from mazzo.envs.minchiate.deck import MINCHIATE_97

from .helpers import build_stream, codes


def tricks(*rows: str) -> list[tuple[int, str]]:
    """'S1 2d, S2 T6, ...' rows -> (seat, 'play X') steps."""
    out = []
    for row in rows:
        for item in row.split(","):
            seat, card = item.split()
            out.append((int(seat[1]), f"play {card}"))
    return out


# ----------------------------------------------------------------------------------- deal 1
# Dealer S0; cutter S3 (team B); S1 leads. Dealing order S1, S2, S3, S0.
# Cut: T36 and T22 qualify, 6c stops (r = 2) and goes to the bottom of the pack, so the Fola
# P[84..94] ends with it. The dealer robs T39 and T21 from the top (5s stops him), then takes the
# counter Kc and T29 (T23..T27 are 0-value sopraventi: left).
DEAL1 = build_stream(
    dealer=0,
    robbed="T36 T22",
    stop="6c",
    hands={
        1: ("T13 T14 T15 T16 T34 T37 M 2d Jd Ad", "8d 7d 2c 3c 4c 3s 2s 5b 4b 3b T5"),
        2: ("T4 T6 T17 T18 T19 T33 T35 T38 T40 Qc", "Nc Jc Ac Qs Ns Js Qb Nb Jb 10b T20"),
        3: ("T1 T2 T3 T7 T11 T12 T32 Kd Qd Nd", "9d 10d 5c 7c 8c Ks As 2b Ab 7s Kb"),
        0: ("T8 T9 T10 T28 T30 T31 10c 3d 4d 5d", "6d 6s 4s 9b 8b 7b 6b 8s 9s 10s 9c"),
    },
    fola="T39 T21 5s T29 Kc T23 T24 T25 T26 T27 6c",
)

DEAL1_DECISIONS = [
    # M-8: the cutter discards r = 2, then the dealer robbed 2 + took 2 = 4.
    (3, "discard T22"),
    (3, "discard 7s"),
    (0, "discard T21"),
    (0, "discard 8s"),
    (0, "discard 9s"),
    (0, "discard 10s"),
    # M-9: S1 and S2 hold no combination. S3: low run T1-T2-T3 (11), then kings Kd Ks Kb (15,
    # skipped). S0: high run T28-T29-T30-T31 (5 + 5 + 5 + 5 = 20).
    (3, "declare"),
    (3, "skip"),
    (0, "declare"),
]

DEAL1_PLAY = tricks(
    "S1 2d, S2 T6, S3 Kd, S0 3d",  # 1 first coins lead, S2 trumps: King rule forces S3's Kd
    "S2 T20, S3 T7, S0 T8, S1 M",  # 2 the Matto into a trick won by A: B owes a card
    "S2 T40, S3 T1, S0 T9, S1 T5",  # 3
    "S2 T38, S3 T2, S0 T10, S1 T13",  # 4
    "S2 T35, S3 T36, S0 T28, S1 T14",  # 5
    "S3 T3, S0 T29, S1 T15, S2 T4",  # 6
    "S0 T39, S1 T37, S2 T17, S3 T11",  # 7
    "S0 T30, S1 T34, S2 T18, S3 T12",  # 8
    "S1 T16, S2 T19, S3 T32, S0 T31",  # 9
    "S3 Qd, S0 4d, S1 Jd, S2 T33",  # 10 S2 void in coins must trump
    "S2 Qc, S3 5c, S0 Kc, S1 2c",  # 11 nobody holds a trump any more
    "S0 9b, S1 3b, S2 Qb, S3 Kb",  # 12
    "S3 Nd, S0 5d, S1 Ad, S2 10b",  # 13
    "S3 9d, S0 6d, S1 8d, S2 Jb",  # 14 round suit: 6 beats 8 and 9
    "S0 6s, S1 2s, S2 Qs, S3 Ks",  # 15
    "S3 10d, S0 4s, S1 7d, S2 Nb",  # 16 round suit: 7 beats 10
    "S1 3c, S2 Ac, S3 7c, S0 9c",  # 17 round suit: A beats 3
    "S2 Ns, S3 As, S0 8b, S1 3s",  # 18
    "S2 Js, S3 8c, S0 7b, S1 4c",  # 19
    "S2 Nc, S3 2b, S0 10c, S1 5b",  # 20
    "S2 Jc, S3 Ab, S0 6b, S1 4b",  # 21
)


# ----------------------------------------------------------------------------------- deal 2
# Dealer S2; cutter S1 (team B) robs the full 13: T40..T33 and T21..T25. The 14th card, Kb, goes
# to the bottom of the 84-card pack: it is the dealer's face-up 21st card. The Fola is empty, so
# the dealer neither robs nor takes; S1 discards 13. Dealing order S3, S0, S1, S2; S3 leads.
DEAL2 = build_stream(
    dealer=2,
    robbed="T40 T39 T38 T37 T36 T35 T34 T33 T21 T22 T23 T24 T25",
    stop="Kb",
    hands={
        3: ("M T2 T3 T4 T5 T6 T7 T8 Jc Ac", "2c Jd Ad 2d Js 10s 9s Jb 10b 9b T1"),
        0: ("T9 T10 T11 T12 T13 T14 T15 T16 T17 7c", "8c Kd 7d 8d Ks 4s 3s Nb 8b 7b Kc"),
        1: ("Qc 5c 6c Qd 5d 6d Qs 6s 5s Qb", "6b 5b 9c 10c 9d 10d As 2s Ab 2b T26"),
        2: ("T18 T19 T20 T27 T28 T29 T30 T31 T32 4b", "3b Nc 3c 4c Nd 3d 4d Ns 8s 7s Kb"),
    },
    fola="",  # r = 13: the pack is exactly 84 cards; its bottom card Kb is the stop card
)

DEAL2_DECISIONS = [
    *[(1, f"discard {c}") for c in codes("T21 T22 T23 T24 T25 9c 10c 9d 10d As 2s Ab 2b")],
    (3, "declare"),  # T1..T5 = 17, + 5 for the Matto in hand = 22
    (0, "declare"),  # kings Kc Kd Ks = 15
    (1, "declare"),  # T33..T40 = 15 + 50 = 65
    (2, "declare"),  # T28..T32 = 25 (T29 counts 5 in a run)
]

DEAL2_PLAY = tricks(
    "S3 T1, S0 T10, S1 T40, S2 T20",  # 1
    "S1 T39, S2 T28, S3 T2, S0 T13",  # 2
    "S1 T38, S2 T30, S3 T3, S0 T9",  # 3
    "S1 T37, S2 T31, S3 T4, S0 T11",  # 4
    "S1 T36, S2 T32, S3 T5, S0 T12",  # 5
    "S1 T35, S2 T29, S3 T6, S0 T14",  # 6
    "S1 T34, S2 T27, S3 T7, S0 T15",  # 7
    "S1 T33, S2 T19, S3 T8, S0 T16",  # 8
    "S1 T26, S2 T18, S3 M, S0 T17",  # 9 the Matto in a trick its own team wins: no debt
    "S1 Qc, S2 Nc, S3 Jc, S0 Kc",  # 10
    "S0 Kd, S1 Qd, S2 Nd, S3 Jd",  # 11
    "S0 Ks, S1 Qs, S2 Ns, S3 Js",  # 12
    "S0 7b, S1 5b, S2 Kb, S3 9b",  # 13
    "S2 3c, S3 Ac, S0 7c, S1 5c",  # 14
    "S3 10s, S0 4s, S1 6s, S2 8s",  # 15 long suit: 10 high
    "S3 Ad, S0 7d, S1 5d, S2 3d",  # 16
    "S3 Jb, S0 Nb, S1 Qb, S2 4b",  # 17
    "S1 6c, S2 4c, S3 2c, S0 8c",  # 18
    "S3 2d, S0 8d, S1 6d, S2 4d",  # 19
    "S3 9s, S0 3s, S1 5s, S2 7s",  # 20
    "S3 10b, S0 8b, S1 6b, S2 3b",  # 21
)


# ------------------------------------------------------------------ impossible discards (MA-9)
ROBBED13 = "T40 T39 T38 T37 T36 T35 T34 T33 T32 T31 T30 T28 T20"
CUTTER_HAND = "T1 T2 T3 T4 T5 T10 T13 M Kc Kd Ks Kb T29 2c 3c 4c 5c 7c 8c 9c 10c"


def impossible_stream() -> list[str]:
    """Dealer S0, cutter S3 robs 13 counters; S3's 21 dealt cards hold only 8 legal discards."""
    used = set(codes(ROBBED13)) | set(codes(CUTTER_HAND)) | {"6c"}
    rest = [c for c in MINCHIATE_97.labels if c not in used]
    s1, s2, s0 = rest[:21], rest[21:42], rest[42:]
    hand3 = codes(CUTTER_HAND)
    hands = {
        1: (" ".join(s1[:10]), " ".join(s1[10:])),
        2: (" ".join(s2[:10]), " ".join(s2[10:])),
        3: (" ".join(hand3[:10]), " ".join(hand3[10:])),
        0: (" ".join(s0[:10]), " ".join([*s0[10:], "6c"])),
    }
    return build_stream(0, ROBBED13, "6c", hands, "")
