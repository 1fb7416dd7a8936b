"""The audit log: one JSON line per tool call or resource read, append-only.

Written by one server middleware (``AuditMiddleware``), so every tool, present and future, is
audited the same way. HTTP requests refused before they reach MCP (bad or missing token, wrong
Host, body too large) are written too, by ``http.RejectionAudit``. Read it with ``read_audit`` or
``docshelf audit``; ``docshelf web`` shows it to investigators.

Every record has an ``id``, and every MCP result carries the same id as ``call_id`` (in
``structuredContent`` and in ``_meta``; not in the text content, which is what a model reads), so
an answer that cites the shelf can name the calls it relied on.

Operations: the log is reopened when its file is renamed or removed under it (logrotate's
``create`` mode; checked before every write) and on SIGHUP (a ``postrotate`` script); a
``copytruncate`` rotation needs nothing, since every write appends at the current end. The path
``-`` writes the records to standard output instead (a container's log collector), for the HTTP
transport only: on stdio, standard output is the protocol.

Schema (UTF-8, one JSON object per line, every key always present):

===============  ===============  ==============================================================
key              type             meaning
===============  ===============  ==============================================================
``id``           str              the call id: 12 hex digits of milliseconds since 1970 and 8
                                  random hex digits (``0193a4b5c6d7-9f3b1c0d``); sorts by start
``ts``           str              UTC time the call finished, ISO 8601 ``2026-11-30T12:00:00.000000Z``
``client``       str              who: the token's client name over HTTP; ``anonymous`` on HTTP
                                  without tokens (loopback only); the OS user on stdio
``client_info``  obj | null       ``{"name", "version"}`` the MCP client declared about itself
``transport``    str              ``http`` or ``stdio`` (stdio also covers in-process clients)
``peer``         str | null       remote ``host:port`` over HTTP
``method``       str              ``tools/call``, ``resources/read``, or ``http`` for a refused request
``tool``         str | null       the tool name for ``tools/call``
``arguments``    obj              the call's arguments minus ``_meta``; ``{"uri"}`` for a resource;
                                  ``{"path"}`` for a refused HTTP request. Strings over 4096
                                  characters are cut and end with ``…[+N chars, sha256=…]``
``commit``       str | null       full sha the answer was read from (null if none was resolved)
``paths``        list[str]        shelf paths returned
``verdict``      str | null       ``verify_quote``'s verdict when the result has one
``bytes_out``    int              size of the JSON result sent back (UTF-8 bytes; 0 on a protocol error)
``duration_ms``  float            server time for the call
``outcome``      str              ``ok``; ``tool_error`` (an ``is_error`` result the model reads);
                                  ``error:<ExceptionType>`` (a protocol error, e.g. ``error:MCPError``);
                                  ``http_<status>`` for a refused HTTP request
``error``        str | null       the error text the client got, first 500 characters
===============  ===============  ==============================================================

A failed write raises, so the call fails too: nothing is answered that is not audited.
"""

from __future__ import annotations

import contextvars
import getpass
import hashlib
import json
import os
import re
import secrets
import signal
import sys
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from pydantic import BaseModel

from docshelf.errors import ServeError

AUDITED = ("tools/call", "resources/read")
MAX_ARG_CHARS = 4096
MAX_ERROR_CHARS = 500
STDOUT = "-"  # the audit path that means standard output
CALL_ID = re.compile(r"^[0-9a-f]{12}-[0-9a-f]{8}$")
META_KEY = "docshelf/call_id"
# Characters some readers take for a line break (str.splitlines, JavaScript, editors) that JSON
# leaves raw: escaped so that one record is always one line to every reader.
_LINE_BREAKS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_CURRENT: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("docshelf_audit", default=None)


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_call_id() -> str:
    """A fresh call id: the time in milliseconds (so ids sort by when calls started) and 32 random bits."""
    return f"{time.time_ns() // 1_000_000:012x}-{secrets.token_hex(4)}"


def current_call_id() -> str | None:
    """The id of the audited call running in this context, if any."""
    record = _CURRENT.get()
    return None if record is None else str(record["id"])


def note(*, commit: str | None = None, paths: list[str] | None = None) -> None:
    """Record facts of the current call (its commit, the paths it read) for its audit line.

    Tools call this as soon as they know the commit, so a call that fails afterwards is still
    logged with the commit it was reading. Outside an audited call it does nothing.
    """
    record = _CURRENT.get()
    if record is None:
        return
    if commit is not None:
        record["commit"] = commit
    if paths is not None:
        record["paths"] = paths


