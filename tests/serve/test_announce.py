"""What ``mazzo serve`` says when it starts: a line at once while the bots load (their networks
take seconds), then the address a person opens, the web table's http:// address first with
``--web``; and how it ends: Ctrl-C exits with 130; a scheduler's SIGTERM ends it by that
signal once the server has shut down (uvicorn re-raises it: a shell reports 143)."""

import signal
import subprocess
import sys

import pytest

from tests.cli_runner import ROOT
from tests.serve.helpers import free_port


@pytest.mark.parametrize(
    ("web", "sig", "status"),
    [(True, signal.SIGINT, 130), (False, signal.SIGTERM, -signal.SIGTERM)],
    ids=["web-ctrl-c", "ws-sigterm"],
)
def test_serve_says_where_to_go_then_stops_with_the_signals_status(web, sig, status):
    port = free_port()
    cmd = [sys.executable, "-m", "mazzo", "serve", "--port", str(port), "--bot", "random"]
    proc = subprocess.Popen(
        [*cmd, "--web"] if web else cmd, cwd=ROOT, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stderr is not None
        first, second = proc.stderr.readline(), proc.stderr.readline()
        proc.send_signal(sig)
        rest = proc.communicate(timeout=60)[1]
    finally:
        if proc.poll() is None:
            proc.kill()
    assert first == "mazzo serve: loading the bots (random)...\n"
    if web:
        assert second.startswith(f"mazzo serve: the web table is at http://127.0.0.1:{port}/ ")
        assert f"ws://127.0.0.1:{port}/ws" in second
    else:
        assert second.startswith(f"mazzo serve: ws://127.0.0.1:{port}/ws ")
    assert proc.returncode == status, rest[-3000:]
