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
# # What the players do: strategy from arena games
#
# The heuristic, PIMC (the determinized search) and the shipped bot (a network trained by
# imitation and self-play) each play the same deals in every seat. This notebook reads their
# games as a card player would:
#
# - **Calabresella**: which hands bid (by estimated tricks, aces and the longest suit), which
#   contracts are made from which seat, which cards a Chiamo soloist calls;
# - **Minchiate**: what is discarded, how often combinations are declared, when the Matto is
#   played, and how much the partnerships collect by capture during play;
# - **both**: where the three choose differently on the very same positions.
#
# The budget is in the parameters cell; CI shrinks it with `MAZZO_NOTEBOOK_SCALE=ci` (PIMC then
# searches 4 worlds instead of its default, and few deals are played).

# %% tags=["parameters"]
import os

SCALE = os.environ.get("MAZZO_NOTEBOOK_SCALE", "full")  # "ci" runs a small budget
SMALL = SCALE == "ci"
CAL_DEALS = 15 if SMALL else 200  # Calabresella deals per agent
MIN_DEALS = 3 if SMALL else 40  # Minchiate deals per agent
PIMC = "pimc:samples=4,ms=0" if SMALL else "pimc"
POSITIONS = 60 if SMALL else 400  # positions compared in section 3, per game
SEED = 2026

# %%
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = next(p for p in [Path.cwd(), *Path.cwd().parents] if (p / "pyproject.toml").exists())
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)

import matplotlib.pyplot as plt
import numpy as np

from mazzo.agents.calabresella.heuristic import estimated_tricks
from mazzo.agents.minchiate.knowledge import VALUE
from mazzo.agents.registry import make_agent
from mazzo.envs.calabresella.actions import Phase as CalPhase
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.minchiate.actions import Phase as MinPhase
from mazzo.envs.registry import get_game

AGENTS = {"heuristic": "heuristic", "pimc": PIMC, "bot": "bot"}


def play(game, spec, n, seed, hook):
    """Play ``n`` deals (from ``seed``) with ``spec`` in every seat; ``hook(state, view, action)``
    sees every decision. Returns the finished states."""
    rules = game.rules()
    agents = [make_agent(spec, game) for _ in range(game.seats(rules))]
    rng = np.random.default_rng(seed)
    finished = []
    for deal in generate_deals(game, rules, n, seed).deals:
        state = game.new_state(deal, rules)
        while not state.is_terminal():
            view = state.info_view(state.to_play)
            action = agents[state.to_play].act(view, rng)
            hook(state, view, action)
            state.apply(action)
        finished.append(state)
    return finished


# %% [markdown]
# ## 1. Calabresella
#
# ### Bidding by hand strength
#
# At each player's first bid we note the hand: the heuristic's *estimated tricks* (sure
# tricks from the top of each suit plus half a trick for length), the aces (the 1 of each suit,
# worth a full point) and the longest suit; then whether the player bid anything.

# %%
cal = get_game("calabresella")
bids = []  # (agent, estimated tricks, aces, longest suit, bid label)
calls = defaultdict(Counter)  # agent -> called card
cal_results = defaultdict(list)  # agent -> the deals' results (with the soloist's position)
SUITS = [sum(1 << c for c in range(s * 10, s * 10 + 10)) for s in range(4)]
ACES = [cal.info.deck.labels.index(f"A{s}") for s in "cdsb"]

for name, spec in AGENTS.items():
    seen_bid: set[tuple[int, int]] = set()  # (the deal's state, seat): first bids only

    def hook(state, view, action, name=name, seen=seen_bid):
        if view.phase is CalPhase.BID and (id(state), view.seat) not in seen:
            seen.add((id(state), view.seat))
            hand = view.hand
            longest = max((hand & m).bit_count() for m in SUITS)
            aces = sum(hand >> a & 1 for a in ACES)
            bids.append((name, estimated_tricks(hand), aces, longest, state.action_label(action)))
        if view.phase is CalPhase.CALL:
            calls[name][state.action_label(action).split()[-1]] += 1

    for state in play(cal, spec, CAL_DEALS, SEED, hook):
        result = state.result()
        if not result["void"]:
            position = (result["soloist"] - result["dealer"] - 1) % 3  # 0: eldest hand
            cal_results[name].append((result["contract"], position, bool(result["success"])))
    print(f"{name}: {len(cal_results[name])} contracts played in {CAL_DEALS} deals")

