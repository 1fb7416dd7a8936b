"""A document that says of itself that it is no longer in force, while its meta says nothing.

Legal databases print «Утратил силу - Федеральный закон от 03.06.2006 г. N 73-ФЗ» above a repealed
code; NIST marks a superseded publication «This publication has been withdrawn». Without a
``valid_to`` in the meta, DocShelf cannot warn a reader that the text is not the law in force, so
``add`` says what it read and which flags record it. Only the opening lines count: inside an act
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


def repeal_notice(opening: Iterable[str], edition: Mapping[str, Any] | object) -> str | None:
    """A warning when the document's own opening says it lost force and no ``valid_to`` is recorded."""
    if isinstance(edition, Mapping) and edition.get("valid_to"):
        return None
    for line in (ln for text in opening for ln in text.splitlines()):
        if _SAYS_REPEALED.match(line):
            said = " ".join(line.split())[:160]
            return (
                f"edition: the document says «{said}», but no end of force is recorded, so readers are not "
                "warned; record it: docshelf add FILE --valid-to YYYY-MM-DD (the first day it is no longer "
                'in force) and --replaced-by ID (or "ext:ID" for an act not on the shelf).'
            )
    return None
