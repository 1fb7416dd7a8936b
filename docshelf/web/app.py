"""``create_web_app``: the investigator's desk as a Starlette app (read-only; nothing is written).

URLs are part of the contract, so links can be pasted into reports:

* ``/`` the audit records, newest first, filtered (client, tool, document, dates, verdict), paged
* ``/call/<call_id>`` one record, its result read again from Git at its commit
  (``/call/<call_id>/export?format=html|json`` a self-contained copy for a case file)
* ``/diff?from=<commit>&to=<ref>&doc=<id>[&call=<call_id>]`` clause by clause, the call's quotes re-checked
* ``/at/<commit>/<path>[?clause=…][#<clause anchor>]`` a section at a commit, clauses marked
* ``/doc/<id>`` a document's history: commits, editions, statuses
* ``/check`` the answer check: quotes with references, checked at one commit (exportable)

The fence is the MCP server's: the same Host/Origin allow-list (421 / 403), loopback unless
``--tokens``, and then a login with the same tokens (a session cookie, or ``Authorization:
Bearer``), re-checked on every request so a revoked token stops working at once.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from mcp.server.transport_security import RequestBodyLimitMiddleware, TransportSecurityMiddleware
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from docshelf.errors import DocShelfError, ServeError
from docshelf.server.auth import TokenFileVerifier, role_of
from docshelf.server.httpapp import LOOPBACK_NAMES, is_loopback, transport_security
from docshelf.server.pin import ReadableRefs, check_pattern
from docshelf.web import casefile, pages
from docshelf.web.auditindex import AuditIndex, Filters
from docshelf.web.casefile import Desk
from docshelf.web.html import css_text, esc, frame, url

SESSION_COOKIE = "docshelf_session"
_DESK_LINK = re.compile(r'<a href="/[^"]*">(.*?)</a>', re.S)  # a link to another desk page (not «#anchor»)
SESSION_SECONDS = 12 * 3600
MAX_SESSIONS = 1024
MAX_FORM_BYTES = 1 << 20  # an answer check's quotes: far more than one answer holds
PUBLIC = ("/login", "/static/desk.css")
# Pages load nothing but this server's stylesheet, run no script and may not be framed by another site.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # no-referrer would make form posts send «Origin: null»
]


class Sessions:
    """Login sessions: a random cookie value → the token it was opened with (checked again on each request).

    A session ends after ``max_age_s`` (a working day by default) or when ``max_sessions`` newer
    ones exist; the oldest goes first.
    """

    def __init__(self, max_age_s: float = SESSION_SECONDS, max_sessions: int = MAX_SESSIONS) -> None:
        self.max_age_s, self.max_sessions = max_age_s, max_sessions
        self._lock = threading.Lock()
        self._open: OrderedDict[str, tuple[str, float]] = OrderedDict()

    def open(self, token: str) -> str:
        sid = secrets.token_urlsafe(32)
        with self._lock:
            self._open[sid] = (token, time.monotonic())
            while len(self._open) > self.max_sessions:
                self._open.popitem(last=False)
        return sid

    def token(self, sid: str) -> str | None:
        with self._lock:
            found = self._open.get(sid)
            if found is None:
                return None
            if time.monotonic() - found[1] >= self.max_age_s:
                del self._open[sid]
                return None
            return found[0]

    def close(self, sid: str) -> None:
        with self._lock:
            self._open.pop(sid, None)


class Fence:
    """ASGI middleware: Host/Origin allow-list first (as ``/mcp``), then the login when tokens are set."""

    def __init__(
        self, app: ASGIApp, hosts: Sequence[str], verifier: TokenFileVerifier | None, sessions: Sessions
    ) -> None:
        self.app, self.verifier, self.sessions = app, verifier, sessions
        self.security = TransportSecurityMiddleware(transport_security(hosts))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refused = await self.security.validate_request(request, is_post=False)
        if refused is not None:
            await refused(scope, receive, send)
            return
        user, role, refusal = await self._user(request)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        scope.setdefault("state", {}).update(user=user, role=role)
        await self.app(scope, receive, self._headed(send))

    @staticmethod
    def _headed(send: Send) -> Send:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        return with_headers

    async def _user(self, request: Request) -> tuple[str | None, str | None, Response | None]:
        """Who asks and in which role; without --tokens (loopback only) the operator, who reads everything."""
        if self.verifier is None:
            return None, None, None
        header = request.headers.get("authorization")
        if header is not None:
            scheme, _, bearer = header.partition(" ")
            access = await self.verifier.verify_token(bearer.strip()) if scheme.lower() == "bearer" else None
            if access is None:
                return (
                    None,
                    None,
                    PlainTextResponse("Invalid token.", 401, {"WWW-Authenticate": 'Bearer error="invalid_token"'}),
                )
            return access.client_id, role_of(access), None
        token = self.sessions.token(request.cookies.get(SESSION_COOKIE, ""))
        access = await self.verifier.verify_token(token) if token else None
        if access is not None:
            return access.client_id, role_of(access), None
        if request.url.path in PUBLIC:
            return None, None, None
        if request.method == "GET":
            return None, None, RedirectResponse(url("/login", next=request.url.path), 303)
        return None, None, PlainTextResponse("Log in first: /login.", 401)


def _user(request: Request) -> str | None:
    user: str | None = request.scope.get("state", {}).get("user")
    return user


def _own_calls_only(request: Request) -> str | None:
    """The client whose calls alone this request may see: a ``client`` token's own name; None for the
    desk's investigators and admins (and the operator of a loopback desk without tokens)."""
    return _user(request) if request.scope.get("state", {}).get("role") == "client" else None


