"""Determinization: a complete Minchiate ``State`` built from one seat's ``InfoView`` plus an
assignment of the cards that seat cannot locate (the other hands, the other discarders'
discards, the dealer's part of the Fola).

Search agents sample such assignments (``mazzo.agents.minchiate.sampler``) and play the resulting
worlds out with perfect information. A world continues exactly as the real deal would if the
hidden cards were where the assignment puts them: same phase, seat on turn, pending discards,
declarations on offer, trick, piles, events, D and R. Its ``history`` starts empty and its
``deal`` carries the dealer only (a world has no stream).

Must not import numpy, torch, gymnasium or pettingzoo.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from mazzo.envs.cards.deal import Deal
from mazzo.envs.minchiate.actions import Phase
from mazzo.envs.minchiate.combos import Combo
from mazzo.envs.minchiate.dealing import Setup
from mazzo.envs.minchiate.pregame import offers
from mazzo.envs.minchiate.state import State
from mazzo.envs.minchiate.view import InfoView

__all__ = [
    "Assignment",
    "declared_for_the_end",
    "declaring_holding",
    "determinize",
    "extra_cards",
    "stop_in_fola",
]


class Assignment(NamedTuple):
    """Where every card not yet played is, in one world.

    Attributes:
        hands: each seat's current hand.
        discards: each seat's discards so far (in the Fola).
        orig_fola: the Fola as the dealer left it after robbing and taking (M-7), without the
            discards (``Setup.fola``).
    """

    hands: tuple[int, int, int, int]
    discards: tuple[int, int, int, int]
    orig_fola: int


def extra_cards(view: InfoView, seat: int) -> int:
    """Cards ``seat`` received beyond its 21 (the cutter's robbed cards, the dealer's robbed and
    taken ones): the number it must discard in all (M-8.1)."""
    if seat == view.cutter:
        return len(view.robbed)
    if seat == view.dealer:
        return len(view.dealer_robbed) + view.dealer_taken.bit_count()
    return 0


def stop_in_fola(view: InfoView) -> bool:
    """Whether the stop card lies in the dealer's Fola: it is the bottom card of the pack and
    stays in the Fola unless it was the dealer's face-up card or he robbed or took it (public)."""
    stop = view.stop_card
    return (
        stop not in view.dealer_robbed
        and not (view.dealer_taken >> stop) & 1
        and stop not in view.faceup
    )


def declaring_holding(hand: int, played: int) -> int:
    """The cards a seat declared from (M-9.1; with ``with_first_card`` also the card it had just
    played): its current hand plus everything it has played since."""
    return hand | played


def determinize(view: InfoView, world: Assignment) -> State:
    """The world of ``view`` in which the hidden cards are where ``world`` puts them.

    The caller guarantees consistency (hand sizes, voids, public cards, declarations); see the
    world sampler. Raises ValueError for a finished deal (there is nothing left to decide)."""
    if view.phase is Phase.DONE:
        raise ValueError("a finished deal has no world to search")
    rules = view.rules
    d = world.discards
    return State.restore(
        rules=rules,
        deal=Deal(view.dealer, ()),
        dealer=view.dealer,
        cutter=view.cutter,
        setup=Setup(
            cutter=view.cutter,
            robbed=view.robbed,
            stop=view.stop_card,
            hands=world.hands,
            faceup=view.faceup,
            dealer_robbed=view.dealer_robbed,
            dealer_taken=view.dealer_taken,
            fola=world.orig_fola,
            stop_in_fola=bool((world.orig_fola >> view.stop_card) & 1),
            events=(),
        ),
        phase=view.phase,
        to_play=view.to_play,
        hands=list(world.hands),
        discards=list(d),
        fola=world.orig_fola | d[0] | d[1] | d[2] | d[3],
        to_discard=view.hand_sizes[view.to_play] - 21 if view.phase < Phase.DECLARE else 0,
        fola_exposed=view.fola_exposed,
        declared=list(view.declared),
        **_declaring(view, world.hands),
        leader=view.leader,
        led=view.led,
        trick=list(view.trick),
        top_trump=max((c for c in view.trick if c < 40), default=-1),
        suits_led=view.suits_led,
        matto_owner=view.matto_owner,
        matto_debt=view.matto_debt,
        matto_paid=-1,
        matto_lost=False,
        void=False,
        D=view.D,
        R=view.R,
        last_winner=view.tricks[-1][2] if len(view.tricks) == 21 else -1,
        end_counts=None,
        r_play=0,
        end_resti=0,
        d_final=0,
        king_rule=rules.king_rule,
        overtrump=rules.must_overtrump,
        trick1_declare=rules.declare_timing == "with_first_card",
        played_by=list(view.played_by),
        piles=list(view.piles),
        tricks=list(view.tricks),
        events=list(view.events),
        history=[],
    )


def declared_for_the_end(view: InfoView) -> list[int]:
    """Per team, the declarations kept for the end count (``declaration_score_timing = end``)
    by the seats that have finished declaring: the state's ``decl_end`` in every world of
    ``view``."""
    declarer = view.to_play if view.phase is Phase.DECLARE else -1
    decl_end = [0, 0]
    if view.rules.declaration_score_timing == "end":
        for seat, combo in view.declared:
            if seat != declarer:
                decl_end[seat & 1] += combo.score
    return decl_end


def _declaring(view: InfoView, hands: tuple[int, int, int, int]) -> dict[str, Any]:
    """The declaration bookkeeping (``decl_k``, ``decl_end``, ``offers``, ``offer_i``,
    ``decl_sum``): the declarer's offers and how far he is through them, his running total, and
    (``declaration_score_timing = end``) the totals of finished declarers."""
    declarer = view.to_play if view.phase is Phase.DECLARE else -1
    out: dict[str, Any] = {
        "decl_k": (declarer - view.dealer - 1) & 3 if declarer >= 0 else 0,
        "decl_end": declared_for_the_end(view),
        "offers": (),
        "offer_i": 0,
        "decl_sum": 0,
    }
    if declarer < 0:
        return out
    holding = declaring_holding(hands[declarer], view.played_by[declarer])
    found = offers(holding, view.rules)
    mine: list[Combo] = [c for seat, c in view.declared if seat == declarer]
    if view.offered is not None:
        offer_i = found.index(view.offered)
    else:  # another seat's view: the declarer is just past his last declared combination
        offer_i = found.index(mine[-1]) + 1 if mine else 0
    out.update(offers=found, offer_i=offer_i, decl_sum=sum(c.score for c in mine))
    return out
