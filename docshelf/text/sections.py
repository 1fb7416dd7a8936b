"""The sections a search index holds: read from one commit's Git objects, never the work tree.

A document is its ``docs/….meta.json`` plus the section files the meta lists. :func:`read_sections`
reads the whole shelf (a full build); :func:`read_documents` reads only the named metas (an index
derived from its parent's re-reads only the documents a commit changed).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docshelf.errors import SectionNotFoundError
from docshelf.records import DocMeta
from docshelf.shelf import gitrepo
from docshelf.text.normalize import normalize_text

META_SUFFIX = ".meta.json"
DOCS = "docs"

_APPARATUS_WORDS = (
    r"(?:содержание|оглавление|предисловие|библиография|список литературы|(?:нормативные )?ссылки|"
    r"история изменений|лист регистрации изменений|(?:table of )?contents|preface|foreword|acknowledg\w*|"
    r"copyright\w*(?: notice)?|(?:informative |normative )?references|bibliography|change ?log|revision history|"
    r"document history|status of this memo|title page|front matter)"
)
# The title is the apparatus word, maybe numbered, maybe after the document's own title («Сборник Предисловие»).
_APPARATUS = re.compile(rf"^(?:[\W\d]*|.*\s){_APPARATUS_WORDS}[\W\d]*$", re.IGNORECASE)
_APPARATUS_HINT = re.compile(_APPARATUS_WORDS.replace(" ", r"\s+"), re.IGNORECASE)


_LEADER_LINE = re.compile(r"(?:\.\s?){4,}\s*[\dIVXivx]+\s*$|…{2,}\s*\d+\s*$")  # «4.3. UPDATE ....... 21»
LEADER_SHARE = 0.5  # of a section's text lines: above it the section is a contents listing


def is_apparatus(title: str, text: str = "") -> bool:
    """Whether a section is front matter, contents, a preface, a change log or a reference list.

    By its title, or by its text: a section whose lines are mostly contents entries (dot leaders and a
    page number) is a contents listing whatever its title (a document's title page runs into its
    contents in many RFCs and standards).
    """
    # Most titles hold none of the words: they are not normalized.
    if _APPARATUS_HINT.search(title) and _APPARATUS.match(normalize_text(title)):
        return True
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith((">", "#"))]
    leaders = sum(1 for ln in lines if _LEADER_LINE.search(ln))
    return leaders >= 3 and leaders > LEADER_SHARE * len(lines)


def title_key(title: str) -> str:
    """A title as compared across documents: case, ё and spacing folded (cheap: asked for every candidate)."""
    return " ".join(title.casefold().replace("ё", "е").split())


@dataclass(frozen=True)
class SectionRow:
    """One section as the index stores it."""

    path: str
    title: str
    clause: str
    groups: list[str]
    pages: list[int]
    clauses: list[list[Any]]  # [clause id, start, end] into text (the meta's clause table)
    doc_id: str
    doc_title: str
    category: str
    edition: dict[str, str]
    text: str
    continued: bool = False  # a later part of the clause the section before it began («ст. 22», ч. 4–6)
    meta_path: str = ""  # the meta the section belongs to: an index updates documents as wholes


def is_meta(path: str) -> bool:
    return path.startswith(DOCS + "/") and path.endswith(META_SUFFIX)


def document_rows(meta_path: str, meta: DocMeta, read: Callable[[str], bytes | None]) -> list[SectionRow]:
    """The sections one meta lists, in meta order; ``read`` gives a file's bytes or None when missing."""
    edition = dict(meta.edition) if isinstance(meta.edition, dict) else {}
    doc = (meta.id, meta.title, meta.category, edition)
    rows, before = [], ""
    for s in meta.sections:
        data = read(s.path)
        if data is None:
            continue  # a meta naming a missing file: `docshelf check` reports it
        head = (s.path, s.title, s.clause, list(s.groups))
        pages, clauses, text = list(s.pages), [c.to_json() for c in s.clauses], data.decode("utf-8")
        continued = bool(head[2]) and head[2] == before
        rows.append(SectionRow(*head, pages, clauses, *doc, text, continued=continued, meta_path=meta_path))
        before = head[2]
    return rows


def listed_paths(meta: DocMeta) -> list[str]:
    """Every section path a meta names, present or not (a missing one may appear in a later commit)."""
    return [s.path for s in meta.sections]


Document = tuple[list[str], list[SectionRow]]  # the paths a meta lists, and its sections present


def read_shelf(root: Path, commit: str) -> dict[str, Document]:
    """Every document of the shelf at ``commit`` by meta path, read through one repository handle."""
    blobs = gitrepo.read_tree(root, commit, DOCS)
    out = {}
    for meta_path in sorted(p for p in blobs if p.endswith(META_SUFFIX)):
        meta = DocMeta.loads(blobs[meta_path])
        out[meta_path] = (listed_paths(meta), document_rows(meta_path, meta, blobs.get))
    return out


def read_sections(root: Path, commit: str) -> list[SectionRow]:
    """Every section of the shelf at ``commit``, read from Git objects, in meta order."""
    return [row for _listed, rows in read_shelf(root, commit).values() for row in rows]


def _read_or_none(root: Path, commit: str, path: str) -> bytes | None:
    try:
        return gitrepo.read(root, path, commit)
    except SectionNotFoundError:
        return None


def read_documents(root: Path, commit: str, meta_paths: Iterable[str]) -> dict[str, Document]:
    """Per meta that exists at ``commit``: the paths it lists and its sections (absent metas are left out)."""
    out = {}
    for meta_path in sorted(set(meta_paths)):
        data = _read_or_none(root, commit, meta_path)
        if data is None:
            continue
        meta = DocMeta.loads(data)
        out[meta_path] = (listed_paths(meta), document_rows(meta_path, meta, lambda p: _read_or_none(root, commit, p)))
    return out
