"""The gift repair (``algorithm = "repair"``, ``mazzo.training.rl.repair``): its targets (the
network's own policy, one-hot on the best blank card at a sure gift, gift rows counted
``gift_weight`` times), its effect (the shipped Calabresella bot's sure gifts fall by far more
than chance allows), its exact resume, its refusals, and ``mazzo train`` running it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from mazzo.agents.neural import read_policy
from mazzo.agents.registry import make_agent
from mazzo.arena.gifts import BLUNDERS, card_values, play_deal
from mazzo.envs.deal_sets import generate_deals
from mazzo.envs.registry import get_game
from mazzo.training.rl.repair import RepairConfig, _net_of, play_and_label, train
from tests.cli_runner import ROOT, run_cli

GAME = get_game("calabresella")
RULES = GAME.rules()
BOT = str(ROOT / "checkpoints" / "calabresella")


def quiet(_line: str) -> None:
    pass


def test_the_targets_anchor_the_policy_and_move_each_gift_to_a_blank_card():
    encoder = GAME.encoder(RULES)
    net, _ = _net_of(BOT, GAME, RULES, encoder)
    deals = list(generate_deals(GAME, RULES, 40, 5).deals)
    played = play_and_label(net, GAME, RULES, encoder, deals, gift_weight=3)
    data, gifts = played.data, played.gift_rows
    assert played.gifts == len(gifts) > 10  # the bot throws about one a deal
    decisions = len(data) - 2 * played.gifts  # each gift row twice more
    with torch.no_grad():
        best = net.logits(
            torch.from_numpy(data.obs[:decisions].astype(np.float32)),
            torch.from_numpy(data.mask[:decisions]),
        ).argmax(-1).numpy()  # fmt: skip
    assert (data.target[:decisions].sum(1) == 1).all() and (data.target.max(1) == 1).all()
    moved = data.action[:decisions] != best
    # every row is the network's own choice but the gifts (and a few near-ties, which the
    # observation's float16 storage can tip)
    assert played.gifts <= moved.sum() <= played.gifts + 0.05 * decisions
    moved_rows = {tuple(o) for o in data.obs[:decisions][moved].tolist()}
    assert {tuple(o) for o in gifts.obs.tolist()} <= moved_rows
    labels = GAME.info.deck.labels
    values = card_values(GAME)
    for row in range(len(gifts)):
        (blank,) = np.flatnonzero(gifts.target[row])
        assert gifts.target[row, blank] == 1.0 and gifts.mask[row, blank] == 1
        assert values[labels[blank]] == 0  # the card ids are the action ids in card play
    tail = data.target[decisions:]
    assert len(tail) == 2 * len(gifts)
    assert {tuple(r) for r in tail.tolist()} == {tuple(r) for r in gifts.target.tolist()}


def test_the_repair_removes_most_sure_gifts_of_the_shipped_bot(tmp_path):
    """Two rounds of 300 deals, then 300 deals the repair never played: the bot's own sure
    gifts on those deals against the repaired network's (measured apart, same deals)."""
    cfg = RepairConfig(game="calabresella", init_from=BOT, rounds=2, deals=300)
    repaired = train(cfg, tmp_path / "run", log=quiet)
    deals = list(generate_deals(GAME, RULES, 300, cfg.deal_seed + 99).deals)
    before = _gifts(make_agent("bot:gifts=keep", GAME), deals)
    after = _gifts(make_agent(f"nn:{tmp_path / 'run'}", GAME), deals)
    assert before > 250 and after < before / 3, (before, after)
    rows = (tmp_path / "run" / "metrics.csv").read_text().splitlines()
    assert rows[0].split(",")[:4] == ["round", "deals", "decisions", "gifts_per_deal"]
    assert len(rows) == 4  # two rounds learned, one measured
    assert repaired.training is False


def _gifts(agent, deals, kind: str = "sure gift") -> int:
    rng = np.random.default_rng(0)
    total = 0
    for deal in deals:
        found = play_deal(
            GAME, GAME.new_state(deal, RULES),
            lambda s: int(agent.act(s.info_view(s.to_play), rng)),
        )  # fmt: skip
        total += len(found.blunders()[kind])
    return total


