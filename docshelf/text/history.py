"""History and diffs for maintainers and investigators: who changed a section when, what changed in
the text of each clause between two commits, and the exact text an audited answer was read from.

Updating a document to a new edition is a commit that replaces its sections, so Git holds every
edition; this module reads that history. Clause diffs use each commit's own clause table (the
``clauses`` spans of the document's meta), so an inserted «ст. 3.1» is one added clause and not a
renumbering of every later section file. Comparison is typographic-insensitive (the same
:func:`~docshelf.normalize.normalize_text` that verifies quotes): a PDF and a DOCX of the same
wording show no change, one changed word does. Editorial lines (``>``: DocShelf's breadcrumb with
page numbers, publishers' notes) are not the act's text and are ignored.
"""

from __future__ import annotations

import hashlib
import posixpath
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from docshelf.errors import SectionNotFoundError, ShelfError
from docshelf.law.editions import id_key
from docshelf.model import DEFAULT_MAX_CHARS
from docshelf.records import DocMeta
from docshelf.shelf import gitrepo, reader
from docshelf.shelf.gitrepo import Change
from docshelf.shelf.reader import metas_at
from docshelf.text.citations import resolve as resolve_ref
from docshelf.text.clausediff import ClauseChange, Unit, compare, doc_units

# --- history ------------------------------------------------------------------------------------


def _doc_roots(meta: DocMeta) -> list[str]:
    """The shelf paths a document owns: its meta, its source, and its folder (split) or file (whole)."""
    entry = meta.entry
    body = posixpath.dirname(entry) if entry.endswith("/subindex.md") else entry
    return [meta.meta_path, meta.source.file, body]


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _find_doc(metas: tuple[DocMeta, ...], name: str) -> DocMeta | None:
    return next((m for m in metas if id_key(m.id) == id_key(name)), None)


def history(root: Path, path: str, *, limit: int = 50) -> list[Change]:
    """The commits that changed ``path``, newest first, at most ``limit``.

    Args:
        root: the shelf.
        path: a section or document file, a meta or source file, a folder (``docs/laws``), or a
            document id (``152-ФЗ``: its meta, source and sections together). A single file is
            followed across renames (sections are renumbered when a new edition inserts one).
        limit: most commits to return.

    Raises:
        SectionNotFoundError: no commit ever touched the path.
        PathOutsideShelfError: the path leaves the shelf.
    """
    if limit < 1:
        raise ValueError("limit must be ≥ 1.")
    head = gitrepo.resolve(root)
    rel = reader.safe_path(path).rstrip("/")
    kind = gitrepo.kind_at(root, head, rel)
    meta = None if kind else _find_doc(metas_at(root, head), path)
    if meta is not None:
        changes = gitrepo.log(root, _doc_roots(meta), follow=False, limit=limit)
    else:
        follow = kind == "blob" or (kind is None and "." in posixpath.basename(rel))
        changes = gitrepo.log(root, [rel], follow=follow, limit=limit)
    if not changes:
        raise SectionNotFoundError(
            f"No commit changed {path!r}. Give a path from the index, a folder or a document id.", path=path
        )
    return changes


# --- diff ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DocChange:
    doc_id: str
    title: str
    status: str  # added | removed | changed
    meta_path: str
    edition: dict[str, list[Any]] = field(default_factory=dict)  # field -> [old, new]
    source: list[str] = field(default_factory=list)  # [old file, new file] when the source changed
    sections_added: list[str] = field(default_factory=list)
    sections_removed: list[str] = field(default_factory=list)
    sections_moved: list[list[str]] = field(default_factory=list)  # [old path, new path]
    clauses: list[ClauseChange] = field(default_factory=list)


@dataclass(frozen=True)
class ShelfDiff:
    rev_a: str
    rev_b: str
    commit_a: str
    commit_b: str
    path: str | None
    documents: list[DocChange]
    other_paths: list[str]  # changed files outside any document: index.md, .docshelf.json …

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def format_text(self) -> str:
        """A plain-text report for the CLI: one block per document, one line per clause."""
        head = f"{self.commit_a[:12]} → {self.commit_b[:12]}" + (f" ({self.path})" if self.path else "")
        if not self.documents and not self.other_paths:
            return f"No changes {head}.\n"
        lines = [f"Changes {head}:"]
        for d in self.documents:
            lines += _format_doc(d)
        if self.other_paths:
            lines.append("other files: " + ", ".join(self.other_paths))
        return "\n".join(lines) + "\n"


