"""The Calabresella seat tracker: one seat's exact ``InfoView`` from its own hand(s), the actions
of the deal and the reveals (``mazzo.serve.trackers.seat_tracker`` has the method;
``docs/protocol.md``, "Seat sessions", the JSON shapes).

``deal.private``: ``{"hands": [[12 codes], ...], "no_chiamo": false}``: the hand of every
position the seat decides for, in position order (A0 = the dealer's right and onwards): one
hand, two for the dealer a due (A1 then A2), none for the idle dealer of four players;
``no_chiamo`` (optional) marks a no-Chiamo redeal.

Reveals (each due exactly when listed; one message may carry several):

- ``monte``: the four monte cards, when the seat sees them: everyone when Scegliete is the
  contract, and in Chiamo with ``chiamo_monte_exposed`` once the exchange is done; the soloist
  when he takes the monte (Solo; Chiamo after the return, or right after the call when the card
  lay in the monte or was his own) and in Solissimo with ``solissimo_view_monte``.
- ``giver``: after a call, unless the seat holds the called card: who held it, ``S<n>`` (a due:
  ``A1`` or ``A2``) or ``monte`` (``own``: the soloist's own card, ``allow_call_own_card``).
- ``received``: in Dividete, the monte cards the seat's defender received (two; a due, the
  dealer's four: the first defender's two, then the second's).
- ``partner``: under ``aperta``, after trick 1, the other defender's hand (for a defender).

Must not import torch or training/.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from mazzo.agents.calabresella.sampler import REST, WorldSampler
from mazzo.agents.sampling import NoConsistentWorld
from mazzo.envs.calabresella.actions import PASS, Contract, Phase
from mazzo.envs.calabresella.dealing import seat_positions
from mazzo.envs.calabresella.deck import ITALIAN_40
from mazzo.envs.calabresella.exchanges import GIVER_MONTE, GIVER_OWN
from mazzo.envs.calabresella.game import GAME
from mazzo.envs.calabresella.kernel import SUIT, SUIT_MASK
from mazzo.envs.calabresella.rules import Rules
from mazzo.envs.calabresella.state import State
from mazzo.envs.calabresella.view import InfoView
from mazzo.envs.calabresella.worlds import MONTE_PHASES, determinize
from mazzo.envs.cards.bits import bit_list
from mazzo.envs.cards.deal import Deal
from mazzo.envs.registry import AnyGame
from mazzo.serve.trackers.registry import TrackerEntry
from mazzo.serve.trackers.seat_tracker import (
    ConstrainedWorlds,
    SeatTracker,
    Step,
    new_constraints,
)

__all__ = ["TRACKER", "CalabresellaTracker", "due_reveals", "private_of", "reveal_of"]

_GIVERS = {"monte": GIVER_MONTE, "own": GIVER_OWN, "A0": 0, "A1": 1, "A2": 2}


class _Sampler(ConstrainedWorlds, WorldSampler):
    """The world sampler with extra per-card constraints: ``only[card]`` the slots (positions,
    ``REST``) it may be in, ``absent[slot]`` the cards a slot cannot hold."""

    def __init__(self, view: InfoView, only: dict[int, set[int]], absent: dict[int, int]):
        self._only, self._absent = only, absent
        super().__init__(view)
        played = sum(view.played_by) | sum(1 << c for c in view.trick)
        for card, places in only.items():
            where = [p for p, hand in self.known.items() if hand >> card & 1]
            if self.fixed_rest >> card & 1:
                where.append(REST)
            if played >> card & 1 or (where and where[0] not in places):
                raise NoConsistentWorld(f"card {card} cannot be in {sorted(places)}")
        for slot, mask in absent.items():
            if self.known.get(slot, 0) & mask or (slot == REST and self.fixed_rest & mask):
                raise NoConsistentWorld(f"slot {slot} holds a card it cannot hold")


class CalabresellaTracker(SeatTracker):
    """The consistent world of one Calabresella seat (see the module docstring)."""

    rules: Rules
    registered: ClassVar[AnyGame] = GAME
    reveal_fields: ClassVar[Mapping[str, tuple[type, ...]]] = {
        "monte": (list,), "giver": (str,), "received": (list,), "partner": (list,),
    }  # fmt: skip

    @staticmethod
    def n_seats(rules: Any) -> int:
        if not isinstance(rules, Rules):
            raise TypeError(f"calabresella needs calabresella Rules, got {type(rules).__name__}")
        return rules.players

    # ------------------------------------------------------------------ the start
    def read_private(self, private: Mapping[str, Any]) -> None:
        unknown = set(private) - {"hands", "no_chiamo"}
        if unknown:
            raise ValueError(
                f"unknown deal.private key(s) {sorted(unknown)}; calabresella takes hands, "
                "no_chiamo"
            )
        self.seat_of = seat_positions(self.rules.players, self.dealer)
        self.mine = tuple(p for p in range(3) if self.seat_of[p] == self.seat)
        hands = private.get("hands")
        if not isinstance(hands, list) or len(hands) != len(self.mine):
            raise ValueError(
                f"deal.private.hands must list {len(self.mine)} hand(s) for S{self.seat} (one per "
                f"position it decides for), got {hands!r}"
            )
        self.hands: dict[int, int] = {}
        seen = 0
        for pos, codes in zip(self.mine, hands, strict=True):
            mask = _cards(codes, f"deal.private.hands[{len(self.hands)}]", 12)
            if mask & seen:
                raise ValueError(
                    f"deal.private.hands repeat card(s) {ITALIAN_40.codes(mask & seen)}"
                )
            seen |= mask
            self.hands[pos] = mask
        no_chiamo = private.get("no_chiamo", False)
        if type(no_chiamo) is not bool:
            raise ValueError(f"deal.private.no_chiamo must be true or false, got {no_chiamo!r}")
        self.no_chiamo = no_chiamo

    def initial_worlds(self, revealed: Mapping[str, Any]) -> Iterator[State]:
        hidden = [c for c in range(40) if not sum(self.hands.values()) >> c & 1]
        for _ in range(self.max_draws):
            self.rng.shuffle(hidden)
            rest = iter(hidden)
            hands = [bit_list(self.hands[p]) if p in self.hands else [next(rest) for _ in range(12)]
                     for p in range(3)]  # fmt: skip
            order = [0] * 40
            for k in range(3):
                for j in range(3):
                    order[12 * j + 4 * k : 12 * j + 4 * k + 4] = hands[k][4 * j : 4 * j + 4]
            order[36:] = list(rest)
            deal = Deal(self.dealer, tuple(int(c) for c in order))
            yield State.new(deal, self.rules, no_chiamo=self.no_chiamo)

    # ------------------------------------------------------------------ reveals
    def read_reveal(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in fields.items():
            if key == "monte":
                out[key] = _cards(value, "reveal.monte", 4)
            elif key == "partner":
                out[key] = _cards(value, "reveal.partner", None)
            elif key == "received":
                n = 2 * len(self.mine)
                _cards(value, "reveal.received", n)
                out[key] = tuple(ITALIAN_40.parse(c) for c in value)
            elif key == "giver":
                out[key] = self._giver(value)
            else:
                raise ValueError(
                    f"unknown reveal field {key!r}; calabresella reveals monte, giver, received, "
                    "partner"
                )
        return out

    def _giver(self, value: Any) -> int:
        if isinstance(value, str) and value in _GIVERS:
            return _GIVERS[value]
        if isinstance(value, str) and value[:1] == "S" and value[1:].isdigit():
            seat = int(value[1:])
            positions = [p for p in range(3) if self.seat_of[p] == seat]
            if len(positions) == 1:
                return positions[0]
        raise ValueError(
            f"reveal.giver must be a seat S<n> deciding for one position, A1/A2 (a due), "
            f"'monte' or 'own', got {value!r}"
        )

    def needed(self, base: Any, step: Step | None, after: Any, revealed: Mapping[str, Any]
               ) -> frozenset[str]:  # fmt: skip
        if step is None:
            return frozenset()
        keys = due_reveals(self.rules, self.mine, base, step.action, after)
        if "giver" in keys and "giver" not in revealed:  # the monte waits on who gave the card
            keys -= {"monte"}
        return keys

    def mismatch(self, base: Any, after: Any, step: Step | None, revealed: Mapping[str, Any]
                 ) -> str | None:  # fmt: skip
        if "monte" in revealed and after.monte_mask() != revealed["monte"]:
            return "monte"
        if "giver" in revealed and after.giver != revealed["giver"]:
            return "giver"
        if "received" in revealed:
            cards = revealed["received"]
            got = tuple(after.received[p] for p in self._defenders(after))
            want = tuple(sum(1 << c for c in cards[2 * i : 2 * i + 2]) for i in range(len(got)))
            if got != want:
                return "received"
        if "partner" in revealed:
            other = self._partner(after)
            if other < 0 or after.hands[other] != revealed["partner"]:
                return "partner"
        return None

    def _defenders(self, world: Any) -> list[int]:
        d1, d2 = (world.soloist + 1) % 3, (world.soloist + 2) % 3
        return [d for d in (d1, d2) if d in self.mine]

    def _partner(self, world: Any) -> int:
        if len(self.mine) != 1 or world.soloist < 0 or self.mine[0] == world.soloist:
            return -1
        return int(3 - world.soloist - self.mine[0])

    # ------------------------------------------------------------------ constrained worlds
    def patch(self, world: Any, step: Step, revealed: Mapping[str, Any]) -> None:
        """Dividete gives the first two monte cards to D1: order the world's monte so that the
        seat's defender receives the revealed cards."""
        if "received" not in revealed or world.phase is not Phase.BID:
            return
        cards = list(revealed["received"])
        monte = set(world.monte)
        if not set(cards) <= monte:
            return
        sol = world.pos if step.action != PASS else world.high_pos
        others = sorted(monte - set(cards))
        if len(cards) == 4 or (sol + 1) % 3 in self.mine:
            order = cards + others
        else:
            order = others + cards
        world.monte = (order[0], order[1], order[2], order[3])

    def constrained_worlds(self, base: Any, step: Step, revealed: Mapping[str, Any]
                           ) -> Iterator[State]:  # fmt: skip
        view = base.info_view(self.seat)
        only, absent, pin = new_constraints()

        if base.phase is Phase.BID:  # a due, the dealer's second hand is not in his view yet
            for q, hand in self.hands.items():
                for c in bit_list(hand):
                    pin(c, {q})
        a, p = step.action, base.pos
        if a is not None and base.phase is Phase.CALL:
            if not self.rules.allow_call_own_card:
                absent[base.soloist] = absent.get(base.soloist, 0) | 1 << a
        elif a is not None and base.phase is not Phase.BID and base.phase is not Phase.SPLIT:
            pin(a, {p})
            if base.phase is Phase.PLAY and base.trick and SUIT[a] != SUIT[base.trick[0]]:
                absent[p] = absent.get(p, 0) | SUIT_MASK[SUIT[base.trick[0]]]
        if "monte" in revealed and base.phase in MONTE_PHASES:
            for c in bit_list(revealed["monte"]):
                pin(c, {REST})
        if "giver" in revealed and a is not None:
            g = revealed["giver"]
            pin(a, {REST} if g == GIVER_MONTE else {base.soloist} if g == GIVER_OWN else {g})
        for c in revealed.get("received", ()):
            pin(c, {REST})
        if "partner" in revealed:
            sol = base.soloist
            other = 3 - sol - self.mine[0] if len(self.mine) == 1 and sol >= 0 else -1
            for c in bit_list(revealed["partner"]):
                pin(c, {other})
        try:
            sampler = _Sampler(view, only, absent)
        except NoConsistentWorld:
            return
        for _ in range(self.max_draws):
            hands, rest = sampler.sample_assignment(self.rng)
            yield determinize(view, hands, rest)


