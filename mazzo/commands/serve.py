"""``mazzo serve``: serve the server's bots over the bot protocol ``mazzo-bot/1``
(``docs/protocol.md``), on stdin/stdout (``--stdio``, the default) or over WebSocket and HTTP
(``--port N``), with the web page (``--web``) when it is installed.
"""

from __future__ import annotations

import argparse
import errno
import logging
import signal
import socket
import sys
from typing import Any

from mazzo.commands.options import add_foreign_rules_option, description
from mazzo.extras import require

__all__ = ["add", "cmd_serve"]

DEFAULT_PORT = 8765


def cmd_serve(args: argparse.Namespace) -> int:
    """Start the server the options describe; returns the exit status."""
    if args.port is not None or args.web:
        require("serve", "serve")  # the web server; --stdio needs no extra
    from mazzo.serve.bots import Bots, default_bots, parse_bot_option
    from mazzo.serve.protocol import Limits
    from mazzo.serve.server import Server

    if args.web:
        from mazzo.serve import web

        if not web.STATIC.is_dir():
            raise ValueError(f"--web: the web page is not installed ({web.STATIC} is missing)")
    if args.workers < 1:
        raise ValueError(f"--workers must be at least 1, got {args.workers}")
    logging.basicConfig(
        level=args.log_level.upper(), stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )  # fmt: skip
    limits = Limits(
        max_bytes=args.max_bytes, max_games=args.max_games,
        max_server_games=args.max_server_games, max_connections=args.max_connections,
        idle_timeout=args.idle_timeout,
    )  # fmt: skip
    given = args.bot or default_bots()
    if args.port is not None or args.web:  # the bots' networks take seconds to load: say so
        print(f"mazzo serve: loading the bots ({', '.join(given)})...", file=sys.stderr, flush=True)
    bots = Bots(
        [parse_bot_option(b) for b in given], skip_missing=not args.bot,
        foreign_rules=args.foreign_rules,
    )  # fmt: skip
    server = Server(bots, limits)
    if args.port is None and not args.web:
        from mazzo.serve.stdio import run_stdio

        return run_stdio(server, sys.stdin.fileno(), sys.stdout)
    return _serve_web(server, args)


def _serve_web(server: Any, args: argparse.Namespace) -> int:
    import uvicorn

    from mazzo.serve.origins import check_origin_option, is_loopback
    from mazzo.serve.web import STATIC, make_app, ws_max_size

    origins = [check_origin_option(o) for o in args.allow_origin]
    app = make_app(
        server, args.workers, STATIC if args.web else None, origins, is_loopback(args.host)
    )
    port = DEFAULT_PORT if args.port is None else args.port
    sock = _listen(args.host, port)  # before the announcement: a port in use is said at once
    where = f"{args.host}:{port}"
    if args.web:  # the address a person opens first
        said = (
            f"the web table is at http://{where}/ (open it in a browser); bots at ws://{where}/ws"
        )
    else:
        said = f"ws://{where}/ws (the bot protocol; also over HTTP at http://{where}/api/)"
    config = uvicorn.Config(app, log_level=args.log_level.lower(), ws_max_size=ws_max_size(server))
    web = uvicorn.Server(config)
    # Ctrl-C has one path from the announcement on, wherever it falls: noted, handed to
    # uvicorn's graceful shutdown, then said as KeyboardInterrupt (exit 130) once the server
    # has stopped. uvicorn installs its own handler while it serves, puts this one back and
    # re-raises the signal it caught into it; asyncio's own SIGINT handler stays out (it
    # installs itself only over Python's default one).
    interrupted: list[int] = []

    def on_sigint(sig: int, frame: Any) -> None:
        interrupted.append(sig)
        web.handle_exit(sig, frame)

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        print(f"mazzo serve: {said}", file=sys.stderr, flush=True)
        web.run(sockets=[sock])
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port``. Raises ValueError naming both and the reason."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as e:
        raise ValueError(f"--host {host!r}: cannot listen there ({e})") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as e:
        sock.close()
        why = "it is in use" if e.errno == errno.EADDRINUSE else e.strerror or str(e)
        raise ValueError(f"--port {port}: cannot listen on {host}:{port}: {why}") from None
    return sock


def _port(text: str) -> int:
    """``--port``: a TCP port 1..65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: not a port number (1..65535)") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: a port is 1..65535")
    return port


def add(sub: Any) -> None:
    """Add the ``serve`` subcommand to the CLI's subparsers."""
    p = sub.add_parser(
        "serve",
        help="serve bots over the bot protocol mazzo-bot/1 (stdio or WebSocket)",
        description=description(__doc__)
        + " Bots are chosen by name; the defaults are random, heuristic and the shipped bot.",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--stdio", action="store_true", help="one client on stdin/stdout (default)")
    where.add_argument(
        "--port", type=_port, help="WebSocket /ws and HTTP /api on this port (1..65535)"
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--web", action="store_true",
        help=f"also serve the web page at / (port {DEFAULT_PORT} unless --port)",
    )  # fmt: skip
    p.add_argument(
        "--bot", action="append", default=[], metavar="[GAME/]NAME=SPEC",
        help="a bot clients may choose, e.g. --bot pimc=pimc:samples=16, for every game that "
        "has the agent or for GAME only (repeatable; default: random, heuristic, bot)",
    )  # fmt: skip
    p.add_argument("--max-bytes", type=int, default=65536, help="longest message (bytes)")
    p.add_argument("--max-games", type=int, default=16, help="open games per connection")
    p.add_argument("--max-server-games", type=int, default=256, help="open games in all")
    p.add_argument("--max-connections", type=int, default=64, help="open connections")
    p.add_argument(
        "--idle-timeout", type=float, default=300.0, help="seconds a client may stay silent"
    )
    add_foreign_rules_option(p)
    p.add_argument(
        "--allow-origin", action="append", default=[], metavar="ORIGIN",
        help="a web origin (scheme://host[:port], or *) whose pages may use the WebSocket and "
        "the API (default: programs and this server's own page only; see docs/protocol.md)",
    )  # fmt: skip
    p.add_argument("--workers", type=int, default=8, help="threads that run the bots")
    p.add_argument(
        "--log-level", default="info", choices=["debug", "info", "warning", "error"],
        help="log level (the log goes to stderr)",
    )  # fmt: skip
    p.set_defaults(func=cmd_serve)