# %%
fig, axes = plt.subplots(1, 3, figsize=(15, 4), sharey=True)
features = [("estimated tricks", 1, np.arange(0, 9)), ("aces", 2, np.arange(0, 5)),
            ("longest suit", 3, np.arange(3, 9))]  # fmt: skip
for ax, (title, col, levels) in zip(axes, features, strict=True):
    for name in AGENTS:
        rows = [b for b in bids if b[0] == name]
        x, y = [], []
        for level in levels:
            group = [b for b in rows if min(int(b[col]), levels[-1]) == level]
            if len(group) >= 3:
                x.append(level)
                y.append(np.mean([b[4] != "pass" for b in group]))
        ax.plot(x, y, marker="o", label=name)
    ax.set(xlabel=title, title=f"bid rate by {title}")
axes[0].set_ylabel("share of first bids that are not a pass")
axes[0].legend()
plt.show()
assert CAL_DEALS * len(AGENTS) <= len(bids) <= 3 * CAL_DEALS * len(AGENTS)  # 1 to 3 per deal
assert all(len(ax.lines) >= 1 for ax in axes)

# %% [markdown]
# ### Contracts made, by contract and by the soloist's position
#
# Position 0 is the eldest hand (first to bid), 2 the dealer.

# %%
fig, (ax_c, ax_p) = plt.subplots(1, 2, figsize=(13, 4))
contracts = ["chiamo", "solo", "solissimo", "dividete", "scegliete"]
width = 0.8 / len(AGENTS)
for k, name in enumerate(AGENTS):
    res = cal_results[name]
    made = [np.mean([s for c, _, s in res if c == con]) if any(c == con for c, _, _ in res)
            else np.nan for con in contracts]  # fmt: skip
    counts = [sum(c == con for c, _, _ in res) for con in contracts]
    bars = ax_c.bar(np.arange(5) + k * width, made, width, label=name)
    for bar, count in zip(bars, counts, strict=True):
        if count:
            ax_c.annotate(str(count), (bar.get_x() + bar.get_width() / 2, 0.02), ha="center",
                          fontsize=7, color="white")  # fmt: skip
    by_pos = [np.mean([s for _, p, s in res if p == pos]) if any(p == pos for _, p, _ in res)
              else np.nan for pos in range(3)]  # fmt: skip
    ax_p.bar(np.arange(3) + k * width, by_pos, width, label=name)
ax_c.set_xticks(np.arange(5) + 0.4 - width / 2, contracts)
ax_c.set(ylabel="share made", title="contracts made (numbers: contracts played)")
ax_p.set_xticks(np.arange(3) + 0.4 - width / 2, ["eldest", "middle", "dealer"])
ax_p.set(ylabel="share made", title="made by the soloist's position")
ax_c.legend()
plt.show()
assert sum(len(r) for r in cal_results.values()) > 0
assert len(ax_c.patches) == 5 * len(AGENTS)

# %% [markdown]
# ### The cards called
#
# In Chiamo the soloist calls a card it lacks; its holder must hand it over. Which cards do
# the agents call?

# %%
for name, counter in calls.items():
    top = ", ".join(f"{card} {n}" for card, n in counter.most_common(6))
    print(f"{name}: {sum(counter.values())} calls; most called: {top or '-'}")
assert all(card in cal.info.deck.labels for c in calls.values() for card in c)

# %% [markdown]
# ## 2. Minchiate
#
# ### Discards, declarations, the Matto, captures
#
# PIMC searches card play only: its discards, declarations and Matto payments are the
# heuristic's, so the first two plots compare the heuristic with the bot.

# %%
mch = get_game("minchiate")
labels = mch.info.deck.labels
discards = defaultdict(Counter)  # agent -> kind of card discarded
declared = defaultdict(Counter)  # agent -> declare / skip
matto_trick = defaultdict(list)  # agent -> the trick in which the Matto was played
captures = defaultdict(list)  # agent -> capture points of the deal (both teams together)


