"""RULES.md D.3 deal records, written once for every game: loading a record (a dict or JSON text)
with its format and keys checked, the ``rules`` block, the deal, the ``[seat, verb, arg]`` action
triples (checked, applied to a state seat by seat, written back from a state's history), the
``expect`` block and the stored ``result`` (both checked against the replay).

A game supplies only its vocabulary (:class:`RecordVocabulary`): its format string, the key of
its card order (``deck`` or ``stream``), its verbs and the mapping between a triple and an
action label, its ``expect`` keys and how to observe them, and its start options (keys of the
record that start the deal differently). Nothing here names a game, a verb or a label.

Must not import numpy, torch, gymnasium or pettingzoo (stdlib only).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from mazzo.envs.cards.deal import Deal
from mazzo.envs.cards.deck import Deck
from mazzo.envs.cards.flags import require_same_rules
from mazzo.envs.cards.jsontext import loads

__all__ = [
    "DealRecord",
    "RecordVocabulary",
    "apply_actions",
    "check_replay",
    "load_record",
    "parse_seat",
    "read",
    "recorded_deal",
    "replay",
    "seat_token",
    "write",
]

_RULES_KEYS = ("flags", "ruleset")
_MAX_REPORTED = 3  # differing keys named in one message


class DealRecord(NamedTuple):
    """A D.3 record, read and checked.

    Attributes:
        rules: the game's ``Rules`` in force.
        deal: the dealer and the card order.
        actions: the record's action triples (``[seat, verb, arg]``), not yet applied.
        expect: the record's ``expect`` block (empty when absent).
        options: keyword arguments the game's ``new_state`` needs to start this deal as the
            record says (for example a Calabresella no-Chiamo redeal); empty for a plain deal.
        result: the record's stored ``result`` (None when absent); checked against the replay.
    """

    rules: Any
    deal: Deal
    actions: tuple[Any, ...]
    expect: Mapping[str, Any]
    options: Mapping[str, Any]
    result: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class RecordVocabulary:
    """What one game's records say, in its own words.

    Attributes:
        format: the D.3 ``format`` string (``<game>-deal/1``).
        title: the game's name as people read it (in messages).
        deck: the deck whose codes the card order uses.
        deck_key: the record key of the card order.
        rules_type: the game's ``Rules`` (``from_flags``, ``to_flags``, ``players`` or not).
        seats: rules -> number of seats (the dealer and the seat tokens are checked against it).
        new_state: ``(deal, rules, **options) -> State``.
        verbs: the verbs an action triple may use.
        to_label: (verb, arg) -> the action label; raises ValueError for a bad argument.
        to_triple: action label -> (verb, arg), the inverse of ``to_label`` (an arg is a string,
            or an integer where D.3 writes one: a Calabresella split mask).
        expect_keys: the keys an ``expect`` block may hold, in the order they are written.
        observe: state -> the value of every ``expect`` key (JSON-ready).
        prefix_keys: ``expect`` keys whose recorded list is a prefix of the observed one (for
            hand-written records: :func:`write` leaves them out).
        ruleset: the ``rules.ruleset`` a record must name (and that is written), or None when a
            record's ruleset is not checked and none is written.
        options: the boolean start options a record may carry at its top level; one that is
            true goes to ``DealRecord.options`` (a false one is the same as none).
        start_options: state -> the start options to write (true ones only).
    """

    format: str
    title: str
    deck: Deck
    deck_key: str
    rules_type: type[Any]
    seats: Callable[[Any], int]
    new_state: Callable[..., Any]
    verbs: tuple[str, ...]
    to_label: Callable[[str, str | int], str]
    to_triple: Callable[[str], tuple[str, str | int]]
    expect_keys: tuple[str, ...]
    observe: Callable[[Any], dict[str, Any]]
    prefix_keys: frozenset[str] = frozenset()
    ruleset: str | None = None
    options: tuple[str, ...] = ()
    start_options: Callable[[Any], dict[str, Any]] = field(default=lambda state: {})

    @property
    def required(self) -> set[str]:
        """The keys every record holds (besides ``format``)."""
        return {"dealer", self.deck_key}

    @property
    def optional(self) -> set[str]:
        """The keys a record may hold."""
        return {"rules", "actions", "expect", "result", *self.options}


# ---------------------------------------------------------------------------------- reading
def load_record(
    record: Mapping[str, Any] | str | bytes, fmt: str, required: set[str], optional: set[str]
) -> dict[str, Any]:
    """A D.3 record (dict or JSON text) -> dict, with its format and keys checked.

    Raises:
        ValueError: not JSON / not an object, wrong ``format``, a missing or unknown key.
    """
    if isinstance(record, str | bytes):
        try:
            record = loads(record)
        except json.JSONDecodeError as e:
            raise ValueError(f"the {fmt} deal is not valid JSON: {e}") from None
    if not isinstance(record, Mapping):
        raise ValueError(f"a {fmt} deal must be a JSON object or dict, got {type(record).__name__}")
    got = record.get("format", fmt)
    if got != fmt:
        raise ValueError(f"deal format is {got!r}, expected {fmt!r}")
    keys = set(record)
    missing = required - keys
    if missing:
        raise ValueError(f"the {fmt} deal lacks {sorted(missing)}")
    unknown = keys - required - optional - {"format"}
    if unknown:
        raise ValueError(
            f"unknown key(s) {sorted(unknown)} in the {fmt} deal; "
            f"known: {sorted(required | optional | {'format'})}"
        )
    return dict(record)


def read(vocab: RecordVocabulary, record: Any, rules: Any = None) -> DealRecord:
    """Parse and check a record (dict or JSON text) of ``vocab``'s game; its actions are
    checked for shape when applied (:func:`apply_actions`), not here.

    Args:
        vocab: the game's vocabulary.
        record: the D.3 object, as a dict or JSON text.
        rules: the rules in force (an environment's). If the record names flags too, they must
            agree with these. Without ``rules`` the record's flags (or the defaults) are used.

    Raises:
        ValueError: malformed JSON or keys, a bad ``rules`` block, deck, dealer, ``actions``,
            ``expect``, ``result`` or start option, or flags that contradict ``rules``.
    """
    rec = load_record(record, vocab.format, vocab.required, vocab.optional)
    rec_rules = _read_rules(vocab, rec.get("rules"))
    if rules is None:
        rules = rec_rules or vocab.rules_type()
    elif rec_rules is not None:
        require_same_rules(rec_rules, rules)
    deal = Deal.from_codes(
        vocab.deck, rec["dealer"], rec[vocab.deck_key], vocab.seats(rules), vocab.title
    )
    actions = rec.get("actions", [])
    if not isinstance(actions, list | tuple):
        raise ValueError(f"'actions' must be a list of [seat, verb, arg] triples, got {actions!r}")
    return DealRecord(
        rules, deal, tuple(actions), _read_expect(vocab, rec), _read_options(vocab, rec),
        _read_result(rec),
    )  # fmt: skip


def _read_rules(vocab: RecordVocabulary, block: object) -> Any:
    if block is None:
        return None
    if not isinstance(block, Mapping):
        raise ValueError(f"'rules' must be an object with 'flags' (and 'ruleset'), got {block!r}")
    unknown = set(block) - set(_RULES_KEYS)
    if unknown:
        raise ValueError(
            f"unknown key(s) {sorted(unknown)} in 'rules'; known: {', '.join(_RULES_KEYS)}"
        )
    if vocab.ruleset is not None:
        ruleset = block.get("ruleset", vocab.ruleset)
        if ruleset != vocab.ruleset:
            raise ValueError(
                f"unknown {vocab.title} ruleset {ruleset!r}; supported: {vocab.ruleset!r}"
            )
    flags = block.get("flags", {})
    if not isinstance(flags, Mapping):
        raise ValueError(f"'rules.flags' must be an object, got {flags!r}")
    return vocab.rules_type.from_flags(flags)


def _read_expect(vocab: RecordVocabulary, rec: Mapping[str, Any]) -> dict[str, Any]:
    expect = rec.get("expect", {})
    if not isinstance(expect, Mapping):
        raise ValueError(f"'expect' must be an object, got {expect!r}")
    unknown = set(expect) - set(vocab.expect_keys)
    if unknown:
        raise ValueError(
            f"unknown key(s) {sorted(unknown)} in 'expect'; known: {', '.join(vocab.expect_keys)}"
        )
    return dict(expect)


def _read_options(vocab: RecordVocabulary, rec: Mapping[str, Any]) -> dict[str, Any]:
    options = {}
    for key in vocab.options:
        value = rec.get(key, False)
        if not isinstance(value, bool):
            raise ValueError(f"{key!r} must be true or false, got {value!r}")
        if value:
            options[key] = True
    return options


def _read_result(rec: Mapping[str, Any]) -> Mapping[str, Any] | None:
    result = rec.get("result")
    if result is not None and not isinstance(result, Mapping):
        raise ValueError(f"'result' must be an object, got {result!r}")
    return result


# ---------------------------------------------------------------------------------- actions
def seat_token(seat: int) -> str:
    """Seat number -> ``S<seat>``."""
    return f"S{seat}"


def parse_seat(token: object, n_seats: int) -> int:
    """``S<k>`` -> k. Raises ValueError if malformed or outside ``0 .. n_seats-1``."""
    if isinstance(token, str) and token[:1] == "S" and token[1:].isascii() and token[1:].isdigit():
        seat = int(token[1:])
        if seat < n_seats:
            return seat
    raise ValueError(f"bad seat {token!r}: expected S0..S{n_seats - 1}")


def apply_actions(vocab: RecordVocabulary, state: Any, actions: Sequence[Any]) -> None:
    """Apply D.3 action triples to ``state`` (a ``State`` or a chain of deals), checking each.

    An argument may be a string or an integer (a split mask written as a number).

    Raises:
        ValueError: a malformed triple, an unknown verb or argument, an action by a seat not
            on turn, an illegal action, or an action after the end; the message names the
            action's position in the list and the triple.
    """
    for i, triple in enumerate(actions):
        _apply_triple(vocab, state, i, triple)


def _apply_triple(vocab: RecordVocabulary, state: Any, i: int, triple: object) -> None:
    where = f"action #{i} {triple!r}"
    if (
        not isinstance(triple, list | tuple)
        or len(triple) != 3
        or not all(isinstance(x, str) for x in triple[:2])
        or not (isinstance(triple[2], str | int) and not isinstance(triple[2], bool))
    ):
        raise ValueError(f"{where}: an action is a [seat, verb, arg] triple of strings")
    if state.is_terminal():
        raise ValueError(f"{where}: the deal is already over")
    token, verb, arg = triple[0], triple[1], str(triple[2])
    try:
        seat = parse_seat(token, len(state.returns()))
        if verb not in vocab.verbs:
            raise ValueError(f"unknown verb {verb!r}; verbs: {', '.join(vocab.verbs)}")
        label = vocab.to_label(verb, arg)
        if seat != state.to_play:
            raise ValueError(f"S{state.to_play} is on turn ({_phase(state)}), not S{seat}")
        state.apply(state.parse_action(label))
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def _phase(state: Any) -> str:
    """The current deal's phase name (a chain of deals keeps its current deal in ``state``)."""
    phase = getattr(getattr(state, "state", state), "phase", None)
    return str(getattr(phase, "name", phase))


# ---------------------------------------------------------------------------------- checking
def check_replay(vocab: RecordVocabulary, parsed: DealRecord, game: Any) -> None:
    """Check a replayed deal against the record's ``expect`` block and stored ``result``.

    Args:
        vocab: the game's vocabulary.
        parsed: the record, as :func:`read` returned it.
        game: the record's deal after its actions: a ``State``, or a chain of deals (a match,
            a series) that started with it (its first deal is checked).

    Raises:
        ValueError: a value the replay does not reproduce; the message names the first
            differing keys (``expect.robbed``, ``result.returns``) with both values.
    """
    state = recorded_deal(game)
    problems = []
    if parsed.expect:
        seen = vocab.observe(state)
        for key, want in parsed.expect.items():
            got = seen[key]
            if key in vocab.prefix_keys and isinstance(want, list | tuple):
                got = got[: len(want)]
            problems += _differences(f"expect.{key}", _plain(want), _plain(got))
    if parsed.result is not None:
        if not state.is_terminal():
            problems.append(
                f"result: the record holds the result of a finished deal, the replay stops "
                f"unfinished after {len(parsed.actions)} actions"
            )
        else:
            problems += _differences("result", _plain(parsed.result), _plain(state.result()))
    if problems:
        more = len(problems) - _MAX_REPORTED
        tail = f"; and {more} more" if more > 0 else ""
        raise ValueError(
            "the record contradicts its replay: " + "; ".join(problems[:_MAX_REPORTED]) + tail
        )


def replay(vocab: RecordVocabulary, record: Any, rules: Any = None) -> Any:
    """Build a record's deal (``vocab.new_state``), apply its actions and check its ``expect``
    and ``result`` (:func:`read`, :func:`apply_actions`, :func:`check_replay`; their errors)."""
    parsed = read(vocab, record, rules)
    state = vocab.new_state(parsed.deal, parsed.rules, **parsed.options)
    apply_actions(vocab, state, parsed.actions)
    check_replay(vocab, parsed, state)
    return state


def recorded_deal(game: Any) -> Any:
    """The deal a record describes: ``game`` itself, or the first deal of a chain of deals
    (its finished deals in ``finished``, the current one in ``state``)."""
    finished = getattr(game, "finished", None)
    if finished:
        return finished[0]
    return getattr(game, "state", game)


def _plain(value: Any) -> Any:
    """JSON's view of ``value`` (tuples as lists, keys as strings), to compare records."""
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return value


def _differences(path: str, want: Any, got: Any) -> list[str]:
    """Where ``want`` (the record) and ``got`` (the replay) differ: one line per key."""
    if want == got:
        return []
    if isinstance(want, dict) and isinstance(got, dict):
        out = []
        for key in [*want, *(k for k in got if k not in want)]:
            if key not in got:
                out.append(f"{path}.{key}: the record says {want[key]!r}, the replay has none")
            elif key not in want:
                out.append(f"{path}.{key}: the record has none, the replay gives {got[key]!r}")
            else:
                out += _differences(f"{path}.{key}", want[key], got[key])
        return out
    return [f"{path}: the record says {want!r}, the replay gives {got!r}"]


# ---------------------------------------------------------------------------------- writing
def write(
    vocab: RecordVocabulary, state: Any, with_result: bool = True, expect: bool = False
) -> dict[str, Any]:
    """The D.3 record of ``state``'s deal and every action taken so far, JSON-ready.

    Each action is labelled by replaying the deal (a card verb depends on the phase it was
    taken in) and attributed to the seat on turn. With ``expect``, an ``expect`` block of the
    outcome so far (checked on replay); with ``with_result`` and a finished deal, its
    ``result``.
    """
    options = vocab.start_options(state)
    seq = vocab.new_state(state.deal, state.rules, **options)
    triples = []
    for _, action in state.history:
        verb, arg = vocab.to_triple(seq.action_label(action))
        triples.append([seat_token(seq.to_play), verb, arg])
        seq.apply(action)
    rules: dict[str, Any] = {} if vocab.ruleset is None else {"ruleset": vocab.ruleset}
    rules["flags"] = state.rules.to_flags()
    out: dict[str, Any] = {
        "format": vocab.format,
        "rules": rules,
        "dealer": state.deal.dealer,
        vocab.deck_key: state.deal.codes(vocab.deck),
        "actions": triples,
    }
    out |= options
    if expect:
        seen = vocab.observe(state)
        out["expect"] = {k: seen[k] for k in vocab.expect_keys if k not in vocab.prefix_keys}
    if with_result and state.is_terminal():
        out["result"] = state.result()
    return out