def _visible(request: Request, record: dict[str, Any]) -> dict[str, Any]:
    """A call record, or «no such call» to a client token asking for another client's call (not a 403:
    it must not learn which call ids exist)."""
    own = _own_calls_only(request)
    if own is not None and record.get("client") != own:
        raise ServeError(f"No audit record with id {record.get('id')!r} among your calls. Your calls are listed at /.")
    return record


def _behind_tls(request: Request) -> bool:
    """Whether the browser reached the desk over TLS: directly, through a proxy that says so, or at any name
    but loopback (the desk is only ever published behind a TLS proxy). Its cookie is then ``Secure``."""
    if request.url.scheme == "https" or request.headers.get("x-forwarded-proto", "").lower() == "https":
        return True
    return not is_loopback(request.url.hostname or "")


def _page(request: Request, title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(frame(title, body, user=_user(request)), status)


def _error(request: Request, exc: DocShelfError | ValueError, status: int = 404) -> HTMLResponse:
    return _page(
        request, "Not found" if status == 404 else "Cannot show this", f'<p class="warning">{esc(exc)}</p>', status
    )


def _download(content: str, name: str, media: str) -> Response:
    return Response(content, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def _routes(desk: Desk, verifier: TokenFileVerifier | None, sessions: Sessions) -> list[Route]:
    Handler = Callable[[Request], Response]

    def guarded(handler: Handler) -> Handler:
        def run(request: Request) -> Response:
            try:
                return handler(request)
            except DocShelfError as exc:
                return _error(request, exc)

        return run

    def index(request: Request) -> Response:
        q = request.query_params
        filters = Filters(**{k: q.get(k, "").strip() for k in ("client", "tool", "doc", "verdict", "since", "until")})
        own = _own_calls_only(request)
        if own is not None:
            filters = replace(filters, client=own)  # a client's token reads its own calls, whatever it asks
        number = int(q["page"]) if q.get("page", "").isdigit() else 1
        page = desk.audit.page(filters, number)
        records = desk.audit.records(page.entries)
        menus = {f: desk.audit.values(f) for f in ("client", "tool", "verdict")}
        if own is not None:
            menus["client"] = [own]
        body = pages.audit_list(page, records, filters, menus)
        if desk.audit.unreadable:
            body = f'<p class="warning">{desk.audit.unreadable} line(s) of the log are not JSON records.</p>' + body
        if not desk.audit.path.is_file():
            body = (
                f'<p class="warning">No audit log at {esc(desk.audit.path)} yet: `docshelf serve` writes it with the '
                "first call, or pass --audit-log FILE.</p>" + body
            )
        return _page(request, "Audit log", body)

    def lookup(request: Request) -> Response:
        call_id = request.query_params.get("id", "").strip()
        return RedirectResponse(url(f"/call/{call_id}") if call_id else "/", 303)

    def call(request: Request) -> Response:
        record = _visible(request, casefile.record_of(desk, request.path_params["call_id"]))
        return _page(request, f"Call {record['id']}", casefile.call_body(desk, record))

    def export(request: Request) -> Response:
        record = _visible(request, casefile.record_of(desk, request.path_params["call_id"]))
        if request.query_params.get("format") == "json":
            return _download(casefile.call_json(desk, record), f"call-{record['id']}.json", "application/json")
        html = frame(f"Call {record['id']}", casefile.call_body(desk, record), nav=False, inline_css=True)
        # Opened from a case file, «/at/…» would be file:///at/…, a dead link: the text stays, the link goes.
        html = _DESK_LINK.sub(r"<span>\1</span>", html)
        return _download(html, f"call-{record['id']}.html", "text/html; charset=utf-8")

    def diff(request: Request) -> Response:
        q = request.query_params
        title, body = casefile.diff_page(
            desk, q.get("from", ""), q.get("to", "") or desk.today, q.get("doc"), q.get("call")
        )
        return _page(request, title, body)

    def at(request: Request) -> Response:
        commit, path = request.path_params["commit"], request.path_params["path"]
        title, body = casefile.at_page(desk, commit, path, request.query_params.get("clause", ""))
        return _page(request, title, body)

    def doc(request: Request) -> Response:
        doc_id = request.path_params["doc_id"]
        return _page(request, f"{doc_id}: history", casefile.doc_page(desk, doc_id))

    async def check(request: Request) -> Response:
        form = await request.form() if request.method == "POST" else None
        items_text = str(form.get("items", "")) if form is not None else ""
        commit = str(form.get("at", "")) if form is not None else ""
        fmt = str(form.get("format", "page")) if form is not None else "page"
        out = await run_in_threadpool(casefile.check_response, desk, form is not None, items_text, commit, fmt)
        if isinstance(out, Response):
            return out
        title, body, status = out
        return _page(request, title, body, status)

    async def login(request: Request) -> Response:
        if verifier is None:
            return RedirectResponse("/", 303)
        target = request.query_params.get("next", "/")
        # Only a path of this server: never «//host» or «/\\host», which browsers read as another site.
        target = target if target.startswith("/") and not target.startswith(("//", "/\\")) else "/"
        if request.method == "GET":
            return HTMLResponse(frame("Log in", casefile.login_form(target, ""), nav=False))
        form = await request.form()
        token = str(form.get("token", "")).strip()
        access = await verifier.verify_token(token) if token else None
        if access is None:
            return HTMLResponse(
                frame("Log in", casefile.login_form(target, "That token is not valid."), nav=False), 401
            )
        response = RedirectResponse(target, 303)
        secure = _behind_tls(request)
        response.set_cookie(SESSION_COOKIE, sessions.open(token), httponly=True, samesite="strict", secure=secure)
        return response

    def logout(request: Request) -> Response:
        sessions.close(request.cookies.get(SESSION_COOKIE, ""))
        response = RedirectResponse("/login" if verifier is not None else "/", 303)
        response.delete_cookie(SESSION_COOKIE)
        return response

    def css(_request: Request) -> Response:
        return Response(css_text(), media_type="text/css; charset=utf-8", headers={"Cache-Control": "max-age=3600"})

    return [
        Route("/", guarded(index)),
        Route("/call", lookup),
        Route("/call/{call_id}", guarded(call)),
        Route("/call/{call_id}/export", guarded(export)),
        Route("/diff", guarded(diff)),
        Route("/at/{commit}/{path:path}", guarded(at)),
        Route("/doc/{doc_id:path}", guarded(doc)),
        Route("/check", check, methods=["GET", "POST"]),
        Route("/login", login, methods=["GET", "POST"]),
        Route("/logout", logout),
        Route("/static/desk.css", css),
    ]


def create_web_app(
    root: Path,
    audit_log: Path,
    *,
    tokens_file: Path | None = None,
    allowed_hosts: Sequence[str] = LOOPBACK_NAMES,
    today: str = "HEAD",
    sessions: Sessions | None = None,
    refs: Sequence[str] = (),
) -> Starlette:
    """The desk over the shelf at ``root`` and its audit log; ``today`` is the ref "today" means, ``refs`` the refs
    other pages may read (as ``serve --refs``; empty: the served branch and the tags)."""
    verifier = TokenFileVerifier(tokens_file) if tokens_file is not None else None
    sessions = sessions or Sessions()
    readable = ReadableRefs(tuple(check_pattern(p) for p in refs)) if refs else None
    desk = Desk(root=root, audit=AuditIndex(audit_log), today=today, readable=readable)
    desk.audit.refresh()  # index the log once at start, not on the first request
    middleware = [
        Middleware(Fence, hosts=list(allowed_hosts), verifier=verifier, sessions=sessions),
        Middleware(RequestBodyLimitMiddleware, max_body_size=MAX_FORM_BYTES),
    ]
    return Starlette(routes=_routes(desk, verifier, sessions), middleware=middleware)
