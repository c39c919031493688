"""RLlib's own PettingZoo wrapper (``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv``)
consumes both games unmodified: whole deals (and a match and a series) stepped through it with
masked random actions, every agent's observation inside its space, the zero-sum rewards at the
end, and numeric infos.

RLlib pins an older Gymnasium than the project's venv has, so these tests run in a venv of
their own: ``.ci/run`` builds it and runs ``pytest -m rllib tests/learners/test_rllib.py``
there (marker ``rllib``, left out of the default run).
"""

import numpy as np
import pytest

from mazzo.envs.registry import all_games

pytestmark = pytest.mark.rllib

EPISODE_KWARGS = {
    "calabresella": [{}, {"match": True, "target": 3}],
    "minchiate": [{}, {"deals": 2}],
}


def _cases():
    for game in all_games():
        for kw in EPISODE_KWARGS.get(game.name, [{}]):
            yield game, kw


@pytest.mark.parametrize(
    ("game", "kwargs"), list(_cases()), ids=lambda x: getattr(x, "name", str(x))
)
def test_rllib_pettingzoo_wrapper_plays_whole_episodes(game, kwargs):
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    env = PettingZooEnv(game.env(**kwargs))
    rng = np.random.default_rng(0)
    for episode in range(3):
        obs, _info = env.reset(seed=episode)
        total = dict.fromkeys(env.get_agent_ids(), 0.0)
        done = False
        while not done:
            ((agent, o),) = obs.items()
            assert env.observation_space[agent].contains(o)
            action = int(rng.choice(np.flatnonzero(o["action_mask"])))
            obs, rewards, terminated, _truncated, infos = env.step({agent: action})
            for a, r in rewards.items():
                total[a] += r
            for info in infos.values():
                assert all(isinstance(v, int | float) for v in info.values())
            done = terminated["__all__"]
        assert abs(sum(total.values())) < 1e-9


def test_the_rllib_ppo_example_trains_and_plays_the_arena():
    """examples/rllib_ppo.py: RLlib's PPO through its PettingZoo wrapper with action masking,
    one short iteration, then the arena against the heuristic (a JSON report)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    args = ["--iterations", "1", "--batch", "256", "--hidden", "32", "--runners", "0",
            "--eval-deals", "4"]  # fmt: skip
    r = subprocess.run([sys.executable, str(root / "examples" / "rllib_ppo.py"), *args],
                       cwd=root, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    report = json.loads(r.stdout.strip().splitlines()[-1])
    assert report["decisions"] >= 256 and report["vs_heuristic"]["deals"] == 4