def due_reveals(rules: Rules, mine: tuple[int, ...], before: Any, action: int | None, after: Any
                ) -> frozenset[str]:  # fmt: skip
    """The reveal keys due to the seat deciding for positions ``mine`` after ``action`` took
    ``before`` to ``after`` (real states or worlds: only what that seat knows is read)."""
    keys: set[str] = set()
    c = after.contract
    sol_mine = after.soloist >= 0 and after.soloist in mine
    if before.phase is Phase.BID and after.phase is not Phase.BID and c >= 0:
        defenders = {(after.soloist + 1) % 3, (after.soloist + 2) % 3}
        if (
            c == Contract.SCEGLIETE
            or (sol_mine and c == Contract.SOLO)
            or (c == Contract.SOLISSIMO and sol_mine and rules.solissimo_view_monte)
        ):
            keys.add("monte")
        elif c == Contract.DIVIDETE and defenders & set(mine):
            keys.add("received")
    elif before.phase is Phase.CALL:
        card = action if action is not None else -1
        if not any(card >= 0 and before.hands[p] >> card & 1 for p in mine):
            keys.add("giver")
        if after.phase is not Phase.RETURN and (sol_mine or rules.chiamo_monte_exposed):
            keys.add("monte")
    elif before.phase is Phase.RETURN and (sol_mine or rules.chiamo_monte_exposed):
        keys.add("monte")
    if rules.aperta and not before.tricks and after.tricks and len(mine) == 1 and not sol_mine:
        keys.add("partner")
    return frozenset(keys)


