"""Pinned reads: the index and sections of one commit, read from Git objects, never the work tree.

These functions are what the CLI read commands and the MCP tools both call; their results are
declared in ``docshelf.results``. ``at`` may be any ref; a caller that already resolved one passes
the full sha, which ``gitrepo.resolve`` trusts without a second lookup.
"""

from __future__ import annotations

import difflib
import hashlib
import posixpath
import re
from datetime import date
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote

from docshelf.errors import PathOutsideShelfError, SectionNotFoundError
from docshelf.law.editions import fetch_warning, has_edition, meta_status
from docshelf.model import DEFAULT_MAX_CHARS
from docshelf.records import CATEGORY_PAGES, DocMeta, SectionMeta
from docshelf.results import FetchResult, IndexPage
from docshelf.shelf import gitrepo

_SHELF_ABSOLUTE = re.compile(r"^/(?:docs/|index\.md$)")
_READABLE = re.compile(r"^(?:index\.md|docs/[^\x00]+\.md)$")


@lru_cache(maxsize=32)
def metas_at(root: Path, commit: str) -> tuple[DocMeta, ...]:
    """Every document meta of one commit (commits never change, so this is cached)."""
    files = gitrepo.read_tree(root, commit, "docs", ".meta.json")
    return tuple(DocMeta.loads(files[p]) for p in sorted(files))


@lru_cache(maxsize=32)
def _dated_metas(root: Path, commit: str) -> tuple[DocMeta, ...]:
    """The metas of one commit that record an edition (most record none): all a status can come from."""
    return tuple(m for m in metas_at(root, commit) if has_edition(m))


@lru_cache(maxsize=1024)
def _related_ids(root: Path, commit: str, folder: str) -> frozenset[str]:
    """The documents a subindex folder shows, once per commit and folder (not a scan of every meta a call)."""
    return frozenset(m.id for m in metas_at(root, commit) if _related(folder, m.entry))


def _statuses(metas: tuple[DocMeta, ...], ids: frozenset[str] | None, as_of: date | None) -> list[dict[str, str]]:
    """Edition statuses a model must see next to the index: every document that is not plainly in force.
    ``metas``: the commit's metas that record an edition (``_dated_metas``)."""
    out = []
    for meta in metas:
        if ids is None or meta.id in ids:
            st = meta_status(meta, as_of)
            if not st.in_force or st.valid_to:
                out.append({"id": meta.id, "status": st.code, "label": st.label, "entry": meta.entry})
    return out


def safe_path(path: str) -> str:
    """A shelf-relative POSIX path, or PathOutsideShelfError: no '..', absolute, encoded or NUL tricks."""
    raw = path
    for _ in range(3):  # %252e%252e: decode repeatedly, then judge what is left
        decoded = unquote(raw)
        if decoded == raw:
            break
        raw = decoded
    if _SHELF_ABSOLUTE.match(raw):  # «/docs/…» as the subindex pages link: the shelf's root, not the disk's
        raw = raw[1:]
    if "\x00" in raw or "\\" in raw or raw.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", raw):
        raise PathOutsideShelfError(
            f"Path {path!r} is not a shelf path. Use a path from the index, e.g. docs/…/subindex.md."
        )
    norm = posixpath.normpath(raw.strip() or "index.md")
    if norm.startswith(("..", "/")) or norm == ".":
        raise PathOutsideShelfError(f"Path {path!r} leaves the shelf. Use a path from the index.")
    return norm


def _doc_dir_index(path: str) -> str:
    """A document folder given instead of a file means its subindex."""
    if path.endswith(".md"):
        return path
    return posixpath.join(path, "subindex.md")


def read_index(root: Path, path: str = "index.md", at: str | None = None, *, as_of: date | None = None) -> IndexPage:
    """The root index, or a document's subindex (its folder or its subindex.md), at ``at``."""
    commit = gitrepo.resolve(root, at)
    rel = _doc_dir_index(safe_path(path))
    if not (rel == "index.md" or rel.endswith("/subindex.md")):
        raise SectionNotFoundError(
            f"{path!r} is not an index. Use index.md or a document's subindex.md; read sections with fetch.",
            path=path,
            commit=commit,
        )
    text = _read(root, rel, commit).decode("utf-8")
    ids = None if rel == "index.md" else _related_ids(root, commit, posixpath.dirname(rel))
    return IndexPage(
        commit=commit,
        path=rel,
        text=text,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        as_of=(as_of or date.today()).isoformat(),
        statuses=_statuses(_dated_metas(root, commit), ids, as_of),
    )


def shown_index(page: IndexPage) -> str:
    """The page as a reader is shown it: the status of each document not plainly in force beside its entry
    (root index) and in its header (its subindex). The stored page stays as it is (``rebuild`` reproduces it,
    ``sha256`` proves it): a status depends on the day it is read."""
    if not page.statuses:
        return page.text
    lines = page.text.split("\n")
    for st in page.statuses:
        mark = f" · **{st['label']}**"
        links = (f"]({st['entry']})", f"](/{st['entry']})")
        header = f"> {st['id']}"
        for i, line in enumerate(lines):
            if any(link in line for link in links) or line == header or line.startswith(header + " · "):
                lines[i] = line + mark
    return "\n".join(lines)


