"""The desk's pages put together: read the record or the shelf, gather the evidence, render it.

Each function returns HTML (or the JSON of an export); ``app`` routes to them. A ``DocShelfError``
raised here (an unknown call id, commit, path or document) becomes a 404 page saying what to do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any

from starlette.responses import HTMLResponse, Response

from docshelf.errors import DocShelfError, ServeError
from docshelf.results import QuoteReport
from docshelf.server.pin import Pin, ReadableRefs
from docshelf.shelf import gitrepo, reader
from docshelf.text import history, verify, xrefs
from docshelf.web import evidence, pages
from docshelf.web.auditindex import AuditIndex
from docshelf.web.html import clause_anchor, clause_spans, esc, facts, frame, link, table, url

MAX_CHECK_ITEMS = 200  # as verify_quote's batch


@dataclass(frozen=True)
class Desk:
    """What every page reads: the shelf, its audit log index, the ref that stands for "today", and the refs a page
    may read (``serve --refs``; None: the served branch and the tags, as ``serve``'s default)."""

    root: Path
    audit: AuditIndex
    today: str = "HEAD"
    readable: ReadableRefs | None = None

    @cached_property
    def _reads(self) -> Pin:
        return Pin.at(self.root, self.today, readable=self.readable)

    def resolve(self, rev: str) -> str:
        """The commit a page reads: «today» as the operator set it; any other ref or sha exactly as ``serve`` reads
        ``at`` (one implementation: ``Pin.resolve``), so the desk shows nothing the MCP server would refuse."""
        if not rev or rev == self.today:
            return gitrepo.resolve(self.root, self.today)
        return self._reads.resolve(rev)


def record_of(desk: Desk, call_id: str) -> dict[str, Any]:
    entry = desk.audit.get(call_id)
    if entry is None:
        raise ServeError(
            f"No audit record with id {call_id!r} in {desk.audit.path.name}. Find the call on the list: /."
        )
    return desk.audit.record(entry)


# --- one call ------------------------------------------------------------------------------------


def _sources(root: Path, reread: dict[str, Any]) -> dict[str, str]:
    """The whole text of every section a verify_quote result matched in (to show the match in place)."""
    result = reread.get("result") or {}
    checks = (result.get("results") or [result]) if reread.get("kind") == "verify_quote" else []
    out = {}
    for c in checks:
        if c.get("verdict") == "ok" and c.get("path") and c["path"] not in out:
            out[c["path"]] = history.text_at(root, c["commit"], c["path"])
    return out


def _status(root: Path, record: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """The edition status on the call's date of the first document it read, and that document's id."""
    commit, paths = record.get("commit"), record.get("paths") or []
    if not commit or not paths:
        return None, None
    meta = evidence.doc_of(root, str(commit), str(paths[0]))
    if meta is None:
        return None, None
    return evidence.status_on(meta, evidence.call_date(record)), meta.id


def call_evidence(desk: Desk, record: dict[str, Any]) -> dict[str, Any]:
    """Everything the call page shows, as data (the JSON export)."""
    status, doc_id = _status(desk.root, record)
    return {
        "record": record,
        "reread": evidence.reread(desk.root, record),
        "call_date": evidence.call_date(record).isoformat(),
        "edition_status": status,
        "doc_id": doc_id,
    }


def call_body(desk: Desk, record: dict[str, Any]) -> str:
    data = call_evidence(desk, record)
    commit, call_id = str(record.get("commit") or ""), str(record.get("id"))
    links = [
        link(url(f"/call/{call_id}/export", format="html"), "export HTML"),
        link(url(f"/call/{call_id}/export", format="json"), "export JSON"),
    ]
    if commit:
        doc = data["doc_id"] or ""
        links.insert(
            0,
            link(url("/diff", **{"from": commit, "to": desk.today, "doc": doc, "call": call_id}), "compare with today"),
        )
        if doc:
            links.insert(1, link(url(f"/doc/{doc}"), f"history of {doc}"))
    head = pages.record_facts(record, data["edition_status"], data["call_date"])
    shown = pages.reread_view(data["reread"], _sources(desk.root, data["reread"]) if "result" in data["reread"] else {})
    return (
        f'<p class="links">{" · ".join(links)}</p>{head}'
        f"<h2>What the call returned (read again at {esc(pages.short(commit) or '—')})</h2>{shown}"
    )


def call_json(desk: Desk, record: dict[str, Any]) -> str:
    return json.dumps(call_evidence(desk, record), ensure_ascii=False, indent=2)


# --- diffs and texts -----------------------------------------------------------------------------


def _rev(commit: str, rev: str) -> str:
    return f"<code>{esc(commit)}</code>" + (f" ({esc(rev)})" if rev != commit else "")


def diff_page(desk: Desk, rev_a: str, rev_b: str, doc: str | None, call_id: str | None) -> tuple[str, str]:
    if not rev_a:
        raise ServeError("Give ?from=<commit>&to=<ref>, e.g. from a call's page (“compare with today”).")
    commit_a, commit_b = desk.resolve(rev_a), desk.resolve(rev_b)
    diff = history.diff(desk.root, commit_a, commit_b, doc or None)
    rechecks = []
    if call_id:
        items = evidence.quote_items(record_of(desk, call_id))
        today = commit_b == desk.resolve(desk.today)
        rechecks = evidence.recheck_quotes(desk.root, items, commit_a, commit_b, diff, today)
    head = facts(
        {
            "from": _rev(commit_a, rev_a),
            "to": _rev(commit_b, rev_b),
            "document": esc(doc or "all"),
            "call": link(url(f"/call/{call_id}"), call_id) if call_id else "—",
        }
    )
    title = f"Changes {pages.short(commit_a)} → {pages.short(commit_b)}" + (f" ({doc})" if doc else "")
    return title, head + pages.rechecks_view(rechecks) + pages.diff_view(diff)


def at_page(desk: Desk, commit: str, path: str, clause: str) -> tuple[str, str]:
    sha = desk.resolve(commit)
    rel = reader.safe_path(path)
    try:
        text = gitrepo.read(desk.root, rel, sha).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ServeError(
            f"{rel} is not a text file (an original PDF or DOCX?): open it from the shelf's Git history, "
            f"e.g. `git show {sha[:12]}:{rel} > copy`."
        ) from exc
    meta = evidence.doc_of(desk.root, sha, rel)
    section = meta.section(rel) if meta else None
    spans = [(c.id, c.start, c.end) for c in section.clauses] if section else []
    doc_id = meta.id if meta else ""
    refs = xrefs.references(desk.root, sha, doc_id, text) if doc_id else []
    links = [
        (r.start, r.end, url(f"/at/{sha}/{r.path}", clause=r.clause) + f"#{clause_anchor(r.clause)}") for r in refs
    ]
    body = clause_spans(text, spans, clause, links)
    return f"{rel} @ {sha[:12]}", pages.text_at_view(sha, rel, body, [s[0] for s in spans], doc_id)


def doc_page(desk: Desk, doc_id: str) -> str:
    changes = history.history(desk.root, doc_id)
    today = date.today()
    rows = []
    older = [*[c.sha for c in changes[1:]], None]
    for change, previous in zip(changes, older, strict=True):
        meta = evidence.find_doc(desk.root, change.sha, doc_id)
        day = evidence.call_date({"ts": change.date})
        entry = meta.entry if meta else ""
        then = evidence.status_on(meta, day) if meta else None
        now = evidence.status_on(meta, today) if meta else None
        edition = json.dumps(meta.edition or {}, ensure_ascii=False) if meta else "removed"
        compare = (
            link(url("/diff", **{"from": previous, "to": change.sha, "doc": doc_id}), "changes") if previous else ""
        )
        rows.append(
            [
                esc(change.date[:19].replace("T", " ")),
                link(url(f"/at/{change.sha}/{entry}"), change.sha[:12])
                if entry
                else f"<code>{esc(change.sha[:12])}</code>",
                esc(change.subject),
                f"<code>{esc(edition)}</code>",
                esc(then["label_en"] if then else "—"),
                esc(now["label_en"] if now else "—"),
                compare,
            ]
        )
    head = ["date", "commit", "subject", "edition", "status then", f"status on {today.isoformat()}", ""]
    return table(head, rows, "history")


# --- the answer check ----------------------------------------------------------------------------

SAMPLE = '{"quote": "…", "ref": "152-ФЗ ст. 12 ч. 3"}'


def _check_form(items_text: str, commit: str, message: str = "") -> str:
    warn = f'<p class="warning">{esc(message)}</p>' if message else ""
    return (
        f'{warn}<form method="post" action="/check" class="check-form">'
        f"<p>One quote a line, as JSON: <code>{esc(SAMPLE)}</code> (the batch format of verify_quote).</p>"
        f'<textarea name="items" rows="8">{esc(items_text)}</textarea>'
        f'<label>commit, tag or branch <input name="at" value="{esc(commit)}"></label>'
        '<button type="submit" name="format" value="page">Check</button></form>'
    )


def parse_items(text: str) -> list[dict[str, str]]:
    items = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise ServeError(f'Line {number} is not JSON: write {{"quote": "…", "ref": "…"}} on each line.') from exc
        if not isinstance(item, dict) or not isinstance(item.get("quote"), str) or not isinstance(item.get("ref"), str):
            raise ServeError(f'Line {number} needs "quote" and "ref" strings.')
        items.append({"quote": item["quote"], "ref": item["ref"]})
    if not items:
        raise ServeError("Paste at least one quote with its reference.")
    if len(items) > MAX_CHECK_ITEMS:
        raise ServeError(f"{len(items)} quotes; check at most {MAX_CHECK_ITEMS} at once.")
    return items


def _export_buttons(items_text: str, commit: str) -> str:
    hidden = (
        f'<input type="hidden" name="items" value="{esc(items_text)}">'
        f'<input type="hidden" name="at" value="{esc(commit)}">'
    )
    return (
        f'<form method="post" action="/check" class="export">{hidden}'
        '<button name="format" value="html">export HTML</button> '
        '<button name="format" value="json">export JSON</button></form>'
    )


def check_result(desk: Desk, report: dict[str, Any]) -> str:
    checks = report.get("results") or []
    sources = _sources(desk.root, {"kind": "verify_quote", "result": report})
    verdict = "PASS" if report.get("passed") else "FAIL"
    head = (
        f'<p class="summary"><strong>{verdict}</strong> at <code>{esc(report["commit"])}</code>: '
        f"{esc(report['message'])}</p>"
    )
    return head + "".join(pages.quote_view(c, sources.get(c.get("path") or "")) for c in checks)


Shown = tuple[str, str, int]  # a page's title, body and status, framed by ``app``


def check_response(desk: Desk, posted: bool, items_text: str, commit: str, fmt: str) -> Response | Shown:
    """The form, its result page, or an export of the result (a download)."""
    commit = commit.strip() or desk.today
    if not posted:
        return "Answer check", _check_form("", commit), 200
    try:
        items = parse_items(items_text)
        report = QuoteReport.of(verify.verify_quotes(desk.root, items, at=desk.resolve(commit))).to_dict()
    except DocShelfError as exc:
        return "Answer check", _check_form(items_text, commit, str(exc)), 400
    if fmt == "json":
        body = json.dumps({"items": items, "at": commit, "report": report}, ensure_ascii=False, indent=2)
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": 'attachment; filename="answer-check.json"'},
        )
    result = check_result(desk, report)
    if fmt == "html":
        page = frame("Answer check", result, nav=False, inline_css=True)
        return HTMLResponse(page, headers={"Content-Disposition": 'attachment; filename="answer-check.html"'})
    return "Answer check", _check_form(items_text, commit) + _export_buttons(items_text, commit) + result, 200


def login_form(target: str, message: str) -> str:
    warn = f'<p class="warning">{esc(message)}</p>' if message else ""
    return (
        f'{warn}<form method="post" action="{esc(url("/login", next=target))}" class="login">'
        '<label>token <input type="password" name="token" autocomplete="off" autofocus></label>'
        '<button type="submit">Log in</button></form>'
        "<p>Use a token from <code>docshelf token add NAME --tokens FILE</code>, the same as for the MCP server.</p>"
    )
