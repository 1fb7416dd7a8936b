"""The desk's pages as HTML: the audit list, one call, a diff with its quotes re-checked, a text at a commit.

Each function takes data (audit records, library results) and returns HTML; ``app`` does the
reading and the routing, ``evidence`` the re-reading.
"""

from __future__ import annotations

import json
from typing import Any

from docshelf.text.history import ShelfDiff
from docshelf.web.auditindex import Filters, Page
from docshelf.web.evidence import Recheck
from docshelf.web.html import (
    clause_anchor,
    esc,
    facts,
    highlighted,
    html_word_diff,
    link,
    marked_diff,
    table,
    url,
)

SHORT = 12


def short(sha: object) -> str:
    return str(sha or "")[:SHORT]


def _args_text(args: dict[str, Any]) -> str:
    """A call's arguments as a reader scans them: «query: срок хранения · limit: 5», not a JSON object."""
    parts = [f"{k}: {v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}" for k, v in args.items()]
    text = " · ".join(parts)
    return text if len(text) <= 160 else text[:160] + " …"


def _select(name: str, values: list[str], chosen: str) -> str:
    options = [f'<option value=""{" selected" if not chosen else ""}>any</option>']
    options += [f"<option{' selected' if v == chosen else ''}>{esc(v)}</option>" for v in values]
    return f'<label>{esc(name)} <select name="{name}">{"".join(options)}</select></label>'


def audit_filters(filters: Filters, menus: dict[str, list[str]]) -> str:
    lookup = (
        '<form class="filters" method="get" action="/call">'
        '<label>call id <input name="id" placeholder="the call_id a result carries"></label>'
        '<button type="submit">Open</button></form>'
    )
    return lookup + (
        '<form class="filters" method="get" action="/">'
        + _select("client", menus["client"], filters.client)
        + _select("tool", menus["tool"], filters.tool)
        + _select("verdict", menus["verdict"], filters.verdict)
        + f'<label>document <input name="doc" value="{esc(filters.doc)}" placeholder="152-ФЗ or a path"></label>'
        + f'<label>from <input name="since" value="{esc(filters.since)}" placeholder="2026-11-30"></label>'
        + f'<label>to <input name="until" value="{esc(filters.until)}" placeholder="2026-12-01"></label>'
        + '<button type="submit">Filter</button> <a href="/">clear</a></form>'
    )


def audit_rows(records: list[dict[str, Any]]) -> list[list[str]]:
    rows = []
    for r in records:
        call_id = str(r.get("id") or "")
        args = r.get("arguments") or {}
        target = r.get("tool") or r.get("method") or ""
        rows.append(
            [
                link(url(f"/call/{call_id}"), str(r.get("ts") or "")[:19].replace("T", " ")) if call_id else "",
                esc(r.get("client")),
                esc(target),
                f'<code class="args">{esc(_args_text(args))}</code>',
                f"<code>{esc(short(r.get('commit')))}</code>",
                f'<span class="verdict v-{esc(r.get("verdict") or "none")}">{esc(r.get("verdict") or "")}</span>',
                esc(r.get("outcome")),
            ]
        )
    return rows


def audit_list(page: Page, records: list[dict[str, Any]], filters: Filters, menus: dict[str, list[str]]) -> str:
    params = {k: v for k, v in vars(filters).items() if v}
    nav = []
    if page.number > 1:
        nav.append(link(url("/", **params, page=page.number - 1), "← newer"))
    nav.append(f"page {page.number} of {page.pages} · {page.total} record(s)")
    if page.number < page.pages:
        nav.append(link(url("/", **params, page=page.number + 1), "older →"))
    head = ["time (UTC)", "client", "tool", "arguments", "commit", "verdict", "outcome"]
    body = table(head, audit_rows(records), "audit") if records else "<p>No audit records match.</p>"
    return audit_filters(filters, menus) + body + f'<p class="pager">{" · ".join(nav)}</p>'


# --- one call ------------------------------------------------------------------------------------


