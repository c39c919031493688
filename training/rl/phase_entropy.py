"""An entropy bonus per phase of the game: a candidate fix of the auction's collapse into
passing in self-play from no weights (docs/training.md, "Why self-play from no weights
plateaus").

PPO's entropy bonus (``ent_coef``) weighs every decision alike. In Calabresella the auction's
entropy falls from 1.07 to 0.04 nats within 75k decisions (every seat passes, so 80% of the
deals carry no reward) while card play keeps 1.0; a bonus on the auction's decisions alone keeps
contracts being tried, so the soloist's play keeps being trained. ``phase_coefs`` turns a
``{phase name: coefficient}`` table (the lower-case names of the game's ``Phase`` enum, as in
the TensorBoard ``charts/entropy_<phase>`` tags) into one coefficient per phase index;
``phase_entropy_bonus`` is the term to subtract from a minibatch's loss.

PPO takes it from ``PPOConfig.phase_ent_coef`` (``--set 'phase_ent_coef={"bid": 0.1}'``;
empty by default: no extra term, every existing run unchanged): ``ppo_loss`` subtracts
``phase_entropy_bonus`` from each minibatch's loss.

A fixed bonus pushes the auction toward uniform bids (measured: the bot then overbids Solo).
``PPOConfig.phase_ent_floor`` makes it a floor instead: ``floor_gated`` scales each phase's
coefficient by how far the rollout's entropy on that phase lies below the floor (the whole
coefficient at 0 nats, none at or above the floor, linear between). The gate reads only the
rollout being learned from, so a resumed run computes the same coefficients.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import torch

__all__ = ["floor_gated", "phase_coefs", "phase_entropy_bonus", "phase_indices"]


def phase_indices(names: Mapping[int, str], wanted: Iterable[str], key: str = "") -> dict[str, int]:
    """The phase index of each name in ``wanted``, from the game's phase names (index ->
    name). Raises ValueError naming an unknown phase (after ``key``, the config key, where
    given) and the game's phases."""
    known = {name: index for index, name in names.items()}
    unknown = sorted(set(wanted) - set(known))
    if unknown:
        where = f"{key}: " if key else ""
        raise ValueError(f"{where}unknown phase(s) {unknown}; the game's phases: {sorted(known)}")
    return {name: known[name] for name in wanted}


def phase_coefs(names: Mapping[int, str], table: Mapping[str, float]) -> torch.Tensor:
    """Coefficient per phase index (0 where ``table`` names nothing), from the game's phase
    names (index -> name, ``mazzo.training.rl.run.phase_names``).

    Raises:
        ValueError: a name that is not a phase of the game, or a negative coefficient.
    """
    known = phase_indices(names, table)
    bad = {k: v for k, v in table.items() if not v >= 0}
    if bad:
        raise ValueError(f"phase entropy coefficients must be >= 0, got {bad}")
    out = torch.zeros(max(names) + 1 if names else 1)
    for name, coef in table.items():
        out[known[name]] = float(coef)
    return out


def phase_entropy_bonus(
    logp_all: torch.Tensor, mask: torch.Tensor, phase: torch.Tensor, coefs: torch.Tensor
) -> torch.Tensor:
    """``mean_i coefs[phase_i] * H_i``: the policy's entropy over the legal actions of each
    row, weighted by its phase's coefficient, averaged over the minibatch (a scalar)."""
    ent = -(logp_all.exp() * torch.where(mask == 1, logp_all, 0.0)).sum(-1)
    return (coefs[phase] * ent).mean()


def floor_gated(
    coefs: torch.Tensor, floors: torch.Tensor, entropy: Mapping[int, float]
) -> torch.Tensor:
    """``coefs`` with each phase that has a floor (``floors[p] > 0``) scaled by
    ``clamp((floor - H_p) / floor, 0, 1)``, ``H_p`` its entropy in ``entropy`` (phase index ->
    the rollout's mean entropy, ``mazzo.training.rl.run.phase_entropy``); a phase absent from
    ``entropy`` (no decision of it in the rollout) gets no bonus. Phases without a floor keep
    their coefficient."""
    out = coefs.clone()
    for p in range(len(floors)):
        floor = float(floors[p])
        if floor > 0 and p < len(out):
            h = entropy.get(p)
            out[p] *= 0.0 if h is None else min(1.0, max(0.0, (floor - h) / floor))
    return out