def _read(root: Path, rel: str, commit: str) -> bytes:
    """The file at the commit; when it is not there, the error names the nearest paths that are."""
    try:
        return gitrepo.read(root, rel, commit)
    except SectionNotFoundError as exc:
        wanted = ("subindex.md",) if rel.endswith("subindex.md") else (".md",)
        paths = [p for p in gitrepo.list_files(root, commit, "docs") if p.endswith(wanted) and p != rel]
        # The same document's files first: a renumbered section is its neighbour, not another law's.
        home = posixpath.dirname(rel) + "/"
        own = [p for p in paths if p.startswith(home)]
        near = difflib.get_close_matches(rel, own, n=3, cutoff=0.3) or difflib.get_close_matches(
            rel, paths, n=3, cutoff=0.6
        )
        if not near:
            raise
        raise SectionNotFoundError(f"{exc} Nearest: {', '.join(near)}.", path=rel, commit=commit) from exc


def _related(folder: str, entry: str) -> bool:
    """A subindex folder shows a document: its own, one of its chapter pages, or its category page (a range
    page of a big category counts as the category's: the statuses shown are only those of its links)."""
    folder = folder.split(f"/{CATEGORY_PAGES}/", 1)[0]
    home = posixpath.dirname(entry)
    return folder == home or folder.startswith(home + "/") or entry.startswith(folder + "/")


@lru_cache(maxsize=32)
def _sections_at(root: Path, commit: str) -> dict[str, tuple[DocMeta, SectionMeta]]:
    """Section path -> (its document, its record) for one commit, built once from the cached metas."""
    return {s.path: (m, s) for m in metas_at(root, commit) for s in m.sections}


def section_record(root: Path, commit: str, path: str) -> tuple[DocMeta, SectionMeta] | None:
    """The document listing section ``path`` at ``commit`` and the section's record (a dictionary lookup)."""
    return _sections_at(root, commit).get(path)


def _meta_for(root: Path, path: str, commit: str) -> tuple[DocMeta | None, SectionMeta | None]:
    """The meta of the document holding ``path`` and the section record, if any."""
    if (found := _sections_at(root, commit).get(path)) is not None:
        return found
    # A file no meta lists as a section (a hand-added page): the document whose files hold it.
    # A whole short document: docs/c/doc.md → docs/c/doc.meta.json; a section: docs/c/doc/x.md → docs/c/doc.meta.json.
    owners = {m.meta_path: m for m in metas_at(root, commit)}
    for cand in (path.removesuffix(".md") + ".meta.json", posixpath.dirname(path) + ".meta.json"):
        if cand in owners:
            return owners[cand], None
    return None, None


def fetch(
    root: Path,
    path: str,
    at: str | None = None,
    *,
    start: int = 0,
    max_chars: int = DEFAULT_MAX_CHARS,
    as_of: date | None = None,
) -> FetchResult:
    """One section (or a whole short document) at ``at``, paged by characters."""
    if start < 0 or max_chars <= 0:
        raise ValueError("start must be ≥ 0 and max_chars > 0.")
    commit = gitrepo.resolve(root, at)
    rel = safe_path(path)
    if not _READABLE.match(rel) or rel.endswith("subindex.md") or rel == "index.md":
        raise SectionNotFoundError(
            f"{path!r} is not a section. Sections are docs/…/NNN-slug.md files listed in a subindex; "
            "read indexes with read_index.",
            path=path,
            commit=commit,
        )
    asked, note = rel, ""
    try:
        text = _read(root, rel, commit).decode("utf-8")
    except SectionNotFoundError:
        moved = moved_section(root, rel, commit)
        if moved is None:
            raise
        rel, note = moved
        text = _read(root, rel, commit).decode("utf-8")
    meta, section = _meta_for(root, rel, commit)
    chunk = text[start : start + max_chars]
    end = start + len(chunk)
    return FetchResult(
        commit=commit,
        path=rel,
        title=(section.title if section else "") or (meta.title if meta else ""),
        doc_id=meta.id if meta else "",
        clauses=[section.clause] if section and section.clause else [],
        pages=list(section.pages) if section else [],
        text=chunk,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        start=start,
        next_start=end if end < len(text) else None,
        total_chars=len(text),
        edition=meta.edition if meta and isinstance(meta.edition, dict) else {},
        status=meta_status(meta, as_of).to_dict() if meta and has_edition(meta) else {},
        warning=fetch_warning(meta, as_of, metas_at(root, commit)) if meta else None,
        moved_from=asked if asked != rel else "",
        note=note,
    )


def moved_section(root: Path, path: str, commit: str) -> tuple[str, str] | None:
    """A section path of an earlier commit that ``commit`` lacks (a new edition renumbered the files): the
    section of the same document holding the same clause now (its title, for a section without one), and
    a note saying so; None when the path never existed or its clause is gone."""
    if not _READABLE.match(path) or gitrepo.kind_at(root, commit, path) is not None:
        return None
    before = gitrepo.last_having(root, path, commit)
    old = _sections_at(root, before).get(path) if before else None
    if before is None or old is None:
        return None
    meta, section = old
    now = [m for m in metas_at(root, commit) if m.id == meta.id] or [
        m for m in metas_at(root, commit) if m.meta_path == meta.meta_path
    ]
    same = [s for m in now for s in m.sections if (s.clause, s.title) == (section.clause, section.title)]
    same += [s for m in now for s in m.sections if section.clause and s.clause == section.clause]
    if not same:
        return None
    what = f"{meta.id} {section.clause or '«' + section.title + '»'}"
    note = (
        f"{path} is the path of {what} at {before[:12]}; at this commit that section is {same[0].path} "
        "(read here). Cite the new path."
    )
    return same[0].path, note
