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
# # Train a bot, read its curves, evaluate it, export it
#
# The whole loop of a mazzo user: train a small Calabresella bot by self-play with the quick
# config (`configs/calabresella_quick.toml`), read its TensorBoard scalars back and plot the
# learning curve, evaluate it in the arena against random and the heuristic on fixed
# duplicate deals (margins with their 95% intervals), export it as an ONNX bundle and play the
# bundle without torch.
#
# The default budget is the quick config's own: two million decisions, about 9 minutes on one
# core. CI shrinks it with `MAZZO_NOTEBOOK_SCALE=ci` (a few updates: the curve is then short
# and the bot weak, but every step runs).

# %% tags=["parameters"]
import os

SCALE = os.environ.get("MAZZO_NOTEBOOK_SCALE", "full")  # "ci" runs a small budget
SMALL = SCALE == "ci"
TOTAL_DECISIONS = 24_576 if SMALL else 2_000_000
EVAL_EVERY = 2 if SMALL else 20  # updates between the run's own evaluations
EVAL_DEALS = 10 if SMALL else 500
ARENA_DEALS = 30 if SMALL else 500
SEED = 1

# %%
import sys
import tempfile
from pathlib import Path

ROOT = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "pyproject.toml").exists())
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)

import matplotlib.pyplot as plt
import numpy as np
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from mazzo.agents.bundle import load_bundle
from mazzo.agents.registry import make_agent
from mazzo.arena.evaluate import EvalConfig, evaluate
from mazzo.envs.registry import get_game
from mazzo.training.export import export_bundle
from mazzo.training.rl.config import load_config
from mazzo.training.rl.ppo import PPOConfig, train

WORK = Path(tempfile.mkdtemp(prefix="mazzo-notebook-"))
RUN = WORK / "quick"

# %% [markdown]
# ## 1. Train
#
# `load_config` reads the TOML file with every key checked; the overrides are what
# `mazzo train CONFIG --set key=value` would change. `train` prints a line per update and the
# evaluations as they come; the run directory holds the checkpoints, `metrics.csv` and the
# TensorBoard events.

# %%
overrides = {"total_decisions": TOTAL_DECISIONS, "eval_every": EVAL_EVERY,
             "eval_deals": EVAL_DEALS, "seed": SEED}  # fmt: skip
cfg = load_config(PPOConfig, "configs/calabresella_quick.toml", overrides, ignore=("algorithm",))
lines: list[str] = []
net = train(cfg, RUN, log=lines.append)
print("\n".join(lines[-6:]))
assert (RUN / "latest").exists()

# %% [markdown]
# ## 2. The learning curve from TensorBoard's scalars
#
# The trainer logs `eval/margin_vs_<opponent>` (with `_low` and `_high`, the 95% interval)
# at every evaluation, `losses/` and `charts/` at every update, each against the number of
# learner decisions. `EventAccumulator` reads them back.

# %%
events = EventAccumulator(str(RUN))
events.Reload()
tags = events.Tags()["scalars"]
print(sorted(tags))


def series(tag):
    points = events.Scalars(tag)
    return np.array([p.step for p in points]), np.array([p.value for p in points])


fig, (ax_margin, ax_loss) = plt.subplots(1, 2, figsize=(12, 4))
for opponent in cfg.eval_opponents:
    steps, mean = series(f"eval/margin_vs_{opponent}")
    _, low = series(f"eval/margin_vs_{opponent}_low")
    _, high = series(f"eval/margin_vs_{opponent}_high")
    ax_margin.plot(steps, mean, marker="o", label=f"vs {opponent}")
    ax_margin.fill_between(steps, low, high, alpha=0.2)
ax_margin.axhline(0, color="grey", lw=0.8)
ax_margin.set(xlabel="learner decisions", ylabel="margin per deal (game points)",
              title="Evaluation during training (95% intervals)")  # fmt: skip
ax_margin.legend()
for tag in ("losses/value", "losses/entropy"):
    steps, values = series(tag)
    ax_loss.plot(steps, values, label=tag)
ax_loss.set(xlabel="learner decisions", title="Losses per update")
ax_loss.legend()
plt.show()
assert "eval/margin_vs_heuristic" in tags and "losses/entropy" in tags
assert len(ax_margin.lines) >= len(cfg.eval_opponents)
assert len(series("eval/margin_vs_random")[0]) >= 2  # at least two points on the curve

