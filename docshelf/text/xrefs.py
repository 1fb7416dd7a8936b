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
from docshelf.shelf.reader import metas_at
from docshelf.text.citations import find_document, resolve_ref

_RU_KIND = r"(?:пункт|подпункт|част|стать|приложени|раздел|глав|абзац)[а-яё]*"
_RU_NUMBER = r"(?:(?:N|№)\s*)?(?:«[а-яё]»|\d+(?:\.\d+)*(?:-\d+)?(?:\(\d+\))?|[IVXLC]+\b)"
_RU = re.compile(rf"(?<![\w-]){_RU_KIND}\s+{_RU_NUMBER}(?:,?\s+{_RU_KIND}\s+{_RU_NUMBER})*", re.IGNORECASE)
_EN = re.compile(
    r"(?<![\w-])(?:Section|§|Article|Appendix|Annex|Chapter)\s*"
    r"(?:[A-Z](?:\.\d+)*|\d+(?:\.\d+)*)(?:\(\w{1,4}\))*(?![\w-])"
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
    return tuple(out)


__all__ = ["Reference", "references"]
