# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # mazzo quickstart: the two games, their observations and records
#
# This notebook plays a deal of each game through the PettingZoo environments, takes one
# observation vector apart with the registry's slice names, shows the legal-action mask with
# its labels, replays a D.3 deal record step by step, renders the table and steps the vector
# runner. Run it from the repository root's `notebooks/` folder (Jupyter's default) or anywhere
# inside the repository: the first cell finds the root.
#
# The parameters cell below holds the budget; CI shrinks it with `MAZZO_NOTEBOOK_SCALE=ci`.

# %% tags=["parameters"]
import os

SCALE = os.environ.get("MAZZO_NOTEBOOK_SCALE", "full")  # "ci" runs a small budget
SEED = 7
VECTOR_ENGINES = 16 if SCALE == "ci" else 256
VECTOR_STEPS = 150 if SCALE == "ci" else 1000

# %%
import sys
from pathlib import Path

ROOT = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "pyproject.toml").exists())
sys.path.insert(0, str(ROOT))  # the repository's packages, also without `pip install -e .`
os.chdir(ROOT)

import matplotlib.pyplot as plt
import numpy as np

from mazzo.envs import calabresella_v0, minchiate_v0
from mazzo.envs.registry import get_game
from mazzo.envs.vector import VectorRunner

# %% [markdown]
# ## 1. A deal of each game through PettingZoo
#
# Each environment is a PettingZoo AEC env: `agent_iter()` gives the agent on turn,
# `last()` its observation (a dict with `observation` and `action_mask`), and `step` takes an
# action id. Here every seat plays uniformly random legal actions.


# %%
def play_random(env, seed):
    """One deal with random legal actions; returns the number of decisions and the env."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    for _agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += 1
    return decisions, env


results = {}
for name, module in (("calabresella", calabresella_v0), ("minchiate", minchiate_v0)):
    decisions, env = play_random(module.env(), SEED)
    result = env.unwrapped.result()
    results[name] = result
    print(f"{name}: {decisions} decisions, returns {result['returns']}")
    assert sum(result["returns"]) == 0  # both games are zero-sum
    assert decisions > 10

# %% [markdown]
# Calabresella's result names the contract and the soloist (or says the deal was void: all
# passed); Minchiate's lists every scoring event (captures, the face-up cards, the end count).

# %%
cal = results["calabresella"]
print("void" if cal["void"] else f"S{cal['soloist']} played {cal['contract']}: {cal['success']}")
events = results["minchiate"]["events"]
print(f"Minchiate: {len(events)} scoring events, final resti {results['minchiate']['resti']}")
assert events and all({"team", "points", "cause"} <= set(e) for e in events)

# %% [markdown]
# ## 2. An observation, slice by slice
#
# The observation is a flat float32 vector relative to the observing seat. The registry
# names every block (`GameInfo.obs_slices`: name -> (start, stop)); the layout is specified
# element by element in `docs/encoding.md`. Here is Minchiate's first observation, block by
# block: how many entries each block has and how many are set.

# %%
game = get_game("minchiate")
env = minchiate_v0.env()
env.reset(seed=SEED)
obs, *_ = env.last()
vector, mask = obs["observation"], obs["action_mask"]
assert vector.shape == (game.info.obs_size,) and mask.shape == (game.info.num_actions,)
rows = []
for block, (start, stop) in game.info.obs_slices.items():
    part = vector[start:stop]
    rows.append((block, start, stop, int(np.count_nonzero(part)), float(part.sum())))
    print(f"{block:16s} [{start:5d}, {stop:5d})  {stop - start:4d} entries, {rows[-1][3]:3d} set")
covered = sum(stop - start for _, start, stop, _, _ in rows)
assert covered == game.info.obs_size  # the slices tile the vector

# %% [markdown]
# The hand block has one entry per card of the 97-card deck, in the deck's order; the
# labels come from the deck.

# %%
hand_start, hand_stop = game.info.obs_slices["hand"]
hand = [game.info.deck.labels[i] for i in np.flatnonzero(vector[hand_start:hand_stop])]
print(f"{env.agent_selection} holds {len(hand)} cards: {' '.join(hand)}")
assert len(hand) >= 10

# %% [markdown]
# ## 3. The mask and its labels
#
# The action mask marks the legal ids; every id has a label in the D.3 log vocabulary.

# %%
legal = np.flatnonzero(mask)
labels = [env.unwrapped.action_label(int(a)) for a in legal]
print(f"{len(legal)} legal actions: {labels}")
assert labels == env.unwrapped.legal_labels()

fig, ax = plt.subplots(figsize=(10, 1.6))
ax.bar(range(len(mask)), mask, width=1.0)
ax.set_xlabel("action id")
ax.set_yticks([])
ax.set_title(f"Minchiate action mask: {len(legal)} of {len(mask)} legal ({labels[0].split()[0]})")
plt.show()
assert len(ax.patches) == len(mask)

# %% [markdown]
# ## 4. Replaying a D.3 record step by step
#
# `deal_record()` writes the deal as a RULES.md D.3 record (the deal in dealing order plus
# every action as `[seat, verb, arg]`); `game.replay` rebuilds the state from any prefix of it.

# %%
decisions, env = play_random(calabresella_v0.env(), SEED + 1)
record = env.unwrapped.deal_record()
cal_game = get_game("calabresella")
print(f"{record['format']}: {len(record['actions'])} actions")
for k, action in enumerate(record["actions"][:8]):
    print(f"  step {k:2d}: {action}")
for k in (0, 4, len(record["actions"])):
    prefix = {key: value for key, value in record.items() if key != "result"}
    state = cal_game.replay({**prefix, "actions": record["actions"][:k]})
    print(f"after {k:2d} actions: terminal={state.is_terminal()}, to_play=S{state.to_play}")
final = cal_game.replay(record)
assert final.is_terminal() and final.result() == env.unwrapped.result()

# %% [markdown]
# ## 5. Rendering the table
#
# `render_mode="ansi"` returns the table as text: hands by suit, the auction or the
# pre-game, the current trick and the score.

# %%
env = calabresella_v0.env(render_mode="ansi")
env.reset(seed=SEED)
table = env.render()
print(table)
assert "Calabresella" in table and "S0" in table

env = minchiate_v0.env(render_mode="ansi")
env.reset(seed=SEED)
print(env.render())

# %% [markdown]
# ## 6. The vector runner in five lines
#
# `VectorRunner` steps N engines of a game together and returns batched observations, masks,
# done flags and returns: the layer the trainers and the arena use.

# %%
runner = VectorRunner("minchiate", VECTOR_ENGINES, seed=SEED)
batch = runner.reset()
rng = np.random.default_rng(0)
finished = 0
for _ in range(VECTOR_STEPS):
    batch = runner.step(((rng.random(batch.mask.shape) + 1) * batch.mask).argmax(axis=1))
    finished += int(batch.done.sum())
print(f"{VECTOR_ENGINES} engines x {VECTOR_STEPS} steps: {finished} deals finished")
print(f"obs {batch.obs.shape} {batch.obs.dtype}, mask {batch.mask.shape} {batch.mask.dtype}")
assert batch.obs.shape == (VECTOR_ENGINES, game.info.obs_size)
assert finished > 0