def test_a_master_repair_moves_each_master_lost_to_a_lesser_card_and_removes_most(tmp_path):
    """``blunders = ["master lost"]``: the rows moved are the network's own masters lost (found
    apart by the study's definition on the same deals), each to a legal card other than the
    one it played; three rounds of 300 deals then remove a good share of them on 300 unseen
    deals (slower than the gifts: some masters are not known as such to their holder)."""
    encoder = GAME.encoder(RULES)
    net, _ = _net_of(BOT, GAME, RULES, encoder)
    deals = list(generate_deals(GAME, RULES, 40, 5).deals)
    played = play_and_label(net, GAME, RULES, encoder, deals, 1, blunders=("master lost",))
    assert played.gifts == _gifts(make_agent("bot:gifts=keep", GAME), deals, "master lost") > 5
    rows = played.gift_rows
    assert (rows.mask[np.arange(len(rows)), rows.action] == 1).all()
    with torch.no_grad():
        own = net.logits(
            torch.from_numpy(rows.obs.astype(np.float32)), torch.from_numpy(rows.mask)
        ).argmax(-1).numpy()  # fmt: skip
    assert (own != rows.action).all()
    cfg = RepairConfig(
        game="calabresella", init_from=BOT, rounds=3, deals=300, gift_weight=8,
        blunders=("master lost",),
    )  # fmt: skip
    lines: list[str] = []
    train(cfg, tmp_path / "run", log=lines.append)
    assert "masters lost on" in lines[0]
    unseen = list(generate_deals(GAME, RULES, 300, cfg.deal_seed + 99).deals)
    before = _gifts(make_agent("bot:gifts=keep", GAME), unseen, "master lost")
    after = _gifts(make_agent(f"nn:{tmp_path / 'run'}", GAME), unseen, "master lost")
    assert before > 200 and after < 0.8 * before, (before, after)  # 254 -> 115 in 4 rounds


def test_a_resumed_repair_ends_with_the_weights_of_an_unbroken_one(tmp_path):
    whole = RepairConfig(game="calabresella", init_from=BOT, rounds=2, deals=40)
    train(whole, tmp_path / "whole", log=quiet)
    first = RepairConfig(game="calabresella", init_from=BOT, rounds=1, deals=40)
    train(first, tmp_path / "split", log=quiet)
    lines: list[str] = []
    train(whole, tmp_path / "split", resume=True, log=lines.append)
    assert lines[0].startswith("repair: resumed") and "after round 1" in lines[0]
    a, meta = read_policy(tmp_path / "whole")
    b, _ = read_policy(tmp_path / "split")
    assert meta["algorithm"] == "repair" and meta["update"] == 2
    assert all(torch.equal(a[k], b[k]) for k in a)


def test_a_network_without_gifts_is_repaired_to_itself(tmp_path, monkeypatch):
    """A round with no sure gift (here: none found) has empty gift rows and trains on its
    anchors alone."""
    monkeypatch.setattr(
        "mazzo.arena.gifts.DealPlays.blunders", lambda self: {key: [] for key in BLUNDERS}
    )
    encoder = GAME.encoder(RULES)
    net, _ = _net_of(BOT, GAME, RULES, encoder)
    played = play_and_label(
        net, GAME, RULES, encoder, list(generate_deals(GAME, RULES, 5, 1).deals), 4
    )
    assert played.gifts == 0 and played.gift_rows.obs.shape == (0, encoder.obs_size)
    cfg = RepairConfig(game="calabresella", init_from=BOT, rounds=1, deals=20)
    train(cfg, tmp_path / "none", log=quiet)
    assert (tmp_path / "none" / "gifts-00.npz").is_file()