class AuditLog:
    """An append-only JSON-lines file (or standard output for ``-``); ``write`` is safe from any thread or task.

    As a context manager entered in the main thread it also reopens the file on SIGHUP, and puts
    back the previous handler on exit.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.to_stdout = str(path) == STDOUT
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._ino: tuple[int, int] | None = None
        self._previous_hup: Any = None
        self._hup_installed = False
        self._open()

    def _open(self) -> None:
        if self.to_stdout:
            self._fd, self._ino = os.dup(sys.stdout.fileno()), None
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # O_APPEND: each line lands at the end even with several writers (threads or replicas).
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as exc:
            raise ServeError(
                f"Cannot open the audit log {self.path}: {exc.strerror}. Pass a writable --audit-log."
            ) from exc
        st = os.fstat(fd)
        self._fd, self._ino = fd, (st.st_dev, st.st_ino)

    def _moved(self) -> bool:
        """True when the path no longer names the open file (renamed or removed by a log rotation)."""
        if self._ino is None:
            return False
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return True
        return (st.st_dev, st.st_ino) != self._ino

    def file_id(self) -> tuple[int, int] | None:
        """(device, inode) of the file being written; None for standard output or when closed."""
        with self._lock:
            return self._ino if self._fd is not None else None

    def reopen(self) -> None:
        """Close and open the path again: after a rotation, writes go to the new file."""
        with self._lock:
            if self._fd is None:
                return
            os.close(self._fd)
            self._fd = None
            self._open()

    def write(self, record: Mapping[str, Any]) -> str:
        """Append one record (given an ``id`` first if it has none); returns the record's id."""
        call_id = str(record.get("id") or new_call_id())
        line = json.dumps({**record, "id": call_id}, ensure_ascii=False, separators=(",", ":"), default=str)
        for char, escaped in _LINE_BREAKS.items():
            line = line.replace(char, escaped)
        data = (line + "\n").encode("utf-8")
        with self._lock:
            if self._fd is None:
                raise ServeError(f"The audit log {self.path} is closed.")
            if self._moved():
                os.close(self._fd)
                self._fd = None
                self._open()
            fd = self._fd
            assert fd is not None  # _open sets it or raises
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        return call_id

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None

    def _on_hup(self, _signum: int, _frame: Any) -> None:
        # A signal handler runs between bytecodes of the main thread, maybe inside ``write``
        # holding the lock: reopen from another thread so it waits for that write to finish.
        threading.Thread(target=self.reopen, name="audit-reopen", daemon=True).start()

    def __enter__(self) -> AuditLog:
        if hasattr(signal, "SIGHUP") and threading.current_thread() is threading.main_thread():
            self._previous_hup = signal.signal(signal.SIGHUP, self._on_hup)
            self._hup_installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._hup_installed:
            signal.signal(signal.SIGHUP, self._previous_hup)
            self._hup_installed = False
        self.close()


def clip(value: Any) -> Any:
    """Arguments as logged: long strings cut (with their length and hash), nested values clipped too."""
    if isinstance(value, str) and len(value) > MAX_ARG_CHARS:
        digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
        return f"{value[:MAX_ARG_CHARS]}…[+{len(value) - MAX_ARG_CHARS} chars, sha256={digest}]"
    if isinstance(value, Mapping):
        return {str(k): clip(v) for k, v in value.items() if k != "_meta"}
    if isinstance(value, list):
        return [clip(v) for v in value]
    return value


