"""The WebSocket and HTTP transport of the bot protocol: a Starlette app, run by uvicorn.

- ``/ws``: one connection per WebSocket, one JSON message per text frame. Messages are handled
  in a thread pool (a bot that thinks for tens of milliseconds never stalls another
  connection), one at a time per connection, the replies sent in order. A frame over
  ``max_bytes`` gets ``too_big`` and the socket is closed; so is a socket silent for the idle
  timeout (``timeout``) and one over the connection limit (``too_many_connections``). A client
  that vanishes has its sessions dropped.
- ``GET /api/hello``, ``GET /api/bots``: the ``hello`` and ``bots`` replies.
- ``POST /api/move``: one bot's move for a D.3 record so far (``advice``), stateless.
- ``/``: the static web page of ``mazzo/serve/static/``, when asked for (``--web``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from mazzo.envs.cards.jsontext import loads
from mazzo.serve.advice import advise
from mazzo.serve.origins import OriginGuard
from mazzo.serve.protocol import ProtocolError, error
from mazzo.serve.server import Server

__all__ = ["STATIC", "make_app", "ws_max_size"]

log = logging.getLogger("mazzo.serve")
STATIC = Path(__file__).resolve().parent / "static"
_CLOSE_POLICY = 1008  # WebSocket close codes: policy violation, message too big, try again later
_CLOSE_TOO_BIG = 1009
_CLOSE_BUSY = 1013
_CLOSE_FOR = {"too_big": _CLOSE_TOO_BIG, "too_many_connections": _CLOSE_BUSY}


def ws_max_size(server: Server) -> int:
    """The frame size uvicorn accepts: above ``max_bytes``, so that an oversized message gets a
    ``too_big`` answer before the close (a frame over this is cut by uvicorn with 1009)."""
    return max(4 * server.limits.max_bytes, 1 << 20)


def make_app(
    server: Server, workers: int = 8, static: Path | None = None,
    allow_origins: Sequence[str] = (), loopback_only: bool = True,
) -> Starlette:  # fmt: skip
    """The app serving ``server``; ``static``: a folder of web files served at ``/``.

    The WebSocket and the API let in programs (no ``Origin``), the same origin and
    ``allow_origins``; with ``loopback_only`` (a server on a loopback address) the ``Host``
    must be a loopback name too (``mazzo.serve.origins``)."""
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mazzo-serve")

    async def run(fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        peer = f"{ws.client.host}:{ws.client.port}" if ws.client else "websocket"
        try:
            conn = server.connect(peer)
        except ProtocolError as e:
            await _send(ws, [e.to_json()])
            await ws.close(_CLOSE_BUSY)
            return
        reason = "client left"
        try:
            while True:
                try:
                    frame = await asyncio.wait_for(ws.receive(), server.limits.idle_timeout)
                except TimeoutError:
                    await _send(ws, [server.idle_error(conn)])
                    await ws.close(_CLOSE_POLICY)
                    reason = "idle timeout"
                    return
                if frame["type"] == "websocket.disconnect":
                    return
                data = frame.get("text")
                if data is None:
                    data = frame.get("bytes") or b""
                out = await run(server.handle, conn, data)
                await _send(ws, out)
                if conn.closing:
                    reason = conn.closing
                    await ws.close(_CLOSE_FOR.get(conn.closing, _CLOSE_POLICY))
                    return
        except (WebSocketDisconnect, RuntimeError, OSError) as e:
            reason = f"client left ({type(e).__name__})"
        finally:
            server.disconnect(conn, reason)

    async def hello(request: Request) -> Response:
        return JSONResponse(server.hello())

    async def bots(request: Request) -> Response:
        return JSONResponse({"type": "bots", "bots": server.bots.describe()})

    async def move(request: Request) -> Response:
        try:
            body = await _limited_body(request, server.limits.max_bytes)
            try:
                parsed = loads(body)
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                raise ProtocolError("bad_json", f"the request is not valid JSON: {e}") from None
            answer = await run(advise, parsed, server.bots)
        except ProtocolError as e:
            log.info("POST /api/move: %s: %s", e.code, e.message)
            return JSONResponse(e.to_json(), status_code=413 if e.code == "too_big" else 400)
        except Exception:
            log.exception("POST /api/move: internal error")
            return JSONResponse(error("internal", "internal error (logged)"), status_code=500)
        if isinstance(parsed, dict) and "id" in parsed:
            answer["id"] = parsed["id"]
        return JSONResponse(answer)

    routes: list[Any] = [
        WebSocketRoute("/ws", ws_endpoint),
        Route("/api/hello", hello),
        Route("/api/bots", bots),
        Route("/api/move", move, methods=["POST"]),
    ]
    if static is not None:
        routes.append(Mount("/", app=_Revalidated(directory=static, html=True), name="web"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        pool.shutdown(wait=False, cancel_futures=True)

    guard = Middleware(OriginGuard, allowed=allow_origins, loopback_only=loopback_only)
    return Starlette(routes=routes, lifespan=lifespan, middleware=[guard])


async def _send(ws: WebSocket, messages: list[dict[str, Any]]) -> None:
    for m in messages:
        await ws.send_text(json.dumps(m, separators=(",", ":")))


async def _limited_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (``too_big``) as soon as it is known to be over ``limit``
    bytes: from its ``Content-Length`` before anything is read, else while it streams in, so
    a huge body never sits in memory."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ProtocolError(
            "too_big", f"a request of {declared} bytes is over the limit of {limit} bytes"
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ProtocolError(
                "too_big", f"a request of over {limit} bytes is over the limit of {limit} bytes"
            )
        chunks.append(chunk)
    return b"".join(chunks)


class _Revalidated(StaticFiles):
    """The web table's files, each answered with ``Cache-Control: no-cache``: a browser keeps
    them but asks again (a 304 when unchanged), so a page never runs the scripts of an older
    mazzo after an upgrade."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response
