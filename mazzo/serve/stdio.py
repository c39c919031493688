"""The stdio transport of the bot protocol: one connection, one JSON object per line in on stdin
and out on stdout (UTF-8, ``\\n``-terminated), the log on stderr.

Lines are read from the file descriptor in chunks, so a line longer than the server's
``max_bytes`` is refused (``too_big``) without being held whole, and a client silent for the idle
timeout gets ``timeout``; both end the session (the process exits). End of input ends it too.
"""

from __future__ import annotations

import json
import os
import select
from typing import Any, TextIO

from mazzo.serve.protocol import ProtocolError, error
from mazzo.serve.server import Connection, Server

__all__ = ["LineReader", "run_stdio"]

_CHUNK = 65536


class LineReader:
    """Lines from a file descriptor, each at most ``max_bytes`` long, with a timeout."""

    def __init__(self, fd: int, max_bytes: int) -> None:
        self.fd, self.max_bytes = fd, max_bytes
        self.buffer = b""
        self.eof = False

    def next_line(self, timeout: float) -> bytes | None:
        """The next line without its newline; None at the end of input.

        Raises:
            TimeoutError: nothing complete arrived within ``timeout`` seconds.
            ProtocolError: ``too_big``, a line longer than ``max_bytes``.
        """
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line, self.buffer = self.buffer[:end], self.buffer[end + 1 :]
                self._check(len(line))
                return line.rstrip(b"\r")
            self._check(len(self.buffer))
            if self.eof:
                line, self.buffer = self.buffer, b""
                return line or None
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                raise TimeoutError
            chunk = os.read(self.fd, _CHUNK)
            if not chunk:
                self.eof = True
            self.buffer += chunk

    def _check(self, size: int) -> None:
        if size > self.max_bytes:
            raise ProtocolError(
                "too_big",
                f"a line of more than {self.max_bytes} bytes is over the limit; closing",
            )


def run_stdio(server: Server, fd: int, out: TextIO) -> int:
    """Serve one connection on ``fd`` (stdin) and ``out`` (stdout). Returns the exit status:
    0 at the end of input, 1 when the server closed the connection (too big, idle)."""
    conn = server.connect("stdio")
    reader = LineReader(fd, server.limits.max_bytes)
    try:
        return _loop(server, conn, reader, out)
    finally:
        server.disconnect(conn, conn.closing or "end of input")


def _loop(server: Server, conn: Connection, reader: LineReader, out: TextIO) -> int:
    while True:
        try:
            line = reader.next_line(server.limits.idle_timeout)
        except TimeoutError:
            _send(out, [server.idle_error(conn)])
            return 1
        except ProtocolError as e:
            conn.closing = e.code
            _send(out, [error(e.code, e.message)])
            return 1
        if line is None:
            return 0
        if not line.strip():
            continue
        _send(out, server.handle(conn, line))
        if conn.closing:
            return 1


def _send(out: TextIO, messages: list[dict[str, Any]]) -> None:
    for m in messages:
        out.write(json.dumps(m, separators=(",", ":")) + "\n")
    out.flush()