_MARK = {"added": "+", "removed": "-", "changed": "~"}


def _format_doc(d: DocChange) -> list[str]:
    lines = ["", f"{d.doc_id} «{d.title}»: {d.status} ({d.meta_path})"]
    lines += [f"  edition.{k}: {old or '—'} → {new or '—'}" for k, (old, new) in d.edition.items()]
    if d.source:
        lines.append(f"  source: {d.source[0]} → {d.source[1]}")
    if d.sections_added or d.sections_removed or d.sections_moved:
        counts = (len(d.sections_added), len(d.sections_removed), len(d.sections_moved))
        lines.append("  section files: {} added, {} removed, {} renamed".format(*counts))
    for c in d.clauses:
        where = c.path_b or c.path_a
        lines.append(f"  {_MARK[c.status]} {c.clause}  [{where}]")
        body = c.diff if c.status == "changed" else c.text
        short = body if len(body) <= 600 else body[:600] + " …"
        lines += ["      " + ln for ln in short.splitlines() if ln.strip()]
    return lines


@dataclass(frozen=True)
class _Scope:
    docs: set[str] | None  # document ids in scope; None = all
    clauses: dict[str, set[str]]  # doc id -> clause ids of the named section (only those compared)
    prefix: str | None  # other paths in scope: this path and under it; None = all, "" = none


def _scope(path: str | None, metas: list[DocMeta]) -> _Scope:
    if path is None:
        return _Scope(None, {}, None)
    if (meta := _find_doc(tuple(metas), path)) is not None:
        return _Scope({meta.id}, {}, "")
    rel = reader.safe_path(path).rstrip("/")
    docs, clauses = set(), dict[str, set[str]]()
    for m in metas:
        if any(_under(rel, r) or _under(r, rel) for r in _doc_roots(m)):
            docs.add(m.id)
        for s in m.sections:
            if s.path == rel:
                keys = {c.id for c in s.clauses} | {s.clause or f"«{s.title}»"}
                clauses.setdefault(m.id, set()).update(keys)
    return _Scope(docs, clauses, rel)


def _texts(root: Path, commit: str, meta: DocMeta) -> dict[str, str]:
    entry = meta.entry
    if entry.endswith("/subindex.md"):
        raw = gitrepo.read_tree(root, commit, posixpath.dirname(entry), ".md")
    else:
        raw = {s.path: gitrepo.read(root, s.path, commit) for s in meta.sections}
    return {p: v.decode("utf-8") for p, v in raw.items()}


def _units(root: Path, commit: str, meta: DocMeta) -> dict[str, Unit]:
    return doc_units(meta, _texts(root, commit, meta))


def _edition_changes(a: DocMeta, b: DocMeta) -> dict[str, list[Any]]:
    ea, eb = (m.edition if isinstance(m.edition, dict) else {} for m in (a, b))
    return {k: [ea.get(k), eb.get(k)] for k in sorted(set(ea) | set(eb)) if ea.get(k) != eb.get(k)}


def _section_moves(a: DocMeta, b: DocMeta) -> tuple[list[str], list[str], list[list[str]]]:
    """Section files added, removed and renamed, matching sections by clause (or title) and rank."""

    def keyed(meta: DocMeta) -> dict[tuple[str, int], str]:
        seen: dict[str, int] = {}
        out = {}
        for s in meta.sections:
            key = s.clause or s.title
            seen[key] = seen.get(key, 0) + 1
            out[(key, seen[key])] = s.path
        return out

    ka, kb = keyed(a), keyed(b)
    moved = [[ka[k], kb[k]] for k in ka if k in kb and ka[k] != kb[k]]
    return [kb[k] for k in kb if k not in ka], [ka[k] for k in ka if k not in kb], moved


def _doc_change(
    root: Path, commits: tuple[str, str], pair: tuple[DocMeta | None, DocMeta | None], scope: _Scope
) -> DocChange | None:
    a, b = pair
    meta = b or a
    assert meta is not None
    if a is None or b is None:
        status = "added" if a is None else "removed"
        return DocChange(meta.id, meta.title, status, meta.meta_path)
    units_a, units_b = _units(root, commits[0], a), _units(root, commits[1], b)
    changes = compare(units_a, units_b, scope.clauses.get(meta.id))
    source = [a.source.file, b.source.file] if a.source.sha256 != b.source.sha256 else []
    added, removed, moved = _section_moves(a, b)
    edition = _edition_changes(a, b)
    if not (changes or source or edition or added or removed or moved) and a.title == b.title:
        return None
    return DocChange(b.id, b.title, "changed", b.meta_path, edition, source, added, removed, moved, changes)


