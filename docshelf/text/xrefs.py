"""Cross-references: what a section's text cites — its own document's clauses or another document's — with
the address each one points to.

Acts cite themselves all the time («в соответствии с частью 3 статьи 10 настоящего Федерального
закона», «согласно приложению № 1», «see Section 4.2», «Article 5(1)»), and other acts («статьи 6
Федерального закона "О персональных данных"»). The text stays verbatim; beside it, ``fetch`` returns
each reference it could read with its target (document, clause, section path) at the same commit,
read by the same citation resolver as ``verify_quote`` (:mod:`text.citations`), and the web desk shows
them as links. A phrase the resolver cannot read completely is left out, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from docshelf.errors import DocShelfError
from docshelf.law.grammar import blank_editorial
from docshelf.records import DocMeta
from docshelf.shelf.reader import metas_at
from docshelf.text.citations import find_document, resolve_ref

_RU_KIND = r"(?:пункт|подпункт|част|стать|приложени|раздел|глав|абзац)[а-яё]*"
_RU_NUMBER = r"(?:(?:N|№)\s*)?(?:«[а-яё]»|\d+(?:\.\d+)*(?:-\d+)?(?:\(\d+\))?|[IVXLC]+\b)"
_RU = re.compile(rf"(?<![\w-]){_RU_KIND}\s+{_RU_NUMBER}(?:,?\s+{_RU_KIND}\s+{_RU_NUMBER})*", re.IGNORECASE)
_EN = re.compile(
    r"(?<![\w-])(?:Section|§|Article|Appendix|Annex|Chapter)\s*"
    r"(?:[A-Z](?:\.\d+)*|\d+(?:\.\d+)*)(?:\(\w{1,4}\))*(?![\w-])"
)
# An id a catalogue's text names another of its clauses by («Related controls: AC-3, AC-5», «see T1059.001»,
# «мера УПД.1»): letters and digits joined by «.», «-» or «:», a bracketed enhancement after it; not at a line's
# start, where a block prints its own label.
_ID = re.compile(
    r"(?<![\w.\-/])[A-ZА-ЯЁ][A-Za-zА-Яа-яЁё0-9]*(?:[.\-:][A-Za-zА-Яа-яЁё0-9]+)+(?:\s?\(\d{1,2}\))?(?![\w\-])"
)
_WINDOW = 90  # characters after a reference where the document it cites is named, if another one
_HEADING_LINE = re.compile(r"(?m)^#[^\n]*")
_OWN = re.compile(r"\s*(?:настоящ|of this|of the present)", re.IGNORECASE)


@dataclass(frozen=True)
class Reference:
    text: str
    start: int
    end: int
    doc_id: str
    clause: str
    path: str
    level: str

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def references(root: Path, commit: str, doc_id: str, text: str) -> list[Reference]:
    """Every reference of ``text`` (a section of ``doc_id``) that resolves at ``commit``, in order."""
    return list(_references(root, commit, doc_id, text))


@lru_cache(maxsize=512)
def _references(root: Path, commit: str, doc_id: str, text: str) -> tuple[Reference, ...]:
    metas = metas_at(root, commit)
    own = next((m for m in metas if m.id == doc_id), None)
    if own is None:
        return ()
    # Breadcrumbs, publisher notes and headings («# Статья 5») are not references the act makes.
    plain = _HEADING_LINE.sub(lambda h: " " * len(h.group(0)), blank_editorial(text))
    pattern = _EN if own.english else _RU
    out: list[Reference] = []
    for m in pattern.finditer(plain):
        phrase = m.group(0).strip()
        ref = f"{own.id} {phrase}"
        head = re.split(r"[.;:\n](?:\s|$)", plain[m.end() : m.end() + _WINDOW], maxsplit=1)[0]
        if not _OWN.match(head):  # «… настоящего Федерального закона», «… of this part»: the document itself
            other = find_document(metas, head)[0]
            if other is not None and other.id != own.id:
                ref = f"{phrase} {other.id}"
        try:
            found = resolve_ref(root, ref, commit)
        except DocShelfError:
            continue
        if found.level == "document" or not found.targets:
            continue
        target = found.targets[0]
        end = m.start() + len(phrase)
        out.append(Reference(phrase, m.start(), end, found.doc_id, found.clause, target.path, found.level))
    out.extend(_id_mentions(root, commit, own, plain, {r.start for r in out}))
    return tuple(sorted(out, key=lambda r: r.start))


def _id_mentions(root: Path, commit: str, own: DocMeta, plain: str, taken: set[int]) -> list[Reference]:
    """The document's own ids its text names («AC-3», «T1059.001»): each that is a clause id of the document
    carrying its whole address, with its target."""
    ids = _standalone_ids(root, commit, own.id)
    out: list[Reference] = []
    for m in _ID.finditer(plain):
        phrase = m.group(0).rstrip(".:")
        cid = phrase.replace(" (", "(")
        if m.start() in taken or cid not in ids or plain[: m.start()].rstrip(" *|").endswith("\n"):
            continue  # not a clause id of its own, or a block's own label at its start
        try:
            found = resolve_ref(root, f"{own.id} {cid}", commit)
        except DocShelfError:
            continue
        if found.level == "clause" and found.targets:
            end = m.start() + len(phrase)
            out.append(Reference(phrase, m.start(), end, own.id, found.clause, found.targets[0].path, found.level))
    return out


@lru_cache(maxsize=64)  # read once per document and commit, not once per section fetched
def _standalone_ids(root: Path, commit: str, doc_id: str) -> frozenset[str]:
    """The clause ids of a document that carry their whole address: no space, a letter and a digit in them."""
    ids = (c.id for m in metas_at(root, commit) if m.id == doc_id for s in m.sections for c in s.clauses)
    return frozenset(cid for cid in ids if " " not in cid and _LETTER.search(cid) and _DIGIT.search(cid))


_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")


__all__ = ["Reference", "references"]
