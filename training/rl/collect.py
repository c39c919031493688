"""Self-play collection on the vector runner: every seat of N engines is played by the learning
policy or by an opponent of the pool, and the learner's decisions come back as one rollout with
its advantages, which the trainers' updates read in shuffled minibatches (``Rollout.minibatches``).

Each (engine, seat) the learner holds is its own decision sequence: a deal's zero-sum return
(times the reward scale; partners share their team's return) is the reward of that seat's last
decision, and GAE runs along the seat's own decisions. A rollout stops after ``n_decisions``
learner decisions; deals still running carry on into the next rollout, and the sequence cut
there is bootstrapped with the value of the seat's current view (CleanRL's truncation, per
seat). The collector's state between rollouts (the runner's deals in flight, who plays them,
the generators) can be saved and restored exactly (``state`` / ``restore``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from mazzo.agents.nets import PolicyValueNet
from mazzo.envs.common.arrays import bits_to_array
from mazzo.envs.deals import DealStream
from mazzo.envs.protocols import RulesLike
from mazzo.envs.registry import AnyGame
from mazzo.envs.vector import VectorRunner
from mazzo.training.rl.opponents import LEARNER, OpponentPool

__all__ = ["Batch", "Collector", "Rollout", "gae"]


@dataclass
class Rollout:
    """The learner's decisions of one rollout, in collection order (``T`` rows)."""

    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    action: npt.NDArray[np.int64]
    logp: npt.NDArray[np.float32]
    value: npt.NDArray[np.float32]
    advantage: npt.NDArray[np.float32]
    ret: npt.NDArray[np.float32]
    phase: npt.NDArray[np.int64]
    extra: npt.NDArray[np.float32]  # the hidden cards a critic may see ((T, 0) when unused)
    deals: int
    deal_returns: npt.NDArray[np.float32]  # the learner's scaled return in each finished deal

    def __len__(self) -> int:
        return len(self.action)

    def minibatches(
        self, epochs: int, size: int, gen: torch.Generator, extra: bool
    ) -> Iterator[Batch]:
        """``epochs`` passes over the rollout in shuffled minibatches of ``size`` rows (a fresh
        order from ``gen`` each pass); ``extra``: with the hidden cards a critic reads."""
        obs, mask = torch.from_numpy(self.obs), torch.from_numpy(self.mask)
        act, logp = torch.from_numpy(self.action), torch.from_numpy(self.logp)
        adv, ret = torch.from_numpy(self.advantage), torch.from_numpy(self.ret)
        hidden = torch.from_numpy(self.extra) if extra else None
        phase = torch.from_numpy(self.phase)
        n = len(self)
        for _ in range(epochs):
            order = torch.randperm(n, generator=gen)
            for start in range(0, n, size):
                i = order[start : start + size]
                x = None if hidden is None else hidden[i]
                yield Batch(obs[i], mask[i], act[i], logp[i], adv[i], ret[i], x, phase[i])

    def explained_variance(self) -> float:
        """How much of the returns' variance the values explain (NaN for constant returns)."""
        var = float(np.var(self.ret))
        return 1 - float(np.var(self.ret - self.value)) / var if var > 0 else float("nan")


@dataclass(frozen=True)
class Batch:
    """One minibatch of a rollout's rows, as tensors (``extra`` None unless the critic reads
    the hidden cards)."""

    obs: torch.Tensor
    mask: torch.Tensor
    action: torch.Tensor
    logp: torch.Tensor
    advantage: torch.Tensor
    ret: torch.Tensor
    extra: torch.Tensor | None
    phase: torch.Tensor