def _paths(value: Any) -> list[str]:
    """Every shelf path named in a structured result (``path`` keys at any depth, ``found_in``)."""
    found: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in ("path", "found_in") and isinstance(item, str) and item:
                found.append(item)
            else:
                found.extend(_paths(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_paths(item))
    return list(dict.fromkeys(found))


def _client_info(ctx: ServerRequestContext[Any, Any]) -> dict[str, str] | None:
    params = ctx.session.client_params if ctx.session is not None else None
    if params is None:
        return None
    return {"name": params.client_info.name, "version": params.client_info.version}


class AuditMiddleware:
    """Server middleware writing one audit line per ``tools/call`` and ``resources/read``."""

    def __init__(self, log: AuditLog, *, stdio_user: str | None = None) -> None:
        self.log = log
        self.stdio_user = stdio_user or _os_user()

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method not in AUDITED or ctx.request_id is None:
            return await call_next(ctx)
        record = self._start(ctx)
        token = _CURRENT.set(record)
        t0 = time.perf_counter()
        try:
            result = await call_next(ctx)
        except Exception as exc:
            record.update(outcome=f"error:{type(exc).__name__}", error=str(exc)[:MAX_ERROR_CHARS])
            raise
        else:
            return self._finish(record, result)
        finally:
            _CURRENT.reset(token)
            record["duration_ms"] = round((time.perf_counter() - t0) * 1000, 3)
            record["ts"] = utc_now()
            self.log.write(record)

    def _start(self, ctx: ServerRequestContext[Any, Any]) -> dict[str, Any]:
        params = dict(ctx.params or {})
        request = ctx.request
        http = request is not None and hasattr(request, "headers")
        access = get_access_token()
        peer = getattr(request, "client", None) if http else None
        return {
            "id": new_call_id(),
            "ts": None,
            "client": access.client_id if access else ("anonymous" if http else self.stdio_user),
            "client_info": _client_info(ctx),
            "transport": "http" if http else "stdio",
            "peer": f"{peer.host}:{peer.port}" if peer else None,
            "method": ctx.method,
            "tool": params.get("name") if ctx.method == "tools/call" else None,
            "arguments": clip(params.get("arguments") or {}) if ctx.method == "tools/call" else clip(params),
            "commit": None,
            "paths": [],
            "verdict": None,
            "bytes_out": 0,
            "duration_ms": 0.0,
            "outcome": "ok",
            "error": None,
        }

    def _finish(self, record: dict[str, Any], result: HandlerResult) -> HandlerResult:
        """Fill the record from the result and return the result stamped with the call id."""
        wire = (
            result.model_dump(mode="json", by_alias=True, exclude_none=True)
            if isinstance(result, BaseModel)
            else result
        )
        wire = stamp(wire or {}, record["id"], tool=record["method"] == "tools/call")
        record["bytes_out"] = len(json.dumps(wire, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
        structured = wire.get("structuredContent")
        if isinstance(structured, Mapping):
            record["commit"] = structured.get("commit") or record["commit"]
            record["paths"] = _paths(structured)
            record["verdict"] = structured.get("verdict")
        if wire.get("isError"):
            content = wire.get("content") or [{}]
            record.update(outcome="tool_error", error=str(content[0].get("text", ""))[:MAX_ERROR_CHARS])
        return wire


def stamp(wire: dict[str, Any], call_id: str, *, tool: bool) -> dict[str, Any]:
    """A result (wire form) carrying ``call_id``: in ``_meta`` always; for a tool also in its structured
    content. Never in the text a model reads: bookkeeping there is noise in its context."""
    out = {**wire, "_meta": {**(wire.get("_meta") or {}), META_KEY: call_id}}
    if tool and isinstance(out.get("structuredContent"), Mapping):
        out["structuredContent"] = {**out["structuredContent"], "call_id": call_id}
    return out


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry (containers with an arbitrary uid)
        return f"uid:{os.getuid()}"


_RELATIVE = re.compile(r"^(\d+)([smhdw])$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(text: str, *, now: datetime | None = None) -> datetime:
    """A moment: ``2026-11-30``, ``2026-11-30T10:00`` (UTC unless an offset is given), or ``15m``/``2h``/``7d`` ago."""
    text = text.strip()
    match = _RELATIVE.match(text)
    if match:
        return (now or datetime.now(UTC)) - timedelta(**{_UNITS[match[2]]: int(match[1])})
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ServeError(f"Cannot read --since {text!r}. Use 2026-11-30, 2026-11-30T10:00 or 15m / 2h / 7d.") from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def read_audit(path: Path, since: datetime | str | None = None, client: str | None = None) -> list[dict[str, Any]]:
    """The audit records at or after ``since`` (a datetime or ``parse_since`` text) made by ``client``, oldest first."""
    try:
        found = path.is_file()
    except OSError as exc:  # a name too long for the file system
        raise ServeError(f"Cannot read the audit log {str(path)[:80]}…: {exc.strerror}. Pass --log FILE.") from exc
    if not found:
        raise ServeError(f"No audit log at {path}. Pass --log FILE (serve writes <shelf>/.docshelf/audit.jsonl).")
    start = parse_since(since) if isinstance(since, str) else since
    out = []
    try:
        with path.open(encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    record: dict[str, Any] = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ServeError(f"{path}:{number} is not a JSON audit record ({exc.msg}).") from exc
                if client is not None and record.get("client") != client:
                    continue
                if start is not None and datetime.fromisoformat(str(record["ts"]).replace("Z", "+00:00")) < start:
                    continue
                out.append(record)
    except UnicodeDecodeError as exc:
        raise ServeError(
            f"{path} is not a text audit log (not UTF-8 at byte {exc.start}); pass the file serve writes."
        ) from exc
    except OSError as exc:
        raise ServeError(f"Cannot read the audit log {path}: {exc.strerror}. Check its permissions.") from exc
    return out