def private_of(state: State, seat: int) -> dict[str, Any]:
    """The ``deal.private`` of ``seat`` at the start of ``state``'s deal (for a referee)."""
    hands = [ITALIAN_40.codes(state.hands[p]) for p in range(3) if state.seat_of[p] == seat]
    return {"hands": hands, **({"no_chiamo": True} if state.no_chiamo else {})}


def reveal_of(before: State | None, action: int | None, after: State, seat: int) -> dict[str, Any]:
    """The reveal a referee owes ``seat`` after ``action`` took ``before`` to ``after`` (None and
    None: after the deal); empty when none is due."""
    if before is None:
        return {}
    mine = tuple(p for p in range(3) if after.seat_of[p] == seat)
    out: dict[str, Any] = {}
    for key in due_reveals(after.rules, mine, before, action, after):
        if key == "monte":
            out[key] = ITALIAN_40.codes(after.monte_mask())
        elif key == "giver":
            out[key] = _giver_token(after)
        elif key == "received":
            d1, d2 = (after.soloist + 1) % 3, (after.soloist + 2) % 3
            out[key] = [ITALIAN_40.labels[c] for d in (d1, d2) if d in mine
                        for c in bit_list(after.received[d])]  # fmt: skip
        else:
            out[key] = ITALIAN_40.codes(after.hands[3 - after.soloist - mine[0]])
    return out


def _giver_token(state: State) -> str:
    g = state.giver
    if g == GIVER_MONTE:
        return "monte"
    if g == GIVER_OWN:
        return "own"
    return f"A{g}" if state.rules.players == 2 else f"S{state.seat_of[g]}"


def _cards(codes: Any, name: str, n: int | None) -> int:
    """A list of distinct card codes -> its mask (``n`` of them when given)."""
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        raise ValueError(f"{name} must be a list of card codes, got {codes!r}")
    if n is not None and len(codes) != n:
        raise ValueError(f"{name} must hold {n} cards, got {len(codes)}: {codes}")
    cards = [ITALIAN_40.parse(c) for c in codes]
    if len(set(cards)) != len(cards):
        dup = sorted({c for c in codes if codes.count(c) > 1})
        raise ValueError(f"{name} repeats card(s) {dup}")
    return sum(1 << c for c in cards)


TRACKER = TrackerEntry(CalabresellaTracker, private_of, reveal_of)
