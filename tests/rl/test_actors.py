"""The self-play actor processes (``mazzo.training.rl.actors``): an actor whose learner is gone
(killed, its end of the pipe closed) exits at once and quietly, instead of a traceback per
actor on the terminal of the run that was stopped."""

import multiprocessing as mp

import numpy as np

from mazzo.envs.registry import get_game
from mazzo.training.rl.actors import ActorSpec, _actor_main


def _spec():
    game = get_game("calabresella")
    return ActorSpec(
        game=game, rules=game.rules(), n_envs=2, seed=np.random.SeedSequence(0),
        pool_agents=(), self_play=1.0, max_snapshots=1, reward_scale=1.0, gamma=1.0, lam=0.95,
        hidden=(8,),
    )  # fmt: skip


def test_an_actor_whose_learner_is_gone_exits_quietly(capfd):
    ctx = mp.get_context("spawn")
    here, there = ctx.Pipe()
    actor = ctx.Process(target=_actor_main, args=(_spec(), there))
    actor.start()
    there.close()
    here.send(("state",))
    assert isinstance(here.recv(), dict)  # it answers while the learner is there
    here.close()  # the learner goes away
    actor.join(timeout=60)
    assert actor.exitcode == 0
    err = capfd.readouterr().err
    assert "Traceback" not in err and "EOFError" not in err, err