def test_a_repair_refuses_what_it_cannot_do(tmp_path):
    with pytest.raises(ValueError, match="init_from must name the network"):
        RepairConfig(game="calabresella", init_from="")
    with pytest.raises(ValueError, match="deals must be at least 1, got 0"):
        RepairConfig(game="calabresella", init_from=BOT, deals=0)
    with pytest.raises(ValueError, match=r"blunders \['gifts'\]: give one or more of sure gift"):
        RepairConfig(game="calabresella", init_from=BOT, blunders=("gifts",))
    with pytest.raises(ValueError, match=r"blunders \[\]: give one or more"):
        RepairConfig(game="calabresella", init_from=BOT, blunders=())
    four = RepairConfig(game="calabresella", init_from=BOT, flags={"players": 4}, deals=5)
    with pytest.raises(ValueError, match=r"its flags is .*this repair's is .*\"players\": 4") as e:
        train(four, tmp_path / "four", log=quiet)
    assert "init_foreign_rules" not in str(e.value)  # the repair has no such key to offer
    with pytest.raises(ValueError, match=r"init_from 'bot@99': calabresella ships versions"):
        train(
            RepairConfig(game="calabresella", init_from="bot@99", deals=5),
            tmp_path / "v",
            log=quiet,
        )
    cfg = RepairConfig(game="calabresella", init_from=BOT, rounds=1, deals=5)
    with pytest.raises(ValueError, match="runs on this machine alone"):
        train(cfg, tmp_path / "ray", ray="auto", log=quiet)
    train(cfg, tmp_path / "once", log=quiet)
    with pytest.raises(ValueError, match="already holds a run"):
        train(cfg, tmp_path / "once", log=quiet)
    other = RepairConfig(game="calabresella", init_from=BOT, rounds=1, deals=6)
    with pytest.raises(ValueError, match="not this repair's run"):
        train(other, tmp_path / "once", resume=True, log=quiet)


def test_mazzo_train_runs_the_repair_recipe_and_its_network_plays(tmp_path):
    run = tmp_path / "rep"
    out = run_cli(
        "train", "calabresella_repair", "--set", "rounds=1", "--set", "deals=10",
        "--run-dir", str(run),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "repair: round 1 (measured)" in out.stdout
    assert json.loads((run / "config.json").read_text())["init_from"] == "bot"
    again = run_cli("train", "calabresella_repair", "--resume", str(run), "--set", "rounds=2")
    assert again.returncode == 0, again.stderr
    assert "rounds: 1 -> 2" in again.stderr and "repair: round 2 (measured)" in again.stdout
    evaluated = run_cli("eval", f"nn:{run}", "random", "--n", "4")
    assert evaluated.returncode == 0, evaluated.stderr
    assert Path(run / "gifts-01.npz").is_file()


class ValuesBlanks:
    """A stand-in search: every blank card (worth 0) valued ``blank``, every other card 0."""

    def __init__(self, blank: float) -> None:
        self.blank = blank
        self.values = card_values(GAME)

    def search(self, view, rng):
        labels = GAME.info.deck.labels
        legal = [a for a in range(GAME.encoder(RULES).num_actions) if view.legal_mask >> a & 1]
        return legal[0], {a: self.blank if self.values[labels[a]] == 0 else 0.0 for a in legal}


@pytest.mark.parametrize("blank, moved", [(1.0, True), (0.0, True), (-1.0, False)])
def test_a_confirming_search_moves_only_the_gifts_it_values_so(blank, moved):
    encoder = GAME.encoder(RULES)
    net, _ = _net_of(BOT, GAME, RULES, encoder)
    deals = list(generate_deals(GAME, RULES, 20, 5).deals)
    plain = play_and_label(net, GAME, RULES, encoder, deals, 1)
    confirmed = play_and_label(net, GAME, RULES, encoder, deals, 1, ValuesBlanks(blank))
    assert confirmed.gifts == plain.gifts > 5
    assert confirmed.refused == (0 if moved else plain.gifts)
    assert len(confirmed.gift_rows) == (plain.gifts if moved else 0)


def test_the_confirming_search_is_an_agent_with_search_values(tmp_path):
    cfg = RepairConfig(game="calabresella", init_from=BOT, rounds=1, deals=5, confirm="heuristic")
    with pytest.raises(ValueError, match="confirm 'heuristic': not an agent with search values"):
        train(cfg, tmp_path / "r", log=quiet)
