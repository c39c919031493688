"""Every ``mazzo`` subcommand's ``--help`` reads as text: no docstring markup (````code````)."""

import pytest

from tests.cli_runner import run_cli

COMMANDS = ("demo", "play", "replay", "rules", "agents", "eval", "dealset", "train", "serve",
            "export")  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
def test_help_has_no_markup(command):
    out = run_cli(command, "--help")
    assert out.returncode == 0, out.stderr
    assert f"mazzo {command}" in out.stdout
    assert "``" not in out.stdout
