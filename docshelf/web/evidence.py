"""What an investigator needs about one audited call, read again from Git: pure data, no HTML.

A call is repeated with the library at the commit its record names and with the edition date of
the day it was made, so what is shown is what the model got (reads are pinned and deterministic).
The same data is rendered as a page and exported as JSON.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from docshelf.errors import DocShelfError
from docshelf.law import editions
from docshelf.model import DEFAULT_MAX_CHARS
from docshelf.records import DocMeta
from docshelf.results import QuoteReport
from docshelf.shelf import gitrepo, reader
from docshelf.text import history, verify
from docshelf.text import search as search_lib

CLIPPED = "…[+"  # how the audit log marks an argument it cut (see server.audit.clip)


def metas(root: Path, commit: str) -> tuple[DocMeta, ...]:
    """The document metas of a commit (cached by the reader: commits never change)."""
    return reader.metas_at(root, commit)


def call_date(record: dict[str, Any]) -> date:
    """The day the call was made (UTC): the date its edition statuses were computed for."""
    try:
        return date.fromisoformat(str(record.get("ts") or "")[:10])
    except ValueError:
        return date.today()


def _as_of(args: dict[str, Any], record: dict[str, Any]) -> date:
    try:
        return date.fromisoformat(str(args["as_of"])) if args.get("as_of") else call_date(record)
    except ValueError:
        return call_date(record)


def quote_items(record: dict[str, Any]) -> list[dict[str, str]]:
    """The quotes a verify_quote call checked, as ``{"quote", "ref"}`` (none for other calls)."""
    if record.get("tool") != "verify_quote":
        return []
    args = record.get("arguments") or {}
    items = args.get("items")
    if isinstance(items, list):
        return [{"quote": str(i.get("quote", "")), "ref": str(i.get("ref", ""))} for i in items if isinstance(i, dict)]
    return [{"quote": str(args.get("quote", "")), "ref": str(args.get("ref", ""))}]


def _clipped(value: Any) -> bool:
    if isinstance(value, str):
        return CLIPPED in value and "sha256=" in value
    if isinstance(value, dict):
        return any(_clipped(v) for v in value.values())
    if isinstance(value, list):
        return any(_clipped(v) for v in value)
    return False


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def reread(root: Path, record: dict[str, Any]) -> dict[str, Any]:
    """The result of the call, computed again at its commit: ``{"kind", "result"}`` or ``{"kind", "error"}``."""
    commit = record.get("commit")
    tool = record.get("tool") or record.get("method")
    args = record.get("arguments") or {}
    if not commit:
        return {"kind": "none", "error": "The call read no commit (it failed before reaching the shelf)."}
    if _clipped(args):
        return {"kind": "none", "error": "An argument was cut in the audit log, so the call cannot be repeated."}
    commit, as_of = str(commit), _as_of(args, record)
    try:
        if tool == "fetch":
            out = reader.fetch(
                root,
                str(args.get("path", "")),
                at=commit,
                start=_int(args.get("start"), 0),
                max_chars=_int(args.get("max_chars"), DEFAULT_MAX_CHARS),
                as_of=as_of,
            )
            return {"kind": "fetch", "result": out.to_dict()}
        if tool == "read_index":
            page = reader.read_index(root, str(args.get("path") or "index.md"), at=commit, as_of=as_of)
            return {"kind": "read_index", "result": page.to_dict()}
        if tool == "search":
            found = search_lib.search(
                root,
                str(args.get("query", "")),
                limit=_int(args.get("limit"), 5),
                at=commit,
                doc=args.get("doc"),
                category=args.get("category"),
                status=args.get("status"),
                as_of=as_of,
            )
            return {"kind": "search", "result": found.to_dict()}
        if tool == "verify_quote":
            items = quote_items(record)
            if isinstance(args.get("items"), list):
                batch = verify.verify_quotes(root, items, at=commit, as_of=as_of)
                return {"kind": "verify_quote", "result": QuoteReport.of(batch).to_dict()}
            check = verify.verify_quote(root, items[0]["quote"], items[0]["ref"], at=commit, as_of=as_of)
            return {"kind": "verify_quote", "result": QuoteReport.of(check).to_dict()}
        if tool == "resources/read":
            path = str(args.get("uri", "")).removeprefix("shelf://").split("?", 1)[0]
            return {"kind": "resource", "result": {"path": path, "text": history.text_at(root, commit, path)}}
    except DocShelfError as exc:
        return {"kind": str(tool), "error": str(exc)}
    return {"kind": "none", "error": f"Nothing to read again for {tool!r}."}


def doc_of(root: Path, commit: str, path: str) -> DocMeta | None:
    """The meta (at ``commit``) of the document that holds ``path``."""
    for meta in metas(root, commit):
        entry = meta.entry
        home = posixpath.dirname(entry) if entry.endswith("/subindex.md") else entry
        if path == entry or path.startswith(home + "/") or meta.section(path) is not None:
            return meta
    return None


def find_doc(root: Path, commit: str, doc_id: str) -> DocMeta | None:
    key = editions.id_key(doc_id)
    return next((m for m in metas(root, commit) if editions.id_key(m.id) == key), None)


def status_on(meta: DocMeta, day: date) -> dict[str, Any] | None:
    """The edition status of a document on ``day``; None when its meta records no edition."""
    return editions.meta_status(meta, day).to_dict() if editions.has_edition(meta) else None


@dataclass(frozen=True)
class Recheck:
    """One quote of a call, checked at the call's commit and again at a later one."""

    quote: str
    ref: str
    then: dict[str, Any]
    now: dict[str, Any]
    changed_clauses: list[str] = field(default_factory=list)  # changed clauses of the diff that hold it
    summary: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "quote": self.quote,
            "ref": self.ref,
            "then": self.then,
            "now": self.now,
            "changed_clauses": self.changed_clauses,
            "summary": self.summary,
        }


