"""How a training run shows its progress: on a terminal one line redrawn in place (update,
decisions, decisions per second, the margin against the heuristic once measured, ETA) with the
other messages above it; elsewhere one log line per update with its percentage and ETA."""

import io
import re
import sys
from pathlib import Path

import pexpect

from mazzo.training.rl.ppo import PPOConfig, train
from mazzo.training.rl.progress import TrainProgress
from tests.cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[2]
TINY = {
    "game": "calabresella", "n_envs": 8, "rollout_decisions": 256, "minibatch": 128, "epochs": 1,
    "hidden": (16,), "threads": 1, "eval_every": 1, "eval_deals": 2, "total_decisions": 512,
}  # fmt: skip
CLI_TINY = [
    "--set", "total_decisions=512", "--set", "n_envs=8", "--set", "rollout_decisions=256",
    "--set", "minibatch=128", "--set", "eval_every=2", "--set", "eval_deals=2",
    "--set", "hidden=[16]",
]  # fmt: skip


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_the_line_shows_update_decisions_rate_margin_and_eta():
    out, clock = io.StringIO(), Clock()
    bar = TrainProgress(out, width=10, clock=clock)
    bar.update(3, 2_500_000, 10_000_000, 8417.2, 75.0)
    assert bar.line() == (
        "train [##........]  25%  update 3  2.5M/10M decisions  8,417/s  ETA 1m15s"
    )
    assert out.getvalue() == "\r" + bar.line() + "\x1b[K"
    bar.margin("random", 5.0, 4.0, 6.0)  # only the bar's opponent is shown
    bar.margin("heuristic", -0.25, -0.5, 0.125)
    clock.t = 0.1
    bar.update(4, 3_000_000, 10_000_000, 9000.0, 60.0)  # within the interval: not drawn
    assert out.getvalue().count("\r") == 1
    assert "vs heuristic -0.250 [-0.500, +0.125]" in bar.line() and "ETA 1m00s" in bar.line()
    assert "random" not in bar.line()


def test_messages_go_above_the_bar_and_close_ends_its_line():
    out = io.StringIO()
    bar = TrainProgress(out, clock=Clock())
    bar.message("before any update")
    assert out.getvalue() == "\r\x1b[Kbefore any update\n"
    bar.update(1, 10, 20, 5.0, 2.0)
    bar.message("  eval vs heuristic: +0.100")
    text = out.getvalue()
    assert text.endswith("\r\x1b[K  eval vs heuristic: +0.100\n\r" + bar.line() + "\x1b[K")
    bar.close()
    assert out.getvalue().endswith("\x1b[K\n")
    bar.close()  # twice: nothing more
    assert out.getvalue().endswith("\x1b[K\n") and not out.getvalue().endswith("\n\n")


def test_a_run_with_a_progress_bar_redraws_one_line(tmp_path):
    out, logged = io.StringIO(), []
    train(PPOConfig(**TINY), tmp_path / "bar", log=logged.append, progress=TrainProgress(out))
    text = out.getvalue()
    assert logged == []  # everything went through the bar
    draws = re.findall(r"\rtrain \[[#.]+\] +\d+%  update (\d+) [^\r\n]*\x1b\[K", text)
    assert draws and draws[-1] == "2"
    assert re.search(r"100%  update 2  5\d\d/512 decisions  [\d,]+/s  vs heuristic [-+]", text)
    assert "\r\x1b[K  eval at update 2 vs heuristic: " in text  # a message above the bar
    assert re.search(r"\r\x1b\[Kdone: update 2, 5\d\d decisions[^\n]*\n$", text)  # the last line
    assert not re.search(r"update \d+ \[ *\d+%\]", text)


def test_a_run_without_one_logs_a_line_per_update(tmp_path):
    logged = []
    train(PPOConfig(**TINY), tmp_path / "log", log=logged.append)
    updates = [line for line in logged if line.startswith("update ")]
    assert len(updates) == 2
    assert re.match(r"update 2 \[100%\] 5\d\d decisions, [\d,]+/s, .* ETA 0s$", updates[1])
    assert not any("\r" in line for line in logged)


def test_mazzo_train_draws_the_bar_on_a_terminal_and_logs_into_a_pipe(tmp_path):
    cmd = [sys.executable, "-m", "mazzo", "train", "configs/calabresella_quick.toml"]
    # into a pipe: in process (its stdout is no terminal); on a terminal: a real subprocess
    piped = run_cli(*cmd[3:], *CLI_TINY, "--run-dir", str(tmp_path / "pipe"))
    assert piped.returncode == 0, piped.stderr
    assert re.search(r"update 2 \[100%\] 5\d\d decisions", piped.stdout)
    assert "\r" not in piped.stdout
    child = pexpect.spawn(
        cmd[0], [*cmd[1:], *CLI_TINY, "--run-dir", str(tmp_path / "tty")],
        cwd=str(ROOT), encoding="utf-8", timeout=300,
    )  # fmt: skip
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert re.search(r"\rtrain \[[#.]+\] 100%  update 2  5\d\d/512 decisions", child.before)
    assert "update 2 [100%]" not in child.before
