"""A document's title: the lines its cover or first page sets in display type, else its metadata.

Where neither holds one the file name stands in, and the build says so: «ФЗ152» tells a model choosing
at the root nothing. A title is always one line.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from docshelf.build.structure import LARGE_SIZE, SENTENCE_END, WORDS, Heading, plain
from docshelf.law.docids import register_subject
from docshelf.model import Block

_NOT_TITLE = re.compile(
    r"^(Abstract|Status of This Memo|Copyright|Table of Contents|Contents|Internet-Draft|Network Working Group|"
    r"Request for Comments|RFC:?\s*\d+|Оглавление|Содержание|This document is subject to|"
    r"This Internet-Draft is|Утратил[аои]? силу|Утвержден[аоы]?|Документ предоставлен)\b|"
    r".*\b(?:19|20)\d\d$|.*(?:\.\s?){4,}",
    re.IGNORECASE,
)
_LETTER_SPACED = re.compile(r"\b([^\W\d_](?: [^\W\d_]){3,})\b")  # «I N F O R M A T I O N»
_CONTENTS_LINE = re.compile(r"^(?:Table of Contents|Contents|Оглавление|Содержание)\b", re.IGNORECASE)
CONTINUED = 0.8  # a styled line at least this share of the title line's size before it goes on with it
TITLE_CHARS = 400  # a title longer than this has run into the text after it
_BOILERPLATE_TITLE = re.compile(r"^(РОССИЙСКАЯ ФЕДЕРАЦИЯ|ФЕДЕРАЛЬНЫЙ ЗАКОН|ПРАВИТЕЛЬСТВО РОССИЙСКОЙ ФЕДЕРАЦИИ)$")
TitleSource = Literal["given", "document", "metadata", "file name"]


class Title(NamedTuple):
    text: str
    source: TitleSource


def document_title(
    blocks: tuple[Block, ...], headings: list[Heading], *, given: str, metadata: str | None, file_stem: str
) -> Title:
    """The title given with ``--title``, else the document's own (:func:`guess_title`), else a meaningful
    metadata title, else the file name; always on one line (a PDF's metadata title can break its line,
    which would cut the document's entry in index.md in two)."""
    if given:
        return Title(" ".join(given.split()), "given")
    if own := guess_title(blocks, headings, ""):
        return Title(" ".join(own.split()), "document")
    if metadata:  # the converter keeps only a meaningful one (convert.text.meaningful_title)
        return Title(" ".join(metadata.split()), "metadata")
    return Title(" ".join(file_stem.split()), "file name")


def guess_title(blocks: tuple[Block, ...], headings: list[Heading], fallback: str) -> str:
    """The document's title: bold/large lines of its preamble, else its first title-like line, else ``fallback``.

    Not boilerplate («РОССИЙСКАЯ ФЕДЕРАЦИЯ»), a status line («Утратил силу …»), a licence notice or a
    contents line; a line repeated (a cover and a title page) counts once.
    """
    if subject := register_subject(blocks):
        return subject
    first = headings[0].index if headings else len(blocks)
    if _heads_the_rest(blocks, headings):
        # The first heading, set in display type or marked a heading, stands above all the others («Test
        # standard …» over labelled blocks, a Word file's Heading 1 over its Heading 2s): it is the title.
        first = headings[1].index if len(headings) > 1 else len(blocks)
    preamble = [b for b in blocks[:first][:15] if b.kind != "table" and not b.editorial and len(b.text) < 250]
    # the title block ends where the contents begin
    end = next((i for i, b in enumerate(preamble) if _CONTENTS_LINE.match(plain(b.text))), len(preamble))
    styled = [i for i, b in enumerate(preamble[:end]) if _display(b) and _title_like(plain(b.text))]
    if styled:
        lines = list(dict.fromkeys(plain(preamble[i].text) for i in _title_block(preamble, styled)))
        # Letter-spaced words are collapsed in the title (the text keeps them verbatim).
        return _LETTER_SPACED.sub(lambda m: m.group(1).replace(" ", ""), " ".join(lines))
    for b in preamble:  # plain-text standards (RFCs): the first short line that reads like a title
        text = plain(b.text)
        title_like = 2 <= len(text.split()) <= 20 and not text.endswith(SENTENCE_END)
        if title_like and _title_like(text):
            return text
    return fallback


def _heads_the_rest(blocks: tuple[Block, ...], headings: list[Heading]) -> bool:
    """Whether the document opens with a heading without a number, nothing in display type before it, that
    stands above every other heading (they are deeper, or set smaller)."""
    if not headings or headings[0].kind not in ("big", "source") or headings[0].index >= 15:
        return False
    if any(_display(b) for b in blocks[: headings[0].index]):
        return False
    top = headings[0]
    return all(h.level > top.level or blocks[h.index].size < blocks[top.index].size for h in headings[1:])


def _title_block(preamble: list[Block], styled: list[int]) -> list[int]:
    """The positions of the styled lines that are the title, not the agency, authors or banner around it.

    On a cover set in large type the title runs from the first large line to the largest one and on
    through the styled lines right after it that are large or nearly the size of the line before them
    («Application Security Verification Standard» «Version 5.0.0»; «УКАЗ ПРЕЗИДЕНТА …» «О размерах …»);
    a much smaller bold line after it is the next block («JOINT TASK FORCE …», the authors). Where every
    styled line has the body's size (a bold title in a Word or HTML act), the title is the first run of
    styled lines («ОБ УТВЕРЖДЕНИИ ПРАВИЛ» … «ОБЩЕГО ИМУЩЕСТВА В МНОГОКВАРТИРНОМ ДОМЕ»), within
    :data:`TITLE_CHARS`; a short line left out between two of them («от 11 февраля 2013 г. N 17», a
    boilerplate line) does not end it.
    """
    large = [i for i in styled if preamble[i].size >= LARGE_SIZE]
    if large:
        top = max(large, key=lambda i: preamble[i].size)
        block = [i for i in styled if large[0] <= i <= top]
        for i in range(top + 1, len(preamble)):
            size, before = preamble[i].size, preamble[block[-1]].size
            if i not in styled or (size < LARGE_SIZE and size < CONTINUED * before):
                break
            block.append(i)
        return block
    block, chars = [styled[0]], len(preamble[styled[0]].text)
    for i in range(styled[0] + 1, len(preamble)):
        chars += len(preamble[i].text)
        if chars > TITLE_CHARS or _deeper_heading(preamble[styled[0]], preamble[i]):
            break  # «# Guide …» then «## Chapter 1 Introduction»: the first chapter, not more of the title
        if i in styled:
            block.append(i)
        elif not (_display(preamble[i]) or (len(preamble[i].text) <= 80 and i + 1 in styled)):
            break
    return block


def _deeper_heading(first: Block, later: Block) -> bool:
    return first.kind == later.kind == "heading" and 0 < first.level < later.level


def _display(b: Block) -> bool:
    return b.bold or b.size >= LARGE_SIZE or b.kind == "heading"


def _title_like(text: str) -> bool:
    return not _BOILERPLATE_TITLE.match(text) and not _NOT_TITLE.match(text) and bool(WORDS.search(text))
