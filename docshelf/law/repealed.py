"""A document that says of itself that it is no longer in force, while its meta says nothing.

Legal databases print «Утратил силу - Федеральный закон от 03.06.2006 г. N 73-ФЗ» above a repealed
code; NIST marks a superseded publication «This publication has been withdrawn». Without a
``valid_to`` in the meta, DocShelf does not know when it stopped: ``add`` records the statement
(``edition.stated_repealed``), so every reader is told the document «states it is no longer in force
(date not recorded)», and warns which flags record the date. Only the opening lines count: inside an act
«Статья 10.2. Утратила силу.» repeals one article, not the document.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

OPENING_LINES = 8  # blocks of the document's start that are read: title page, status line, header
_SAYS_REPEALED = re.compile(
    r"^\W*(?:(?:документ|закон|кодекс|постановление|приказ)\s+)?утратил[аио]?\s+силу\b"
    r"|^\W*this (?:publication|document|standard) (?:has been|was|is) (?:withdrawn|superseded)\b",
    re.IGNORECASE,
)


def stated_repeal(opening: Iterable[str]) -> str | None:
    """The line of the document's opening that says it lost force («Утратил силу - …»), or None."""
    for line in (ln for text in opening for ln in text.splitlines()):
        if _SAYS_REPEALED.match(line):
            return " ".join(line.split())[:160]
    return None


def repeal_notice(said: str | None, edition: Mapping[str, Any] | object) -> str | None:
    """A warning when the document's own opening says it lost force and no ``valid_to`` is recorded."""
    if said is None or (isinstance(edition, Mapping) and edition.get("valid_to")):
        return None
    return (
        f"edition: the document says «{said}», but no end of force is recorded; readers are told it states "
        "it is no longer in force (date not recorded). Record the date: docshelf add FILE --valid-to "
        'YYYY-MM-DD (the first day it is no longer in force) and --replaced-by ID (or "ext:ID" for an act '
        "not on the shelf)."
    )
