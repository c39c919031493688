"""The benchmark scripts still run (tiny settings; the figures themselves are not tested)."""

import json
import re
import runpy
import subprocess
import sys
from pathlib import Path

from mazzo.envs.registry import game_names

ROOT = Path(__file__).resolve().parents[1]


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip


def test_bench_envs_runs_without_peers():
    out = run("bench_envs.py", "--seconds", "0.2", "--reps", "1", "--no-peers")
    assert out.returncode == 0, out.stderr
    for case in ("mazzo:calabresella:engine", "mazzo:calabresella:aec", "mazzo:minchiate:engine"):
        assert case in out.stdout


def test_bench_agents_reports_percentiles():
    out = run("bench_agents.py", "--agent", "heuristic", "--deals", "2")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["decisions"] > 0 and report["median_ms"] <= report["p95_ms"] <= report["max_ms"]


# Run a script as a Python without numpy would: a meta-path hook refuses to import it.
WITHOUT_NUMPY = """
import runpy, sys

class NoNumpy:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" or name.startswith("numpy."):
            raise ImportError(f"No module named {name!r} (refused by the test)")
        return None

sys.meta_path.insert(0, NoNumpy())
sys.argv = [sys.argv[1], *sys.argv[2:]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def test_bench_envs_without_the_project_says_how_to_run_it():
    script = str(ROOT / "benchmarks" / "bench_envs.py")
    out = subprocess.run(
        [sys.executable, "-c", WITHOUT_NUMPY, script, "--no-peers"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode != 0
    assert "bench_envs: cannot import the project" in out.stderr, out.stderr
    assert ".venv/bin/python benchmarks/bench_envs.py" in out.stderr
    assert "Traceback" not in out.stderr


def test_bench_vector_runs_without_peers():
    out = run("bench_vector.py", "--seconds", "0.2", "--reps", "1", "--sizes", "4",
              "--memory-steps", "3", "--no-peers")  # fmt: skip
    assert out.returncode == 0, out.stderr
    for case in ("mazzo:calabresella:vector4", "mazzo:minchiate:vector4"):
        assert case in out.stdout
    assert "os:skat:obsbuf" in out.stdout and "os:hearts:raw" in out.stdout


def test_bench_train_reports_every_case(tmp_path):
    """Every trainer case runs with tiny updates and reports its decisions per second."""
    out_file = tmp_path / "bench_train.json"
    out = run("bench_train.py", "--seconds", "0.2", "--rollout", "256", "--envs", "8",
              "--n-steps", "64", "--out", str(out_file))  # fmt: skip
    assert out.returncode == 0, out.stderr
    cases = ("mazzo:ppo", "mazzo:dmc", "sb3:maskableppo")
    report = json.loads(out_file.read_text())
    assert report["game"] == "calabresella" and tuple(report["results"]) == cases
    for case, r in report["results"].items():
        assert r["decisions"] >= (64 if case.startswith("sb3") else 256), case
        assert r["decisions_per_s"] > 0 and r["seconds"] > 0
        assert f"| {case} | {r['decisions_per_s']:,.0f} |" in out.stdout
    assert "| mazzo:ppo |" in out.stdout and "x | >= 20x |" in out.stdout


def test_bench_train_refuses_an_unknown_case():
    out = run("bench_train.py", "--cases", "mazzo:a2c")
    assert out.returncode == 2 and "invalid choice: 'mazzo:a2c'" in out.stderr


def test_study_strength_trains_evaluates_and_plots(tmp_path):
    """Two arms for a few seconds each, every snapshot evaluated on 2 deals, a table and a
    figure (the study itself runs for many minutes per arm: docs/training.md)."""
    out = run("study_strength.py", "all", "--arms", "dmc", "sb3", "--minutes", "0.025",
              "--every", "0.015", "--deals", "2", "--sb3-steps", "128",
              "--work", str(tmp_path / "work"), "--docs", str(tmp_path))  # fmt: skip
    assert out.returncode == 0, out.stderr
    rows = (tmp_path / "study_strength.csv").read_text().splitlines()
    assert rows[0] == "game,arm,seconds,decisions,opponent,margin,low,high,deals"
    pairs = {tuple(line.split(",")[1:5:3]) for line in rows[1:]}  # (arm, opponent)
    assert pairs == {(a, o) for a in ("dmc", "sb3") for o in ("heuristic", "random")}
    assert all(line.endswith(",2") for line in rows[1:])  # 2 deals each
    assert (tmp_path / "study_strength_calabresella.png").stat().st_size > 10_000
    assert "| dmc | " in out.stdout and "| sb3 | " in out.stdout


def test_study_strength_refuses_a_tiny_sb3_rollout():
    out = run("study_strength.py", "all", "--sb3-steps", "10")
    assert out.returncode == 2 and "--sb3-steps >= 64" in out.stderr


def test_count_vector_modes_step_the_runner():
    """The three modes ``count_vector.py`` runs under callgrind each step the runner (the
    counting itself needs valgrind, which the suite does not install)."""
    for game in ("calabresella", "minchiate"):
        for mode in ("full", "no-obs", "no-views"):
            out = run("count_vector.py", "--child", game, "4", "5", mode)
            assert out.returncode == 0, (game, mode, out.stderr)


def test_bench_sampler_reports_times_and_the_memo():
    out = run("bench_minchiate_sampler.py", "--positions", "3")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["samplers"] > 0 and report["max_memo"] > 0
    assert 0 < report["median_ms"] <= report["p95_ms"] <= report["max_ms"]


def test_bench_search_reports_both_cores_for_every_game():
    out = run("bench_search.py", "--seconds", "0.01", "--positions", "3", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report) == set(game_names())
    for rows in report.values():
        assert len(rows) == 5 and all(row["python_per_s"] > 0 for row in rows.values())
        assert "world draw" in rows


def test_bench_ray_scaling_reports_both_rates():
    out = run("bench_ray_scaling.py", "--actors", "1", "--rollout", "256", "--rollouts", "1",
              "--envs", "8", "--hidden", "32", "--no-ray")  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.splitlines()[-1])
    assert report["learner"]["samples_per_s"] > 0 and report["processes:1"]["per_actor"] > 0


def test_round_robin_plays_and_renders_the_strength_table(tmp_path):
    out = run("round_robin.py", "run", "--game", "minchiate", "--agents", "random", "heuristic",
              "pimc:samples=2,ms=0", "--n", "2", "--workers", "1", "--out", str(tmp_path / "rr"))  # fmt: skip
    assert out.returncode == 0, out.stderr
    text = run("round_robin.py", "table", str(tmp_path / "rr")).stdout
    assert "the first 2 deals of" in text and "2 lineups per deal and pair" in text
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + 3 + 1 + 3  # a header and three agents; a header and three pairs
    assert "| heuristic | random | +" in text  # the higher-rated agent first, its margin positive
    assert "Wall time" in text
    bad = run("round_robin.py", "table", str(tmp_path / "missing"))
    assert bad.returncode == 2 and "not an arena output folder" in bad.stderr


def test_bench_rllib_refuses_unknown_cases_before_starting_anything():
    out = run("bench_rllib.py", "--cases", "mazzo:ray,tianshou")
    assert out.returncode == 2
    assert (
        "--cases 'mazzo:ray,tianshou': choose among mazzo:ray, mazzo:ray+bc, rllib:ppo"
        in out.stderr
    )
    out = run("bench_rllib.py", "--bc-decisions", "0")
    assert out.returncode == 2 and "--bc-decisions 0: must be >= 1" in out.stderr


def test_plot_curves_places_evaluations_at_training_time_and_draws_them(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from plot_curves import training_minutes

    # a pause of 20 minutes between steps 2 and 3 (a resume) is not training time
    times = [(1, 0.0), (2, 60.0), (3, 60.0 + 1200), (3, 60.0 + 1260)]
    assert training_minutes(times, gap_minutes=10) == {1: 0.0, 2: 1.0, 3: 2.0}
    assert training_minutes(times, gap_minutes=30)[3] == 22.0
    game = game_names()[0]
    run_dir = tmp_path / "run"
    train = subprocess.run(
        [sys.executable, "-m", "mazzo", "train", f"configs/{game}_quick.toml",
         "--run-dir", str(run_dir), "--set", "total_decisions=200", "--set", "rollout_decisions=100",
         "--set", "n_envs=4", "--set", "eval_every=1", "--set", "eval_deals=2",
         "--set", "hidden=[8]", "--set", "threads=1"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert train.returncode == 0, train.stderr
    out = run("plot_curves.py", f"{run_dir}=tiny", "--out", str(tmp_path / "c.png"))
    assert out.returncode == 0, out.stderr
    rows = [r for r in out.stdout.splitlines() if r.startswith("| tiny |")]
    assert len(rows) == 4 and {r.split(" | ")[3] for r in rows} == {"random", "heuristic"}
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = run("plot_curves.py", str(tmp_path / "nothing"), "--out", str(tmp_path / "d.png"))
    assert bad.returncode == 2 and "no metrics.csv" in bad.stderr and "Traceback" not in bad.stderr
    gap = run("plot_curves.py", str(run_dir), "--out", str(tmp_path / "e.png"), "--gap", "0")
    assert gap.returncode == 2 and "--gap must be > 0 minutes, got 0.0" in gap.stderr


def test_plot_curves_reads_an_expert_iteration_run_round_by_round(tmp_path):
    run_dir = tmp_path / "exit"
    run_dir.mkdir()
    rounds = [
        {"round": 0, "evals": {"pimc:ms=0": [-1.5, -2.0, -1.0]}, "decisions": 2000, "total_wall_s": 600},
        {"round": 1, "evals": {"pimc:ms=0": [-0.5, -0.9, -0.1]}, "decisions": 1000, "total_wall_s": 1500},
    ]  # fmt: skip
    (run_dir / "rounds.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rounds))
    out = run("plot_curves.py", f"{run_dir}=recipe", "--out", str(tmp_path / "r.png"))
    assert out.returncode == 0, out.stderr
    rows = [r for r in out.stdout.splitlines() if r.startswith("| recipe |")]
    assert rows == [
        "| recipe | 10.0 | 2,000 | pimc:ms=0 | -1.500 [-2.000, -1.000] |",
        "| recipe | 25.0 | 3,000 | pimc:ms=0 | -0.500 [-0.900, -0.100] |",
    ]
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_study_gifts_counts_every_blunder_for_each_agent_and_game():
    out = run("study_gifts.py", "--agents", "heuristic", "random", "--deals", "20")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2 * len(game_names())  # an agent a line, for every committed deal file
    for line in lines:
        assert "sure gifts" in line and "partner overtaken" in line and "master lost" in line
        assert "excuse wasted" in line
        deals, left_out = re.search(r"(\d+) deals \((\d+) left out\)", line).groups()
        assert int(deals) + int(left_out) == 20


def test_study_gifts_studies_fresh_deals_of_any_rules_and_refuses_a_foreign_network():
    out = run("study_gifts.py", "--game", "calabresella", "--flag", "players=4", "--fresh", "4",
              "--deal-seed", "3", "--agents", "bot", "random")  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and all(
        ln.startswith("calabresella (players=4), seed 3 ") for ln in lines
    )
    foreign = run("study_gifts.py", "--game", "calabresella", "--flag", "players=4", "--fresh",
                  "2", "--agents", f"nn:{ROOT / 'checkpoints' / 'calabresella'}")  # fmt: skip
    assert foreign.returncode == 2 and "players 3 (trained) vs 4 (here)" in foreign.stderr
    allowed = run("study_gifts.py", "--game", "calabresella", "--flag", "players=4", "--fresh",
                  "2", "--foreign-rules", "--agents", f"nn:{ROOT / 'checkpoints' / 'calabresella'}")  # fmt: skip
    assert allowed.returncode == 0 and "plays rules it was not trained for" in allowed.stdout
    alone = run("study_gifts.py", "--flag", "players=4")
    assert alone.returncode == 2 and "--game and --flag go with --fresh N" in alone.stderr


def _labels(tmp_path: Path, searcher: str, *args: str) -> Path:
    """A labels file of ``searcher`` against the heuristic (``mazzo labels``, seed 4)."""
    labels = tmp_path / "labels.jsonl"
    made = subprocess.run(
        [sys.executable, "-m", "mazzo", "labels", searcher, "heuristic", *args, "--seed", "4",
         "--workers", "1", "--out", str(labels), "--no-progress"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    return labels


def test_study_label_agreement_asks_the_search_again_and_another_agent(tmp_path):
    """A search of 16 worlds asked again on its own labels agrees with them far more often than
    the random agent does (every position has at least two searched candidates: a random pick
    agrees at most half the time); every searched decision is counted once, by phase."""
    labels = _labels(tmp_path, "pimc:samples=16,ms=0", "--n", "6")
    out = run("study_label_agreement.py", str(labels), "--agent", "random", "--rate", "1",
              "--decisions", "100000")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "search asked again: pimc:samples=16,ms=0; agent: random" in out.stdout
    total = next(ln for ln in out.stdout.splitlines() if ln.startswith("| all |"))
    cells = [c.strip() for c in total.strip("|").split("|")]
    searched = sum(
        len(ln["values"]) > 1 for ln in map(json.loads, labels.read_text().splitlines()[1:])
    )
    assert int(cells[1].replace(",", "")) == searched > 50
    again, rand = (float(c.split("%")[0]) for c in cells[2:4])
    assert 60 < again < 97 and rand < 50 and again > rand + 20  # a search: not always itself
    capped = run("study_label_agreement.py", str(labels), "--decisions", "7", "--rate", "1")
    assert "| all | 7 |" in capped.stdout and "agent = label" not in capped.stdout
    bad = run("study_label_agreement.py", str(tmp_path / "none.jsonl"))
    assert bad.returncode == 2 and "no labels file at" in bad.stderr


def test_study_label_agreement_compares_the_phases_asked_for(tmp_path):
    """``--phases``: only the discards of Minchiate labels that search them are compared (every
    row of the table is a discard phase), and a phase the game lacks is refused by name."""
    labels = _labels(
        tmp_path, "pimc:samples=8,ms=0,discards=search", "--game", "minchiate", "--n", "2"
    )
    out = run("study_label_agreement.py", str(labels), "--rate", "1", "--phases",
              "discard_cutter+discard_dealer")  # fmt: skip
    assert out.returncode == 0, out.stderr
    phases = {ln.split("|")[1].strip() for ln in out.stdout.splitlines() if ln.startswith("| ")}
    assert phases - {"phase", "---", "all"} <= {"discard_cutter", "discard_dealer"}
    assert phases & {"discard_cutter", "discard_dealer"}
    every = run("study_label_agreement.py", str(labels), "--rate", "1")
    assert "| play |" in every.stdout
    bad = run("study_label_agreement.py", str(labels), "--phases", "discard")
    assert bad.returncode == 2 and "discard is no phase of minchiate" in bad.stderr
    assert "discard_cutter" in bad.stderr


def test_study_minchiate_encoding_blocks_hold_what_the_hands_confirm():
    """At every position of random Minchiate playouts, seen from every seat: a card the
    ``exclusions`` block rules out for a seat (in the row of its place relative to the viewer)
    is not in that seat's hand, and a suit the ``voids`` block shows void is one the seat holds
    none of; and voids do show."""
    import random

    from mazzo.agents.minchiate.knowledge import SUIT_MASK
    from mazzo.envs.minchiate import Rules, State
    from tests.minchiate.helpers import random_deal

    study = runpy.run_path(str(ROOT / "benchmarks" / "study_minchiate_encoding.py"))
    rng, voids_shown, ruled_out = random.Random(5), 0, 0
    for _ in range(4):
        state = State.new(random_deal(rng), Rules())
        while not state.is_terminal():
            for viewer in range(4):
                view = state.info_view(viewer)
                cards = study["exclusions_block"](view).reshape(4, 97)
                suits = study["voids_block"](view).reshape(4, 5)
                for rel in range(4):
                    hand = state.hands[(viewer + rel) % 4]
                    held = [c for c in range(97) if cards[rel, c] and hand >> c & 1]
                    assert not held, (viewer, rel, held)
                    for suit in range(5):
                        assert not (suits[rel, suit] and hand & SUIT_MASK[suit]), (viewer, rel)
                    voids_shown += int(suits[rel].sum())
                    ruled_out += int(cards[rel].sum())
            state.apply(rng.choice(state.legal_actions()))
    assert voids_shown > 100 and ruled_out > 1000


def test_study_minchiate_encoding_runs_both_arms(tmp_path):
    """Both arms learn the same labels and the table has a row per epoch; bad input is named."""
    labels = _labels(tmp_path, "pimc:samples=4,ms=0", "--game", "minchiate", "--n", "3")
    out = run("study_minchiate_encoding.py", str(labels), "--epochs", "2", "--hidden", "16",
              "--feature", "exclusions")  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "| epoch | v1 | v1 + exclusions (388) | difference |" in out.stdout
    rows = [ln for ln in out.stdout.splitlines() if re.match(r"\| [12] \| ", ln)]
    assert len(rows) == 2 and all(ln.count("%") == 2 for ln in rows)
    bad = run("study_minchiate_encoding.py", str(labels), "--hidden", "wide")
    assert bad.returncode == 2 and "--hidden must be widths" in bad.stderr
    none = run("study_minchiate_encoding.py", str(tmp_path / "none.jsonl"))
    assert none.returncode == 2 and "no labels file at" in none.stderr
    half = run("study_minchiate_encoding.py", str(labels), "--epochs", "1", "--hidden", "16",
               "--train-share", "0.5")  # fmt: skip
    assert half.returncode == 0, half.stderr
    total, learned = (int(n.replace(",", "")) for n in re.findall(
        r"([\d,]+) searched decisions, ([\d,]+) learned", half.stdout)[0])  # fmt: skip
    assert learned == int(int(total * 0.9) * 0.5)  # half the training rows, the same held out
    assert f"{total - int(total * 0.9):,} held-out decisions" in half.stdout
    share = run("study_minchiate_encoding.py", str(labels), "--train-share", "1.5")
    assert share.returncode == 2 and "--train-share must be in (0, 1], got 1.5" in share.stderr


def test_study_phase_swap_finds_the_phase_that_loses(tmp_path):
    """The heuristic against itself is level deal by deal; with its card play swapped for the
    random agent's it loses by far (the interval below zero, 40 deals), with its discards
    swapped for its own it is the same deal by deal; bad phases are named."""
    out = tmp_path / "swap.json"
    ran = run("study_phase_swap.py", "heuristic", "random", "--phases", "play", "--opponent",
              "heuristic", "--n", "40", "--game", "minchiate", "--out", str(out))  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    data = json.loads(out.read_text())
    assert data["alone"] == [0.0, 0.0, 0.0] and data["deals"] == 40
    assert data["difference"][2] < 0 and data["swapped"][2] < 0
    assert len(data["per_deal"]["difference"]) == 40
    discards = run("study_phase_swap.py", "heuristic", "random", "--phases",
                   "discard_cutter+discard_dealer", "--opponent", "heuristic", "--n", "40",
                   "--game", "minchiate", "--out", str(tmp_path / "d.json"))  # fmt: skip
    assert discards.returncode == 0, discards.stderr
    # random discards cost far less than random card play: the swap touches only its phases
    assert json.loads((tmp_path / "d.json").read_text())["swapped"][0] > data["swapped"][2]
    same = run("study_phase_swap.py", "heuristic", "heuristic", "--phases",
               "discard_cutter+discard_dealer", "--opponent", "random", "--n", "6",
               "--deals", "configs/deals/minchiate-2000-s1.jsonl", "--out", str(out))  # fmt: skip
    assert same.returncode == 0, same.stderr
    assert set(json.loads(out.read_text())["per_deal"]["difference"]) == {0.0}
    bad = run("study_phase_swap.py", "heuristic", "random", "--phases", "discard",
              "--opponent", "heuristic", "--game", "minchiate")  # fmt: skip
    assert bad.returncode == 2 and "'discard'" in bad.stderr and "discard_cutter" in bad.stderr


def test_study_phase_swap_takes_the_agent_alone_from_an_earlier_file(tmp_path):
    """``--alone``: the agent alone read back from an earlier ``--out`` (the same figures as
    playing it again); another opponent's file, or too few deals, is refused by name."""
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    common = ["--opponent", "random", "--game", "minchiate", "--seed", "3"]
    ran = run("study_phase_swap.py", "heuristic", "random", "--phases", "play", "--n", "12",
              *common, "--out", str(first))  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    again = run("study_phase_swap.py", "heuristic", "random", "--phases", "discard_cutter",
                "--n", "10", *common, "--alone", str(first), "--out", str(second))  # fmt: skip
    assert again.returncode == 0, again.stderr
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    assert b["per_deal"]["alone"] == a["per_deal"]["alone"][:10]
    assert b["deal_source"] == "generated (minchiate, seed 3)"
    other = run("study_phase_swap.py", "heuristic", "random", "--phases", "play", "--n", "10",
                "--opponent", "heuristic", "--game", "minchiate", "--seed", "3",
                "--alone", str(first))  # fmt: skip
    assert other.returncode == 2 and "opponent is 'random'" in other.stderr
    more = run("study_phase_swap.py", "heuristic", "random", "--phases", "play", "--n", "20",
               *common, "--alone", str(first))  # fmt: skip
    assert more.returncode == 2 and "holds 12 deals" in more.stderr
    junk = tmp_path / "junk.json"
    junk.write_text("[1]")
    bad = run("study_phase_swap.py", "heuristic", "random", "--phases", "play", "--n", "5",
              *common, "--alone", str(junk))  # fmt: skip
    assert bad.returncode == 2 and "not a study_phase_swap --out file" in bad.stderr


def test_study_minchiate_discards_sets_each_discard_beside_the_heuristics():
    """The heuristic agrees with itself on every discard and never throws a trump; the random
    agent agrees far less often and throws trumps."""
    same = run("study_minchiate_discards.py", "heuristic", "--n", "8")
    assert same.returncode == 0, same.stderr
    assert "the heuristic's on 100.0% of them" in same.stdout
    assert "| heuristic | 0.0% |" in same.stdout
    rand = run("study_minchiate_discards.py", "random", "--n", "8")
    share = float(re.search(r"the heuristic's on ([\d.]+)%", rand.stdout).group(1))  # type: ignore[union-attr]
    trumps = float(re.search(r"\| random \| ([\d.]+)%", rand.stdout).group(1))  # type: ignore[union-attr]
    assert share < 50 and trumps > 0
    bad = run("study_minchiate_discards.py", "random", "--deals", "/no/such.jsonl")
    assert bad.returncode == 2 and "/no/such.jsonl" in bad.stderr
