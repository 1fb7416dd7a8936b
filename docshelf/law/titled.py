"""Unnumbered headings as clauses: a manual's chapters kept in one file, cited by their titles.

:func:`law.clauses.section_clauses` opens one at an unnumbered heading printed once in the document
(«Configuring Storage») and closes it at the next heading of its level or above. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docshelf.law import numbering
from docshelf.records import Clause

_TITLE = re.compile(r"^[^\W\d_][^«»/\\|<>{}=]*$")  # a word first; no path, markup or guillemets inside
_TITLE_CHARS = 80
_TITLE_WORDS = 10


@dataclass
class Titled:
    level: int
    id: str
    start: int
    text: bool = False  # holds text that no label inside it addresses


class TitledHeadings:
    """The unnumbered headings printed once in a document, open inside one file (a manual's chapters): each
    is a clause «‹title›» up to the next heading of its level or above — where it holds text of its own, so
    a heading over labelled blocks only («Protect (PR)» over «PR.AC-1» …) adds no address that depends on
    whether the converter saw it as a heading."""

    def __init__(self, markdown: str) -> None:
        self.markdown = markdown
        self.open: list[Titled] = []

    def opens(self, heading: str, level: int, start: int) -> None:
        """Open the heading's clause when it reads as a title one can cite: short words, not a command line
        a manual sets in display type («dnssec-coverage -d 2h -m 1d …»)."""
        bare = " ".join(heading.replace("*", "").split())
        if _TITLE.match(bare) and len(bare) <= _TITLE_CHARS and len(bare.split()) <= _TITLE_WORDS:
            self.open.append(Titled(level, f"«{bare}»", start))

    def holds_text(self) -> None:
        for t in self.open:
            t.text = True

    def close(self, level: int, at: int) -> list[Clause]:
        out = []
        while self.open and self.open[-1].level >= level:
            t = self.open.pop()
            if t.text:
                out.append(Clause(t.id, t.start, numbering.trim_end(self.markdown, at)))
        return out
