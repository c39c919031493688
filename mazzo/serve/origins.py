"""Who may drive the local server from a browser: the ``Origin`` and ``Host`` checks of the
WebSocket and HTTP API (an ASGI middleware around the app of ``mazzo.serve.web``).

A page the user happens to visit can open ``ws://127.0.0.1:8765/ws`` from any site; browsers
send its ``Origin``. The server lets in:

- requests without ``Origin`` (programs: every client library, curl, the stdio bridge);
- the same origin: ``Origin``'s host and port are the request's ``Host`` (the web table the
  server itself serves);
- the origins given with ``mazzo serve --allow-origin ORIGIN`` (exact ``scheme://host[:port]``,
  or ``*`` for any).

Everything else is refused before the protocol starts: a WebSocket handshake gets HTTP 403, an
API request a 403 JSON error (``bad_origin``). And when the server listens on a loopback
address, the ``Host`` header must name a loopback host (``localhost``, ``127.0.0.1``, ``[::1]``)
or an allowed origin's host: a DNS-rebinding page, whose requests carry its own domain in
``Host``, is refused the same way. Static files are served to anyone (they hold nothing
private).
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, MutableMapping, Sequence
from typing import Any
from urllib.parse import urlsplit

__all__ = ["OriginGuard", "check_origin_option", "is_loopback"]

log = logging.getLogger("mazzo.serve")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_NAMES = ("localhost",)
GUARDED = ("/ws", "/api/")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is loopback."""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_origin_option(text: str) -> str:
    """An ``--allow-origin`` value: ``*`` or ``scheme://host[:port]``. Raises ValueError naming
    it and what is allowed."""
    if text == "*":
        return text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        raise ValueError(
            f"--allow-origin {text!r}: expected an origin such as http://localhost:3000 "
            "(scheme://host[:port], no path) or *"
        )
    return f"{parts.scheme}://{parts.netloc}".lower()


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _host_name(host_header: str) -> str:
    """The host of a ``Host`` header (``[::1]:8765`` -> ``::1``, ``localhost:8765`` ->
    ``localhost``)."""
    return (urlsplit(f"//{host_header}").hostname or "").lower()


class OriginGuard:
    """Refuses cross-origin and rebound requests to ``paths`` of ``app`` (see the module)."""

    def __init__(
        self, app: ASGIApp, allowed: Iterable[str] = (), loopback_only: bool = True,
        paths: Sequence[str] = GUARDED,
    ) -> None:  # fmt: skip
        self.app = app
        self.allowed = {check_origin_option(o) for o in allowed}
        self.loopback_only = loopback_only
        self.paths = tuple(paths)
        self.allowed_hosts = {
            (urlsplit(o).hostname or "").lower() for o in self.allowed if o != "*"
        }

    def refusal(self, scope: Scope) -> str | None:
        """Why the request ``scope`` is refused, or None to let it in."""
        host = _header(scope, b"host") or ""
        if self.loopback_only and "*" not in self.allowed:
            name = _host_name(host)
            if not (is_loopback(name) or name in self.allowed_hosts):
                return f"Host {host!r} is not this local server (a DNS-rebinding page?)"
        origin = _header(scope, b"origin")
        if origin is None:
            return None
        if "*" in self.allowed or origin.lower() in self.allowed:
            return None
        parts = urlsplit(origin)
        if parts.netloc and parts.netloc.lower() == host.lower():
            return None  # the same origin: the page this server serves
        return (
            f"Origin {origin!r} may not use this server (same origin only; "
            "mazzo serve --allow-origin ORIGIN lets one in)"
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind, path = scope.get("type"), scope.get("path", "")
        guarded = kind in ("http", "websocket") and any(
            path == p or (p.endswith("/") and path.startswith(p)) for p in self.paths
        )
        reason = self.refusal(scope) if guarded else None
        if reason is None:
            await self.app(scope, receive, send)
            return
        log.warning("refused %s %s: %s", kind, path, reason)
        if kind == "websocket":  # closing before accept: the handshake is answered 403
            await send({"type": "websocket.close", "code": 1008})
            return
        body = json.dumps({"type": "error", "code": "bad_origin", "message": reason}).encode()
        await send({
            "type": "http.response.start", "status": 403,
            "headers": [(b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode())],
        })  # fmt: skip
        await send({"type": "http.response.body", "body": body})