def record_facts(record: dict[str, Any], status: dict[str, Any] | None, day: str) -> str:
    commit = str(record.get("commit") or "")
    info = record.get("client_info") or {}
    pairs = {
        "call id": f"<code>{esc(record.get('id'))}</code>",
        "time (UTC)": esc(record.get("ts")),
        "client": esc(record.get("client"))
        + (f" ({esc(info.get('name'))} {esc(info.get('version'))})" if info else ""),
        "transport": esc(record.get("transport")) + (f" from {esc(record.get('peer'))}" if record.get("peer") else ""),
        "tool": esc(record.get("tool") or record.get("method")),
        "arguments": f"<pre>{esc(json.dumps(record.get('arguments') or {}, ensure_ascii=False, indent=2))}</pre>",
        "commit": f"<code>{esc(commit)}</code>" if commit else "—",
        "outcome": esc(record.get("outcome")) + (f": {esc(record.get('error'))}" if record.get("error") else ""),
        "verdict": esc(record.get("verdict") or "—"),
        "paths": " ".join(link(url(f"/at/{commit}/{p}"), p) for p in record.get("paths") or []) or "—",
    }
    if status is not None:
        pairs[f"edition status on {day}"] = (
            f'<span class="status s-{esc(status["code"])}">{esc(status["label_en"])}</span>'
        )
    return facts(pairs)


def _fetch_view(result: dict[str, Any]) -> str:
    commit, path = result["commit"], result["path"]
    where = f"chars {result['start']}–{result['start'] + len(result['text'])} of {result['total_chars']}"
    head = facts(
        {
            "section": link(url(f"/at/{commit}/{path}"), path),
            "title": esc(result["title"]),
            "document": esc(result["doc_id"]),
            "clauses": esc(", ".join(result["clauses"]) or "—"),
            "pages": esc(result["pages"]),
            "returned": esc(where),
            "sha256 of the section": f"<code>{esc(result['sha256'])}</code>",
        }
    )
    warning = f'<p class="warning">{esc(result["warning"])}</p>' if result.get("warning") else ""
    return f'{head}{warning}<pre class="text" id="returned-text">{esc(result["text"])}</pre>'


def _hits_view(result: dict[str, Any]) -> str:
    commit = result["commit"]
    rows = [
        [
            link(url(f"/at/{commit}/{h['path']}", clause=h.get("snippet_clause") or h["clause"]), h["path"]),
            esc(h["doc_id"]),
            esc(h.get("snippet_clause") or h["clause"]),
            esc(h["snippet"]),
            esc(f"{h['score']:.3f}"),
        ]
        for h in result["hits"]
    ]
    note = f"<p>{esc(result['note'])}</p>" if result.get("note") else ""
    return note + table(["section", "document", "clause", "snippet", "score"], rows, "hits")


def quote_view(check: dict[str, Any], source: str | None = None) -> str:
    """One verdict with its evidence: the quote beside the source (match marked), or the word diff."""
    verdict = check["verdict"]
    quote = f'<blockquote class="quote">{esc(check["quote"])}</blockquote>'
    head = (
        f'<p><span class="verdict v-{esc(verdict)}">{esc(verdict)}</span> {esc(check["ref"])} — '
        f"{esc(check['message'])}</p>"
    )
    if verdict == "ok" and check.get("match"):
        commit, path = check["commit"], check["path"]
        where = link(url(f"/at/{commit}/{path}", clause=check["clause"]) + f"#{clause_anchor(check['clause'])}", path)
        shown = esc(check["match"])
        if source is not None and (at := source.find(check["match"])) >= 0:
            lo, hi = max(0, at - 300), min(len(source), at + len(check["match"]) + 300)
            shown = highlighted(source[lo:hi], at - lo, at - lo + len(check["match"]))
        label = f"{esc(check['doc_id'])} {esc(check['clause'])} · {where}"
        side = f'<div class="source"><p>{label}</p><pre>{shown}</pre></div>'
        return f'<div class="check">{head}<div class="beside">{quote}{side}</div></div>'
    closest = check.get("closest")
    if closest:
        diff = html_word_diff(closest["text"], check["quote"])
        side = (
            f'<div class="source"><p>closest passage: {esc(closest.get("clause") or closest.get("path"))}</p>'
            f"<pre>{esc(closest['text'])}</pre><p>source → quote: {diff}</p></div>"
        )
        return f'<div class="check">{head}<div class="beside">{quote}{side}</div></div>'
    found = check.get("found_in") or []
    elsewhere = "".join(f"<li>{esc(f.get('path'))} {esc(f.get('clause'))}</li>" for f in found)
    return f'<div class="check">{head}{quote}' + (f"<p>found in:</p><ul>{elsewhere}</ul>" if found else "") + "</div>"