def gae(
    reward: npt.NDArray[np.float32], value: npt.NDArray[np.float32],
    nxt: npt.NDArray[np.int64], terminal: npt.NDArray[np.bool_],
    boot: npt.NDArray[np.float32], gamma: float, lam: float,
    mc: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.float32]:  # fmt: skip
    """Advantages along linked decision sequences.

    ``nxt[t]`` is the index of the same seat's next decision (always > t), or -1 where the
    sequence ends: at the deal's end (``terminal[t]``, no bootstrap) or at a cut (bootstrap with
    ``boot[t]``). Where ``mc[t]``, the Monte Carlo advantage instead: the discounted return to
    the sequence's end (bootstrapped at a cut) less ``value[t]``, which is GAE with lambda 1
    from ``t`` on.
    """
    adv = np.zeros_like(value)
    ret = np.zeros_like(value)  # the discounted return to the sequence's end
    for t in range(len(value) - 1, -1, -1):
        n = nxt[t]
        if n >= 0:
            adv[t] = reward[t] + gamma * value[n] - value[t] + gamma * lam * adv[n]
            ret[t] = reward[t] + gamma * ret[n]
        elif terminal[t]:
            adv[t] = reward[t] - value[t]
            ret[t] = reward[t]
        else:
            adv[t] = reward[t] + gamma * boot[t] - value[t]
            ret[t] = reward[t] + gamma * boot[t]
    if mc is not None:
        adv = np.where(mc, ret - value, adv).astype(value.dtype)
    return adv