def diff(root: Path, rev_a: str, rev_b: str, path: str | None = None) -> ShelfDiff:
    """What changed between two commits: documents, their edition fields and, clause by clause, their text.

    Args:
        root: the shelf.
        rev_a: the older commit, tag or branch (refs beginning with '-' are refused).
        rev_b: the newer one.
        path: limit to a document id, a document's files or folder, a section file (only the
            clauses that section holds on either side) or any folder.

    Raises:
        UnknownCommitError: a ref Git does not know.
    """
    commit_a, commit_b = gitrepo.resolve(root, rev_a), gitrepo.resolve(root, rev_b)
    changed = gitrepo.changed_paths(root, commit_a, commit_b)
    side_a = {m.id: m for m in metas_at(root, commit_a)}
    side_b = {m.id: m for m in metas_at(root, commit_b)}
    scope = _scope(path, [*side_b.values(), *side_a.values()])
    if (
        scope.prefix
        and not scope.docs
        and not any(gitrepo.kind_at(root, c, scope.prefix) for c in (commit_a, commit_b))
    ):
        # A typo must not read as "nothing changed" to an investigator.
        raise SectionNotFoundError(f"{path!r} names no file, folder or document at either commit.", path=path)
    documents = []
    for doc_id in sorted(set(side_a) | set(side_b)):
        a, b = side_a.get(doc_id), side_b.get(doc_id)
        roots = [r for m in (a, b) if m for r in _doc_roots(m)]
        if scope.docs is not None and doc_id not in scope.docs:
            continue
        if not any(_under(p, r) for p in changed for r in roots):
            continue
        if (change := _doc_change(root, (commit_a, commit_b), (a, b), scope)) is not None:
            documents.append(change)
    owned = [r for m in (*side_a.values(), *side_b.values()) for r in _doc_roots(m)]
    other = sorted(
        p
        for p in changed
        if not any(_under(p, r) for r in owned)
        and (scope.prefix is None or (scope.prefix != "" and _under(p, scope.prefix)))
    )
    return ShelfDiff(rev_a, rev_b, commit_a, commit_b, path, documents, other)


# --- investigators ------------------------------------------------------------------------------


def text_at(root: Path, commit: str, path: str, *, sha256: str | None = None) -> str:
    """The exact text of ``path`` at ``commit``, as the server read it; ``path#clause`` gives one clause.

    Args:
        root: the shelf.
        commit: the commit of an audit record (or any ref).
        path: a shelf path from the record, optionally with ``#ч. 3``-style clause.
        sha256: the section's sha256 from a fetch result; checked when given.

    Raises:
        ShelfError: the text does not have that sha256.
        SectionNotFoundError / CitationError: no such file or clause at that commit.
    """
    sha = gitrepo.resolve(root, commit)
    rel, _, clause = path.partition("#")
    rel = reader.safe_path(rel)
    text = gitrepo.read(root, rel, sha).decode("utf-8")
    if sha256 is not None and hashlib.sha256(text.encode("utf-8")).hexdigest() != sha256:
        raise ShelfError(f"{rel} at {sha[:12]} does not have sha256 {sha256[:12]}…: the record names another text.")
    if clause.strip():
        target = resolve_ref(root, f"{rel}#{clause}", sha)[0]
        return text[target.start : target.end]
    return text


def audit_texts(root: Path, record: dict[str, Any]) -> dict[str, str]:
    """The texts an audited tool call returned: ``{path: text}`` at the record's commit.

    For ``fetch`` it is the page the model saw (``start`` / ``max_chars`` of the call's arguments,
    with the same default as the server); for other tools the whole files named in ``paths``.
    """
    commit = record.get("commit")
    if not commit:
        raise ShelfError("The audit record has no commit: the call failed before it read the shelf.")
    args = record.get("arguments") or {}
    out = {}
    for p in record.get("paths") or []:
        text = text_at(root, str(commit), str(p))
        if record.get("tool") == "fetch":
            start = int(args.get("start") or 0)
            text = text[start : start + int(args.get("max_chars") or DEFAULT_MAX_CHARS)]
        out[str(p)] = text
    return out
