"""The reveals a seat is owed, derived for the referee from docs/protocol.md ("Seat sessions":
the Calabresella and Minchiate reveal tables) and RULES.md, not from the trackers' own
``due_reveals`` / ``reveal_of``: the referee sends these, and checks that the production
``reveal_of`` (the one a Python referee is told to use) owes the same.

Each function takes the full states before and after one action (``before = action = None``:
right after the deal) and the seat, and returns the reveal as the protocol writes it (``{}``:
none due). The referee holds every card, so the values are read from the true state; what is
derived here is *when* each key is due and *what* it carries.
"""

from __future__ import annotations

from typing import Any

from mazzo.envs.calabresella.actions import Contract
from mazzo.envs.calabresella.actions import Phase as CPhase
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.minchiate.actions import Phase as MPhase
from mazzo.envs.minchiate.deck import MINCHIATE_97
from mazzo.envs.minchiate.view_json import view_json


# ----------------------------------------------------------------------------- Calabresella
def calabresella_reveals(before: Any, action: int | None, after: Any, seat: int) -> dict[str, Any]:
    """docs/protocol.md, Calabresella: ``monte``, ``giver``, ``received``, ``partner``."""
    if before is None:
        return {}  # nothing is revealed right after the deal
    rules = after.rules
    mine = [p for p in range(3) if after.seat_of[p] == seat]  # the positions the seat plays
    soloist, contract = after.soloist, after.contract
    i_solo = soloist >= 0 and soloist in mine
    defenders = [(soloist + 1) % 3, (soloist + 2) % 3] if soloist >= 0 else []
    out: dict[str, Any] = {}
    # the 4 monte cards: D[36..39] of the deal (RULES.md C-3.1), in card order
    monte = ITALIAN_40.codes(sum(1 << c for c in after.deal.order[36:40]))

    auction_ended = before.phase is CPhase.BID and after.phase is not CPhase.BID and contract >= 0
    # Chiamo's exchange is done: at the return, or at the call when nothing is returned (the
    # card lay in the monte or was the soloist's own)
    exchange_done = before.phase is CPhase.RETURN or (
        before.phase is CPhase.CALL and after.phase is not CPhase.RETURN
    )
    if auction_ended and (
        contract == Contract.SCEGLIETE  # to every seat
        or (contract == Contract.SOLO and i_solo)  # the soloist takes the monte
        or (contract == Contract.SOLISSIMO and i_solo and rules.solissimo_view_monte)
    ):
        out["monte"] = monte
    if exchange_done and (rules.chiamo_monte_exposed or i_solo):
        out["monte"] = monte
    if before.phase is CPhase.CALL:  # to every seat that does not hold the called card
        holders = [p for p in range(3) if before.hands[p] >> action & 1]
        if not set(holders) & set(mine):
            if not holders:
                out["giver"] = "monte"
            elif holders[0] == soloist:
                out["giver"] = "own"
            elif rules.players == 2:
                out["giver"] = f"A{holders[0]}"
            else:
                out["giver"] = f"S{after.seat_of[holders[0]]}"
    if auction_ended and contract == Contract.DIVIDETE and set(defenders) & set(mine):
        out["received"] = [c for d in defenders if d in mine
                           for c in ITALIAN_40.codes(after.received[d])]  # fmt: skip
    # under aperta, after trick 1, to each defender: the other defender's hand (a due the
    # controller of both defenders sees both hands already)
    mine_def = [p for p in mine if p in defenders]
    if rules.aperta and not before.tricks and after.tricks and len(mine) == len(mine_def) == 1:
        (other,) = (d for d in defenders if d != mine_def[0])
        out["partner"] = ITALIAN_40.codes(after.hands[other])
    return out


# -------------------------------------------------------------------------------- Minchiate
_DISCARDING = (MPhase.DISCARD_CUTTER, MPhase.DISCARD_DEALER)


def _must_discard(state: Any, seat: int) -> int:
    """M-8.1: the cards ``seat`` must discard, down to 21 (its dealt hand beyond 21 cards)."""
    return max(0, state.setup.hands[seat].bit_count() - 21)


def minchiate_reveals(before: Any, action: int | None, after: Any, seat: int) -> dict[str, Any]:
    """docs/protocol.md, Minchiate: ``declaring`` with ``declared``, ``void``, ``fola``."""
    rules = after.rules
    dealer = after.dealer
    cutter = (dealer + 3) % 4  # S(d+3), RULES.md A.5
    with_first_card = rules.declare_timing == "with_first_card"
    redeal = rules.impossible_discard == "redeal" and rules.discard_rule == "zero_not_29"
    keys: set[str] = set()
    if before is None:  # right after the deal
        nobody_discards = not _must_discard(after, cutter) and not _must_discard(after, dealer)
        if nobody_discards and not with_first_card:
            keys.add("declaring")  # the declarations may start
        first = cutter if _must_discard(after, cutter) else dealer  # M-8.3: the cutter first
        if redeal and _must_discard(after, first) and first != seat:
            keys.add("void")  # the first discarder is another seat
        if after.fola_exposed:
            keys.add("fola")
    else:
        actor = before.to_play
        last_discard = before.phase in _DISCARDING and after.phase not in _DISCARDING
        if last_discard and not with_first_card and not after.void:
            keys.add("declaring")  # after the last discard
        cutter_done = before.phase is MPhase.DISCARD_CUTTER and after.phase is not (
            MPhase.DISCARD_CUTTER
        )
        if cutter_done and redeal and _must_discard(after, dealer) and dealer != seat:
            keys.add("void")  # the next discarder, the dealer, is another seat
        if before.phase is MPhase.DECLARE:
            # after every declare event: D.3 writes both choices, ``declare`` and ``skip``, as
            # ["S<k>", "declare", ...]
            keys.add("declaring")
        if (
            with_first_card
            and before.phase is MPhase.PLAY
            and not before.tricks
            and actor != seat
            and before.action_label(action).startswith("play")
        ):
            keys.add("declaring")  # after another seat's card of trick 1
        if after.fola_exposed and not before.fola_exposed:
            keys.add("fola")  # turned face up (M-10.1)
    out: dict[str, Any] = {}
    if "declaring" in keys:
        out["declaring"] = f"S{after.to_play}" if after.phase is MPhase.DECLARE else None
        n_before = len(before.declared) if before is not None else 0
        out["declared"] = view_json(after.info_view(seat))["declared"][n_before:]
    if "void" in keys:
        out["void"] = bool(after.void)
    if "fola" in keys:
        out["fola"] = MINCHIATE_97.codes(after.fola)
    return out


REVEALS = {"calabresella": calabresella_reveals, "minchiate": minchiate_reveals}