def _related_clause(a: str, b: str) -> bool:
    """The same clause, or one inside the other («ст. 1 ч. 2» and «ст. 1»)."""
    return a == b or a.startswith(b + " ") or b.startswith(a + " ")


def recheck_quotes(
    root: Path, items: list[dict[str, str]], commit_a: str, commit_b: str, diff: history.ShelfDiff, today: bool
) -> list[Recheck]:
    """Each quote's verdict at ``commit_a`` and at ``commit_b``, with the changed clause that explains it."""
    when = "today" if today else f"at {commit_b[:12]}"
    out = []
    for item in items:
        then = verify.verify_quote(root, item["quote"], item["ref"], at=commit_a).to_dict()
        now = verify.verify_quote(root, item["quote"], item["ref"], at=commit_b).to_dict()
        clause = str(then.get("clause") or (then.get("closest") or {}).get("clause") or "")
        doc_id = str(then.get("doc_id") or "")
        changed = [
            f"{d.doc_id} {c.clause}"
            for d in diff.documents
            for c in d.clauses
            if clause and (not doc_id or d.doc_id == doc_id) and _related_clause(c.clause, clause)
        ]
        if now["verdict"] == "ok":
            summary = f"still verbatim {when}" if then["verdict"] == "ok" else f"verbatim {when} (it was not then)"
        elif then["verdict"] != "ok":
            summary = f"not verbatim then, nor {when} ({now['verdict']})"
        elif changed:
            summary = f"no longer verbatim {when}: changed in {', '.join(changed)}"
        else:
            summary = f"no longer verbatim {when} ({now['verdict']})"
        out.append(Recheck(item["quote"], item["ref"], then, now, changed, summary))
    return out


def resolve_or_none(root: Path, ref: str) -> str | None:
    try:
        return gitrepo.resolve(root, ref)
    except DocShelfError:
        return None