# %% [markdown]
# ## 3. Evaluate in the arena
#
# `evaluate` plays every agent in every seat of the same deals (duplicate style) and returns
# the statistics `mazzo eval` prints: per agent its mean payoff, per pair the paired difference
# with its 95% interval over deals. A trained run is the agent `nn:RUN_DIR`.

# %%
game = get_game("calabresella")
bot = f"nn:{RUN}"
run, summary = evaluate(
    EvalConfig(agents=(bot, "heuristic", "random"), game=game, n=ARENA_DEALS, seed=SEED + 100,
               workers=1)
)  # fmt: skip
pairs = [p for p in summary.pairs if p.a == bot]
for p in pairs:
    print(f"{p.a} - {p.b}: {p.diff.mean:+.3f} [{p.diff.low:+.3f}, {p.diff.high:+.3f}], "
          f"better on {p.a_better}, worse on {p.b_better} of {summary.n_deals} deals")  # fmt: skip

fig, ax = plt.subplots(figsize=(6, 3))
names = [p.b for p in pairs]
means = np.array([p.diff.mean for p in pairs])
errors = np.array(
    [[p.diff.mean - p.diff.low for p in pairs], [p.diff.high - p.diff.mean for p in pairs]]
)
ax.barh(names, means, xerr=errors, capsize=6)
ax.axvline(0, color="grey", lw=0.8)
ax.set(xlabel="paired margin of the bot (game points per seat and game)",
       title=f"The trained bot on {summary.n_deals} duplicate deals")  # fmt: skip
plt.show()
assert {p.b for p in pairs} == {"heuristic", "random"}
assert all(p.diff.low <= p.diff.mean <= p.diff.high for p in pairs)
assert len(ax.patches) == 2

# %% [markdown]
# ## 4. Export, and play the bundle without torch
#
# `export_bundle` (the command `mazzo export`) writes the policy as an ONNX model with a
# manifest and test vectors. `load_bundle` runs it with numpy and onnxruntime alone (a front
# end needs nothing else); as an agent it is `onnx:DIR`, and it chooses the same actions as
# the network it came from.

# %%
bundle_dir = WORK / "bundle"
manifest = export_bundle(RUN, bundle_dir, vectors=8)
print(f"exported {manifest['game']} bundle: {sorted(p.name for p in bundle_dir.iterdir())}")
bundle = load_bundle(bundle_dir)

torch_agent = make_agent(bot, game)
onnx_agent = make_agent(f"onnx:{bundle_dir}", game)
rng = np.random.default_rng(0)
same = total = deals = 0
while total < 40:  # whole deals until 40 decisions (a deal all pass is over in three)
    state = game.new_state(game.deal_random(rng, game.rules()), game.rules())
    deals += 1
    while not state.is_terminal():
        view = state.info_view(state.to_play)
        a, b = torch_agent.act(view, rng), onnx_agent.act(view, rng)
        same, total = same + (a == b), total + 1
        state.apply(a)
print(f"{deals} deals: the bundle chose the network's action {same} times out of {total}")
print(f"the bundle plays {bundle.game_name} with {len(bundle.flags)} rule flags")
assert same == total

# %%
_, onnx_summary = evaluate(
    EvalConfig(agents=(f"onnx:{bundle_dir}", "random"), game=game, n=ARENA_DEALS // 3 or 1,
               seed=SEED + 200, workers=1)
)  # fmt: skip
diff = onnx_summary.pairs[0].diff
print(f"the bundle against random: {diff.mean:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}]")
assert np.isfinite(diff.mean)

# %% [markdown]
# A front end has no torch. In a fresh Python process where importing torch fails, the bundle
# still loads and plays a whole deal (numpy and onnxruntime only):

# %%
import subprocess

TORCH_FREE = f"""
import sys
sys.modules["torch"] = None  # any import of torch now fails
import numpy as np
from mazzo.agents.bundle import BundleAgent, load_bundle
from mazzo.envs.registry import get_game
game = get_game("calabresella")
agent = BundleAgent(load_bundle({str(bundle_dir)!r}))
rules = game.rules()
state = game.new_state(game.deal_random(np.random.default_rng(3), rules), rules)
while not state.is_terminal():
    state.apply(agent.act(state.info_view(state.to_play), np.random.default_rng(0)))
print("returns", state.returns(), "torch loaded:", sys.modules["torch"] is not None)
"""
out = subprocess.run([sys.executable, "-c", TORCH_FREE], cwd=ROOT, capture_output=True, text=True)
print(out.stdout or out.stderr)
assert out.returncode == 0 and "torch loaded: False" in out.stdout