class Collector:
    """Plays self-play deals on ``n_envs`` engines of ``game`` and returns learner rollouts.

    Args:
        game, rules: the game and its rules.
        n_envs: engines stepped together.
        seed: the root of the deal stream and the sampling generator.
        pool: the opponents.
        reward_scale: multiplies the engine's integer returns.
        gamma, lam: the discount and the GAE parameter.
        mc_phases: phase indices whose decisions take the Monte Carlo advantage (``gae``).
    """

    def __init__(
        self, game: AnyGame, rules: RulesLike, n_envs: int, seed: np.random.SeedSequence,
        pool: OpponentPool, reward_scale: float, gamma: float = 1.0, lam: float = 0.95,
        mc_phases: tuple[int, ...] = (),
    ) -> None:  # fmt: skip
        deal_seed, rng_seed = seed.spawn(2)
        self.game, self.rules, self.pool = game, rules, pool
        self.runner = VectorRunner(game, n_envs, rules, seed=deal_seed)
        self.rng = np.random.default_rng(rng_seed)
        self.reward_scale, self.gamma, self.lam = reward_scale, gamma, lam
        self.mc_phases = np.asarray(mc_phases, np.int64)
        self.teams, self.n_seats = game.teams(rules), game.seats(rules)
        self.encoder = self.runner.encoder
        self.batch = self.runner.reset()
        self.controllers = [self._deal_controllers() for _ in range(n_envs)]
        self._nets: dict[str, PolicyValueNet] = {}

    def state(self) -> dict[str, Any]:
        """The collector between rollouts, JSON-ready: the deals in flight as D.3 records, who
        plays them, the deal stream's position and the sampling generator's state."""
        stream = self.runner.deals
        if not isinstance(stream, DealStream):
            raise TypeError("only a collector on a DealStream can be saved")
        return {
            "inflight": [self.game.write_record(s) for s in self.runner.states],
            "controllers": [list(c) for c in self.controllers],
            "stream": stream.position(),
            "rng": _plain(self.rng.bit_generator.state),
        }

    def restore(self, state: dict[str, Any]) -> None:
        """Put the collector back where ``state()`` was taken.

        Raises:
            ValueError: the state does not fit this collector (engines, records).
        """
        if len(state["inflight"]) != self.runner.n:
            raise ValueError(
                f"the checkpoint has {len(state['inflight'])} deals in flight; this run "
                f"steps {self.runner.n} engines (n_envs)"
            )
        states = [self.game.replay(rec, self.rules) for rec in state["inflight"]]
        stream = self.runner.deals
        assert isinstance(stream, DealStream)
        stream.restore(state["stream"])
        self.batch = self.runner.load(states)
        self.controllers = [list(c) for c in state["controllers"]]
        self.rng.bit_generator.state = state["rng"]

    def _deal_controllers(self) -> list[int]:
        return self.pool.controllers(self.rng, self.teams, self.n_seats)

    def _net_of(self, member: int, template: PolicyValueNet) -> PolicyValueNet:
        m = self.pool.members[member]
        net = self._nets.get(m.name)
        if net is None:
            net = PolicyValueNet(
                template.obs_size, template.num_actions, _widths(template), template.critic_extra
            )
            assert m.weights is not None
            net.load_state_dict(m.weights)
            self._nets = {k: v for k, v in self._nets.items() if k in _names(self.pool)}
            self._nets[m.name] = net
        return net

    def _sample(self, logits: torch.Tensor) -> tuple[npt.NDArray[np.int64], torch.Tensor]:
        logp_all = torch.log_softmax(logits, dim=-1)
        probs = logp_all.exp().numpy().astype(np.float64)
        cum = np.cumsum(probs, axis=1)
        u = self.rng.random(len(probs)) * cum[:, -1]
        acts = np.minimum((cum < u[:, None]).sum(axis=1), probs.shape[1] - 1)
        return acts.astype(np.int64), logp_all

    def _epsilon_greedy(
        self, q: torch.Tensor, mask: npt.NDArray[np.int8], epsilon: float
    ) -> npt.NDArray[np.int64]:
        """The best legal action by ``q``, or with probability ``epsilon`` a uniform legal one."""
        best = q.argmax(dim=-1).numpy()
        explore = self.rng.random(len(best)) < epsilon
        for k in np.flatnonzero(explore).tolist():
            legal = np.flatnonzero(mask[k])
            best[k] = legal[self.rng.integers(len(legal))]
        out: npt.NDArray[np.int64] = best.astype(np.int64)
        return out

    @torch.no_grad()
    def collect(
        self, net: PolicyValueNet, n_decisions: int, epsilon: float | None = None
    ) -> Rollout:
        """Play until the learner made ``n_decisions`` decisions; return them with advantages.

        The learner samples from its policy, or with ``epsilon`` acts epsilon-greedily on the
        policy head read as Q-values (``logp`` is then 0).
        """
        cap = n_decisions + self.runner.n
        obs = np.zeros((cap, self.encoder.obs_size), np.float32)
        mask = np.zeros((cap, self.encoder.num_actions), np.int8)
        action = np.zeros(cap, np.int64)
        logp = np.zeros(cap, np.float32)
        value = np.zeros(cap, np.float32)
        phase = np.zeros(cap, np.int64)
        extra = np.zeros((cap, net.critic_extra), np.float32)
        reward = np.zeros(cap, np.float32)
        terminal = np.zeros(cap, np.bool_)
        boot = np.zeros(cap, np.float32)
        nxt = np.full(cap, -1, np.int64)
        last: dict[tuple[int, int], int] = {}
        deal_returns: list[float] = []
        t = 0
        b = self.batch
        while t < n_decisions:
            seats = b.seat.tolist()
            ctrl = np.array([self.controllers[i][s] for i, s in enumerate(seats)])
            acts = np.zeros(self.runner.n, np.int64)
            rows = np.flatnonzero(ctrl == LEARNER)
            if rows.size:
                o, m = b.obs[rows], b.mask[rows]
                new = slice(t, t + rows.size)
                x = None
                if net.critic_extra:
                    extra[new] = self.hidden_cards([(i, seats[i]) for i in rows.tolist()])
                    x = torch.from_numpy(extra[new])
                logits, v = net(torch.from_numpy(o), torch.from_numpy(m), x)
                if epsilon is None:
                    a, lp = self._sample(logits)
                    logp[new] = lp[torch.arange(rows.size), torch.from_numpy(a)].numpy()
                else:
                    a = self._epsilon_greedy(logits, m, epsilon)
                acts[rows] = a
                obs[new], mask[new], action[new], value[new] = o, m, a, v.numpy()
                views = self.runner.views()
                for k, i in enumerate(rows.tolist()):
                    phase[t + k] = int(views[i].phase)
                    key = (i, seats[i])
                    if key in last:
                        nxt[last[key]] = t + k
                    last[key] = t + k
                t += rows.size
            for member in set(ctrl.tolist()) - {LEARNER}:
                acts[ctrl == member] = self._opponent_actions(member, ctrl == member, b, net)
            b = self.runner.step(acts)
            for i in np.flatnonzero(b.done).tolist():
                rets = b.returns[i] * self.reward_scale
                ctrl_i = self.controllers[i]
                learner_seats = [s for s in range(self.n_seats) if ctrl_i[s] == LEARNER]
                for s in learner_seats:
                    j = last.pop((i, s), None)
                    if j is not None:
                        reward[j], terminal[j] = rets[s], True
                if learner_seats:
                    deal_returns.append(float(np.mean([rets[s] for s in learner_seats])))
                self.controllers[i] = self._deal_controllers()
        self.batch = b
        self._bootstrap(net, last, boot)
        mc = np.isin(phase[:t], self.mc_phases) if self.mc_phases.size else None
        adv = gae(reward[:t], value[:t], nxt[:t], terminal[:t], boot[:t], self.gamma, self.lam, mc)
        return Rollout(
            obs[:t], mask[:t], action[:t], logp[:t], value[:t], adv, adv + value[:t], phase[:t],
            extra[:t], len(deal_returns), np.asarray(deal_returns, np.float32),
        )  # fmt: skip

    def _bootstrap(
        self, net: PolicyValueNet, last: dict[tuple[int, int], int],
        boot: npt.NDArray[np.float32],
    ) -> None:  # fmt: skip
        """Value of each open sequence's seat in its engine's current state."""
        if not last:
            return
        keys = list(last)
        states = self.runner.states
        views = [states[i].info_view(s) for i, s in keys]
        o = np.zeros((len(views), self.encoder.obs_size), np.float32)
        m = np.zeros((len(views), self.encoder.num_actions), np.int8)
        self.encoder.encode_batch(views, o, m)
        m[:] = 1  # the value does not depend on the mask; any row must stay finite
        x = torch.from_numpy(self.hidden_cards(keys)) if net.critic_extra else None
        _, v = net(torch.from_numpy(o), torch.from_numpy(m), x)
        for key, val in zip(keys, v.numpy().tolist(), strict=True):
            boot[last[key]] = val

    def hidden_cards(self, rows: list[tuple[int, int]]) -> npt.NDArray[np.float32]:
        """For each (engine, seat): the other seats' hands, seat-relative (the next seat's
        first), one bit per card: what a critic that sees the hidden cards reads in training.
        The policy never reads it."""
        states, n, size = self.runner.states, self.n_seats, self.game.info.deck.size
        out = np.zeros((len(rows), (n - 1) * size), np.float32)
        for k, (i, s) in enumerate(rows):
            bits = 0
            for j in range(1, n):
                bits |= states[i].info_view((s + j) % n).hand << ((j - 1) * size)
            out[k] = bits_to_array(bits, (n - 1) * size)
        return out

    def _opponent_actions(
        self, member: int, rows: npt.NDArray[np.bool_], b: Any, net: PolicyValueNet
    ) -> npt.NDArray[np.int64]:
        m = self.pool.members[member]
        idx = np.flatnonzero(rows)
        if m.agent is not None:
            views = self.runner.views()
            return np.array([m.agent.act(views[i], self.rng) for i in idx.tolist()], np.int64)
        opp = self._net_of(member, net)
        logits = opp.logits(torch.from_numpy(b.obs[idx]), torch.from_numpy(b.mask[idx]))
        return self._sample(logits)[0]


def _plain(x: Any) -> Any:
    """A bit generator state with numpy integers turned into Python ints (JSON-ready)."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, np.integer):
        return int(x)
    return x


def _widths(net: PolicyValueNet) -> tuple[int, ...]:
    return tuple(layer.out_features for layer in net.torso if isinstance(layer, torch.nn.Linear))


def _names(pool: OpponentPool) -> set[str]:
    return {m.name for m in pool.members}