def kind(card: str) -> str:
    """A card's kind as a player sorts a discard: the Matto, trumps and suit cards, each
    split into counters (cards worth points in the count) and the rest."""
    if card == "M":
        return "Matto"
    counter = VALUE[labels.index(card)] > 0
    if card.startswith("T"):
        return "counting trump" if counter else "plain trump"
    return "counting suit card" if counter else "plain suit card"


for name, spec in AGENTS.items():

    def hook(state, view, action, name=name):
        label = state.action_label(action)
        if view.phase in (MinPhase.DISCARD_CUTTER, MinPhase.DISCARD_DEALER):
            discards[name][kind(label.split()[-1])] += 1
        elif view.phase is MinPhase.DECLARE:
            declared[name][label.split()[0]] += 1
        elif view.phase is MinPhase.PLAY and label == "play M":
            matto_trick[name].append(view.n_tricks + 1)

    for state in play(mch, spec, MIN_DEALS, SEED, hook):
        events = state.result()["events"]
        captures[name].append(sum(e["points"] for e in events if e["cause"] == "capture"))
    print(f"{name}: {MIN_DEALS} deals, mean capture points {np.mean(captures[name]):.1f}")

# %%
fig, axes = plt.subplots(1, 3, figsize=(16, 4))
kinds = ["plain suit card", "counting suit card", "plain trump", "counting trump", "Matto"]
for k, name in enumerate(("heuristic", "bot")):
    total = sum(discards[name].values()) or 1
    axes[0].bar(np.arange(len(kinds)) + k * 0.4, [discards[name][x] / total for x in kinds], 0.4,
                label=name)  # fmt: skip
    n = sum(declared[name].values()) or 1
    axes[1].bar(np.arange(2) + k * 0.4, [declared[name]["declare"] / n, declared[name]["skip"] / n],
                0.4, label=name)  # fmt: skip
axes[0].set_xticks(np.arange(len(kinds)) + 0.2, kinds, rotation=20)
axes[0].set(title="what is discarded", ylabel="share of discards")
axes[1].set_xticks(np.arange(2) + 0.2, ["declare", "skip"])
axes[1].set(title="declaration decisions", ylabel="share")
axes[0].legend()
for name in AGENTS:
    if matto_trick[name]:
        axes[2].hist(matto_trick[name], bins=np.arange(1, 23), alpha=0.5, label=name)
axes[2].set(title="when the Matto is played", xlabel="trick", ylabel="deals")
axes[2].legend()
plt.show()
assert sum(discards["heuristic"].values()) > 0 and sum(declared["heuristic"].values()) >= 0
assert len(axes[0].patches) == 2 * len(kinds)

# %%
fig, ax = plt.subplots(figsize=(6, 3))
ax.boxplot([captures[name] for name in AGENTS])
ax.set_xticks(range(1, len(AGENTS) + 1), list(AGENTS))
ax.set(ylabel="points captured in play per deal", title="the capture bonus, both teams")
plt.show()
assert all(len(captures[name]) == MIN_DEALS for name in AGENTS)

# %% [markdown]
# ## 3. Where the agents choose differently
#
# The positions come from games of the heuristic against itself; at each, every agent is
# asked for its move on the same view. Agreement per phase, for each pair of agents (forced
# moves, with one legal action, are left out).


# %%
def positions(game, n_deals, limit, seed):
    """Views of non-forced decisions from heuristic games (at most ``limit``)."""
    views = []

    def hook(state, view, action):
        if view.legal_mask.bit_count() > 1 and len(views) < limit:
            views.append(view)

    play(game, "heuristic", n_deals, seed, hook)
    return views


