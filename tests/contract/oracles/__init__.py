"""Per-game knowledge oracles for the no-leak test (``tests/contract/no_leak.py``).

Module ``<game name>`` offers ``holders(rules, deal)`` (per deal slot, who was dealt it),
``known_cards(rules, deal, steps, state, seat)`` (the cards the seat knows the place of, from
the public record and the rules text, never from the view), ``may_hold(rules, deal, slot,
card)``, ``map_action(action, swap)`` and ``public(state)`` (announced facts compared between
worlds). A new game adds its module here; the contract suite fails until it does.
"""