def reread_view(reread: dict[str, Any], sources: dict[str, str]) -> str:
    if "error" in reread:
        return f'<p class="warning">{esc(reread["error"])}</p>'
    kind, result = reread["kind"], reread["result"]
    if kind == "fetch":
        return _fetch_view(result)
    if kind == "read_index":
        return f'<pre class="text" id="returned-text">{esc(result["text"])}</pre>'
    if kind == "search":
        return _hits_view(result)
    if kind == "resource":
        return f'<pre class="text" id="returned-text">{esc(result["text"])}</pre>'
    checks = result["results"] if result.get("results") is not None else [result]
    return "".join(quote_view(c, sources.get(c.get("path") or "")) for c in checks)


# --- diffs ---------------------------------------------------------------------------------------


def rechecks_view(rechecks: list[Recheck]) -> str:
    if not rechecks:
        return ""
    rows = [
        [
            f'<blockquote class="quote">{esc(r.quote)}</blockquote>',
            esc(r.ref),
            f'<span class="verdict v-{esc(r.then["verdict"])}">{esc(r.then["verdict"])}</span>',
            f'<span class="verdict v-{esc(r.now["verdict"])}">{esc(r.now["verdict"])}</span>',
            f'<strong class="recheck">{esc(r.summary)}</strong>',
        ]
        for r in rechecks
    ]
    return "<h2>The call's quotes, checked again</h2>" + table(
        ["quote", "reference", "then", "now", "so"], rows, "rechecks"
    )


def diff_view(diff: ShelfDiff) -> str:
    if not diff.documents and not diff.other_paths:
        return f"<p>No changes between {esc(short(diff.commit_a))} and {esc(short(diff.commit_b))}.</p>"
    parts = []
    for d in diff.documents:
        parts.append(f"<h2>{esc(d.doc_id)} «{esc(d.title)}»: {esc(d.status)}</h2>")
        if d.edition:
            parts.append(
                "<ul>"
                + "".join(f"<li>edition.{esc(k)}: {esc(a)} → {esc(b)}</li>" for k, (a, b) in d.edition.items())
                + "</ul>"
            )
        rows = []
        for c in d.clauses:
            where = c.path_b or c.path_a or ""
            commit = diff.commit_b if c.path_b else diff.commit_a
            body = marked_diff(c.diff) if c.status == "changed" else f"<pre>{esc(c.text)}</pre>"
            cell = link(url(f"/at/{commit}/{where}", clause=c.clause) + f"#{clause_anchor(c.clause)}", c.clause)
            rows.append([f'<span class="change c-{esc(c.status)}">{esc(c.status)}</span>', cell, body])
        if rows:
            parts.append(table(["", "clause", "text"], rows, "clauses"))
    if diff.other_paths:
        parts.append("<p>Other files: " + esc(", ".join(diff.other_paths)) + "</p>")
    return "".join(parts)


def text_at_view(commit: str, path: str, body: str, clauses: list[str], doc_id: str) -> str:
    index = "".join(f'<li><a href="#{esc(clause_anchor(c))}">{esc(c)}</a></li>' for c in clauses)
    head = facts(
        {
            "commit": f"<code>{esc(commit)}</code>",
            "path": esc(path),
            "document": link(url(f"/doc/{doc_id}"), doc_id) if doc_id else "—",
        }
    )
    toc = f'<details class="toc"><summary>clauses</summary><ul>{index}</ul></details>' if clauses else ""
    return f'{head}{toc}<pre class="text" id="section-text">{body}</pre>'