fig, axes = plt.subplots(1, 2, figsize=(14, 4))
for ax, game, n_deals in ((axes[0], cal, max(CAL_DEALS, 20)), (axes[1], mch, max(MIN_DEALS, 4))):
    views = positions(game, n_deals, POSITIONS, SEED + 1)
    agents = {name: make_agent(spec, game) for name, spec in AGENTS.items()}
    rng = np.random.default_rng(0)
    chosen = {name: [agent.act(v, rng) for v in views] for name, agent in agents.items()}
    phases = sorted({v.phase for v in views}, key=int)
    pairs = [("heuristic", "pimc"), ("heuristic", "bot"), ("pimc", "bot")]
    for k, (a, b) in enumerate(pairs):
        agree = []
        for phase in phases:
            idx = [i for i, v in enumerate(views) if v.phase is phase]
            agree.append(np.mean([chosen[a][i] == chosen[b][i] for i in idx]))
        ax.bar(np.arange(len(phases)) + k * 0.27, agree, 0.27, label=f"{a} = {b}")
    ax.set_xticks(np.arange(len(phases)) + 0.27, [p.name.lower() for p in phases], rotation=25)
    ax.set(
        ylim=(0, 1),
        ylabel="share of the same move",
        title=f"{game.info.title}: {len(views)} positions",
    )
    ax.legend(fontsize=8)
    counts = Counter(v.phase.name.lower() for v in views)
    print(f"{game.name}: positions per phase {dict(counts)}")
plt.show()
assert all(len(ax.patches) >= 3 for ax in axes)

# %% [markdown]
# ## 4. What a best response learned
#
# `mazzo exploit AGENT` trains a best response against a frozen agent (docs/exploitability.md).
# Here, for the shipped Calabresella bot: the response starts from the bot's own weights, and
# we count, by phase, the decisions where it plays otherwise than the bot would on the same
# view (`what_it_learned`, on held-out deals; `mazzo exploit` writes the same counts into
# `exploit.json`), and, phase by phase, what the response takes deciding that phase alone with
# the bot deciding every other (`--by-phase`: where its changes take the points, not only
# where they differ). A run of `mazzo exploit bot --from-weights --by-phase --out
# runs/exploit_bot` is used where it exists; otherwise a short one is trained here.

# %%
import json

from mazzo.training.rl.exploit import ExploitConfig, differs_text, exploit, gains_text

EXPLOIT = ROOT / "runs" / "exploit_bot"
if not (EXPLOIT / "exploit.json").exists() or SMALL:
    EXPLOIT = ROOT / "runs" / ("exploit_bot_notebook_ci" if SMALL else "exploit_bot_notebook")
    budget = ExploitConfig(
        agent="bot",
        game="calabresella",
        flags={},
        from_weights=True,
        decisions=4096 if SMALL else 200_000,
        deals=20 if SMALL else 300,
        curve_every=10**6,
        by_phase=True,
    )
    import shutil

    shutil.rmtree(EXPLOIT, ignore_errors=True)
    found = exploit(budget, EXPLOIT, log=lambda _line: None)
else:
    from mazzo.training.rl.exploit import Exploitability

    found = Exploitability(**json.loads((EXPLOIT / "exploit.json").read_text()))
print(
    f"response - bot: {found.margin:+.3f} [{found.low:+.3f}, {found.high:+.3f}] on {found.deals} deals"
)
print(differs_text(found))
if found.gains:
    print(gains_text(found))
phases = [p for p, (n, _) in found.differs.items() if n]
fig, (ax, gx) = plt.subplots(1, 2, figsize=(11, 3))
ax.bar(phases, [found.differs[p][1] / found.differs[p][0] for p in phases])
ax.set(ylabel="share played otherwise", title="the response against the bot, by phase")
gained = list(found.gains)
means = [found.gains[p][0] for p in gained]
spread = [[m - found.gains[p][1] for p, m in zip(gained, means, strict=True)],
          [found.gains[p][2] - m for p, m in zip(gained, means, strict=True)]]  # fmt: skip
gx.bar(gained, means, yerr=spread, capsize=3)
gx.axhline(0, color="grey", lw=0.5)
gx.set(ylabel="points per seat and game", title="what it takes deciding one phase alone")
plt.show()
assert phases and all(0 <= found.differs[p][1] <= found.differs[p][0] for p in phases)
assert all(low <= mean <= high for mean, low, high in found.gains.values())
