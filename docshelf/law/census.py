"""A document's census of id labels: which ones it prints at block starts, in all its sections at once.

A section is read alone (:func:`law.clauses.section_clauses`), but the evidence that makes a label a numbering
may stand in another section: «V1 Architecture …» heads one file and «V2 Authentication» the next, «T1059 …»
heads a file whose sub-techniques «T1059.001» fill the files after it. The census lists, for the whole
document, the labels of id series — read by their shape (:mod:`law.shapes`: «T1059.001», «AC.L2-3.1.3») or a
family's «AC-2» — so that a label is taken for a numbering when a neighbour in its series or a label nested in
it is printed anywhere, and a label printed :data:`law.shapes.REPEATS` times or more is a code the document
repeats («P1» of every control's priority line), not a place. The build and the address measure ask the same
census. Pure: text in, sets out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from docshelf.law.numbering import BLOCK, Label, block_labels
from docshelf.law.shapes import GENERIC, REPEATS, near_series

_ID_DASH_STYLE = re.compile(r"[XЯ]+(?:\.[XЯ]+)*-n")  # a family's «AC-n», «PR.AC-n»
_HEADING = re.compile(r"^#+\s+")


def id_like(style: str) -> bool:
    """A label of an id series, read by its shape or a family's «AC-2»: not a list number or a point."""
    return style.startswith(GENERIC) or _ID_DASH_STYLE.fullmatch(style) is not None


GAP = 10  # a numbering stepping by tens leaves at most this much between two labels printed


@dataclass(frozen=True)
class Census:
    series: dict[tuple[str, int], frozenset[str]] = field(default_factory=dict)  # (style, value) → series
    atoms: frozenset[str] = frozenset()
    containers: frozenset[str] = frozenset()  # labels some printed label nests under
    codes: frozenset[str] = frozenset()  # labels read by their shape printed REPEATS times or more

    @classmethod
    def of(cls, labels: Sequence[Label]) -> Census:
        """The census of the labels a document's blocks open with (each block's first reading)."""
        ids = [x for x in labels if id_like(x.style)]
        series: dict[tuple[str, int], set[str]] = {}
        for x in ids:
            series.setdefault((x.style, x.value), set()).add(x.parent)
        counts = Counter(x.atom for x in ids if x.style.startswith(GENERIC))
        return cls(
            {k: frozenset(v) for k, v in series.items()},
            frozenset(x.atom for x in ids),
            frozenset(x.container for x in ids if x.container),
            frozenset(atom for atom, k in counts.items() if k >= REPEATS),
        )

    def neighbour(self, label: Label, step: int) -> bool:
        """Whether the label ``step`` away in ``label``'s series is printed (a level in the id may change)."""
        return any(near_series(p, label.parent) for p in self.series.get((label.style, label.value + step), ()))

    def between(self, label: Label, span: int = GAP) -> bool:
        """Whether the series prints a label below ``label`` and one above it, each within ``span``: a numbering
        that steps by tens («REQ-SYS-021», «REQ-SYS-030» alone in its section, «REQ-SYS-040»), not a list of
        references whose numbers lie thousands apart («[RFC2119]», «[RFC5280]»)."""
        return any(self.neighbour(label, -d) for d in range(1, span + 1)) and any(
            self.neighbour(label, d) for d in range(1, span + 1)
        )

    def evidenced(self, label: Label) -> bool:
        """Whether an id label is a numbering's: not a code, and a neighbour or nesting is printed either way.
        Labels of other kinds are judged elsewhere: True."""
        if not id_like(label.style):
            return True
        if label.atom in self.codes:
            return False
        nested = label.atom in self.containers or label.container in self.atoms
        return self.neighbour(label, -1) or self.neighbour(label, 1) or nested or self.between(label)


def census(texts: Iterable[str]) -> Census:
    """The census of a document's sections (their Markdown): every block's label, a heading's too."""
    return Census.of(
        [
            labels[0]
            for text in texts
            for m in BLOCK.finditer(text)
            if (labels := block_labels(_HEADING.sub("", m.group(0))))
        ]
    )


__all__ = ["Census", "census", "id_like"]
