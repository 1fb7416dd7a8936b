"""Find a document's own structure: which blocks are headings, of what kind, at what level.

Levels come from the *kind* of heading (Раздел > Глава > Статья, Приложение, I. > 1. > 1.1.),
never from font-size rank: converters disagree on sizes, the law's own words do not. Typography
(bold, size, a source heading tag) decides only for numbered lines and for documents with no
pattern at all (manuals).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from docshelf.build.docmap import MAP_RANK, Found
from docshelf.law.grammar import APPROVAL_STAMP, APPROVED_TITLE, ARTICLE_KINDS, HEADINGS, heading_clause_id
from docshelf.law.numbering import read_label, roman_value
from docshelf.model import Block

_CYR = re.compile(r"[А-Яа-яЁё]")
_FIGURE = re.compile(r"[<>|=]|-->|<--")
WORDS = re.compile(r"[^\W\d_]{3}")  # a word of three letters, in any script
_DOT_LEADER = re.compile(r"(?:\.{4,}|…{2,})\s*\d{1,4}$")
_TOC_TAIL = re.compile(r"(?:\.{2,}|\s)\s*\d{1,4}$")
_MARKUP = re.compile(r"\*\*|__|(?<!\w)_(?=\S)|(?<=\S)_(?!\w)")
SENTENCE_END = (".", ";", ",", ":")
LARGE_SIZE = 1.15  # a line set this much larger than the body's text is display type (a cover's title)


@dataclass(frozen=True)
class Heading:
    """A block recognised as a heading."""

    index: int  # position in the block list
    kind: str  # razdel, glava, statya, num, roman, prilozhenie, appendix, source, big
    number: str  # the heading's own number as written («10.2-1», «IV», «1.2.3»), or ""
    level: int  # 1 = top; assigned from the kinds present in this document
    text: str  # heading text, verbatim, without Markdown emphasis


def plain(text: str) -> str:
    """Heading text without Markdown emphasis and with single spaces."""
    if "*" in text or "_" in text:  # every emphasis mark is one of them; most blocks have none
        text = _MARKUP.sub("", text)
    return " ".join(text.split())


def _match(block: Block) -> tuple[str, int, str] | None:
    text = plain(block.text)
    # A bold article heading may wrap over several lines (149-ФЗ ст. 15.1-1 has ~400 characters).
    if block.kind == "table" or block.editorial or not text or len(text) > (700 if block.bold else 300):
        return None
    if _DOT_LEADER.search(text):
        return None  # a line of a printed table of contents
    for heading_kind in HEADINGS:
        kind, rank = heading_kind.name, heading_kind.rank
        m = heading_kind.heading.match(text)
        if not m:
            continue
        number = m.group(1) or ""
        if kind == "num":
            return _numbered(block, text, number, rank)
        if kind == "titled_control" and not (block.bold or block.kind == "heading"):
            return None  # «Remote access (AC-17)» in a list or a table's text is no heading; a template's styled one is
        if kind == "lettered" and not (block.bold or block.kind == "heading"):
            return None  # «(a) Each system …» run into its text is a paragraph; the bold title line is a heading
        if kind == "roman" and (len(text) > 200 or text.endswith(";")):
            return None
        if (
            kind == "named_section"
            and not (block.bold or block.kind == "heading")
            and (_RUN_ON.search(text) or len(text) > 80)
        ):
            return None  # «Sec. 2. Policy. It is the policy …»: a section run into its text (the clause table has it)
        if kind in ARTICLE_KINDS and len(text) > 250 and not block.bold:
            return None
        if kind not in ARTICLE_KINDS and len(text) > 300:
            return None
        return kind, rank, number
    if not WORDS.search(text):
        return None  # big or tagged, but no words: a phone number, a date, a page number in a web print's header
    if block.kind == "heading":
        return "source", 60 + block.level, ""
    if block.size >= LARGE_SIZE and len(text) <= 150 and not text.endswith(SENTENCE_END) and not _cut_line(text):
        return "big", 5 - min(int(block.size * 2), 4), ""
    return None


def _numbered(block: Block, text: str, number: str, rank: int) -> tuple[str, int, str] | None:
    if _FIGURE.search(text):
        return None  # «4. ESTABLISHED --> <SEQ=101><ACK=301>»: a line of a figure, not a section
    depth = number.count(".") + 1
    styled = block.bold or block.size >= 1.1 or block.kind == "heading"
    # English manuals and RFCs sometimes end a short heading with a period («6. BGP Error Handling.»).
    # A sentence is not: «3.1.8 Limit unsuccessful logon attempts.» is a requirement (NIST SP 800-171), its
    # words in sentence case where a title capitalises them.
    latin_short = not _CYR.search(text) and len(text.split()) <= 8 and not (text.endswith(".") and _sentence_case(text))
    ends = (";", ",", ":") if latin_short else SENTENCE_END
    short_title = len(text) <= 100 and not text.endswith(ends) and not text[len(number) :].lstrip(". ")[:1].islower()
    if (styled and len(text) <= 200 and not text.endswith(";")) or short_title:
        return "num", rank + depth, number
    return None


_RUN_ON = re.compile(r"^\S+\s+\S+\s+[^.]*\.\s+\S")  # a named section's title, then a sentence after it
_LETTERED_RUN = 3  # bold «(a) Title» lines head paragraphs only as a run: «(a)», «(b)», «(c)» at least
_CUT_END = re.compile(r"\s(?:a|an|the|and|or|of|to|in|on|by|for|with|that|which|all|be|shall)$")


def _cut_line(text: str) -> bool:
    """Large type that is a piece of running text, not a heading: it goes on from a line before («and of the
    Council of …»), opens with a label glued to its words («4.1.In addition …»), or stops mid-sentence
    («… share with the notified body all»)."""
    labels = read_label(text)
    return text[:1].islower() or bool(labels and labels[0].glued) or bool(_CUT_END.search(text))


def _articles_out_of_order(candidates: dict[int, tuple[str, int, str]]) -> list[int]:
    """English article headings that do not follow the last one: a reference broken onto a line of its
    own («… in accordance with / Article 49» in an annex) is no article; an act's articles only rise."""
    out, last = [], (-1, "")
    for i, (kind, _rank, number) in sorted(candidates.items()):
        if kind != "article":
            continue
        digits = re.match(r"\d*", number).group(0)  # type: ignore[union-attr]
        key = (int(digits) if digits else roman_value(number), number.lstrip("0123456789"))  # «ARTICLE IV»
        if key <= last:
            out.append(i)
        else:
            last = key
    return out


def _sentence_case(text: str) -> bool:
    """Whether most words of four letters or more after the first are lower case («Limit unsuccessful logon
    attempts.»), as in a sentence and not a title («BGP Error Handling.»)."""
    words = re.findall(r"[^\W\d_]{4,}", text)[1:]
    return bool(words) and sum(w[0].islower() for w in words) * 2 > len(words)


def _toc_runs(blocks: tuple[Block, ...], candidates: dict[int, tuple[str, int, str]]) -> set[int]:
    """Blocks of a printed table of contents (runs of numbered lines ending in page numbers)."""
    toc: set[int] = set()
    run: list[int] = []
    for i, b in enumerate(blocks):
        if _TOC_TAIL.search(b.text) and (i in candidates or b.kind == "para") and len(b.text) < 200:
            run.append(i)
            continue
        if len(run) >= 3:
            toc.update(run)
        run = []
    if len(run) >= 3:
        toc.update(run)
    return toc


def _number_key(number: str) -> tuple[str, tuple[int, ...]]:
    letter, _, rest = number.rpartition(".") if number[:1].isalpha() else ("", "", number)
    if number[:1].isalpha():
        letter, rest = number[0], number[2:]
    parts = tuple(int(p) for p in rest.split(".") if p.isdigit())
    while len(parts) > 1 and parts[-1] == 0:
        parts = parts[:-1]  # a policy's «2.0 Scope» is section 2: «3.1» goes on from «3.0»
    return letter, parts


def _follows(prev: tuple[int, ...], cur: tuple[int, ...]) -> bool:
    """``cur`` can come right after ``prev`` in a numbered outline (a child, a sibling or an uncle; small gaps ok)."""
    if cur[:-1] == prev and cur[-1] in (0, 1):
        return True
    for depth in range(min(len(prev), len(cur))):
        if len(cur) == depth + 1 and cur[:depth] == prev[:depth] and prev[depth] < cur[depth] <= prev[depth] + 2:
            return True
    return False


def _minority_style(numbered: list[tuple[int, str]], blocks: tuple[Block, ...]) -> list[int]:
    """A document writes its section numbers one way («4.2.» or «4.2»); lines written the other way are not sections."""
    dotted = {i: plain(blocks[i].text)[len(n) : len(n) + 1] == "." for i, n in numbered}
    if len(dotted) < 4:
        return []
    share = sum(dotted.values()) / len(dotted)
    if share >= 0.65:
        return [i for i, d in dotted.items() if not d]
    if share <= 0.35:
        return [i for i, d in dotted.items() if d]
    return []


def _out_of_sequence(numbered: list[tuple[int, str]]) -> list[int]:
    """Numbered lines that cannot continue the document's outline: list items, figure labels, stray numbers."""
    rejected: list[int] = []
    last: dict[str, tuple[int, ...]] = {}
    keys = [_number_key(number) for _index, number in numbered]
    for k, (index, _number) in enumerate(numbered):
        letter, parts = keys[k]
        if not parts:
            continue
        prev = last.get(letter)
        ok = parts[0] <= 3 and max(parts) <= 3 if prev is None else _follows(prev, parts)
        # A wider jump is an extract's («4 …» then «7 …», sections 5 and 6 left out; an excerpt opening at «5 …») when
        # the next numbered line is the first child of the number it jumps to («7.1»): a list item or a stray number
        # opens no outline.
        child = k + 1 < len(keys) and keys[k + 1] == (letter, (*parts, 1))
        ok = ok or (child and (prev is None or parts > prev))
        if ok:
            last[letter] = parts
        else:
            rejected.append(index)
    return rejected


_STAMP_LINES = 6  # «Утверждены / постановлением / Правительства / Российской Федерации / от … N …» then the title
_STAMP_LINE_CHARS = 120


def _approved(blocks: tuple[Block, ...]) -> dict[int, tuple[str, int, str]]:
    """The title of a document approved by the act («УТВЕРЖДЕНЫ постановлением …» then «ТРЕБОВАНИЯ К …»).

    The title, not the approval stamp, becomes the heading: the stamp stays as text, nothing is lost.
    """
    found: dict[int, tuple[str, int, str]] = {}
    for i, b in enumerate(blocks):
        if not APPROVAL_STAMP.match(plain(b.text)) or len(b.text) > 400:
            continue
        for j in range(i + 1, min(i + _STAMP_LINES + 1, len(blocks))):
            title = plain(blocks[j].text)
            if APPROVED_TITLE.match(title) and len(title) < 400 and (blocks[j].bold or title.isupper()):
                found[j] = ("approved", 10, "")
                break
            if len(title) > _STAMP_LINE_CHARS:
                break  # the stamp's lines are short («Постановлением Правительства», «от 23 мая 2006 г. N 306»)
    return found


def _with_map(
    blocks: tuple[Block, ...],
    candidates: dict[int, tuple[str, int, str]],
    mapped: Sequence[Found],
    contents: frozenset[str],
) -> dict[int, tuple[str, int, str]]:
    """The map's headings, and the grammar's where the map is silent.

    A numbered line the map does not list is a list item, unless it is a child of a listed section
    deeper than the map goes («4.4.1» under «4.4» when the map stops at two levels), or the map
    lists its number under a title worded differently. Structural kinds the map does not list
    (articles under a map of chapters) sit below the map's levels.
    """
    out = {f.index: (f.kind, f.rank, f.number) for f in mapped}
    kind_rank: dict[str, int] = {}
    for f in mapped:
        kind_rank[f.kind] = min(kind_rank.get(f.kind, f.rank), f.rank)
    numbers = {f.number for f in mapped if f.kind == "num" and f.number}
    depth_rank = {f.number.count("."): f.rank for f in mapped if f.kind == "num" and f.number}
    depth = max((n.count(".") + 1 for n in numbers), default=0)
    below = max((f.rank for f in mapped), default=MAP_RANK) + 1
    first = min((f.index for f in mapped), default=0)
    placed = {f.number: f.index for f in mapped if f.kind == "num" and f.number}
    for i, (kind, rank, number) in sorted(candidates.items()):
        if i in out or kind in ("big", "source") or i < first:
            continue  # before the map's first heading: the title page and the printed contents
        if kind == "num":
            parent = number.rpartition(".")[0]
            if number in contents and number not in numbers:
                # Listed but not found by its title (worded differently in the body): the number decides.
                out[i] = (kind, depth_rank.get(number.count("."), below + number.count(".")), number)
                numbers.add(number)
            elif number.count(".") + 1 > depth and parent in numbers:
                out[i] = (kind, below + number.count("."), number)
            elif number not in numbers and _between_listed_siblings(blocks, i, number, placed):
                # The map is partial (an outline missing «2.2» between «2.1» and «2.3»): the body's own
                # numbering and the siblings' style decide; quality reports it as unlisted.
                out[i] = (kind, depth_rank.get(number.count("."), below + number.count(".")), number)
                numbers.add(number)
                placed[number] = i
            continue
        out[i] = (kind, kind_rank.get(kind, below + rank), number)
    return out


def _style(b: Block) -> tuple[str, int, bool, float]:
    return b.kind, b.level, b.bold, round(b.size, 1)


def _between_listed_siblings(blocks: tuple[Block, ...], i: int, number: str, placed: dict[str, int]) -> bool:
    """A numbered line the map skips, set as its listed neighbours are: the sibling before it comes
    before it, or the one after it comes after it, in the same style («2.2» between headings «2.1»
    and «2.3»; «3.1» before a listed «3.2»), a style body text does not have. A list item «5.» after
    chapter 4 is body text, not a heading."""
    parent, _, leaf = number.rpartition(".")
    if not leaf.isdigit():
        return False
    prefix = f"{parent}." if parent else ""
    before, after = placed.get(f"{prefix}{int(leaf) - 1}"), placed.get(f"{prefix}{int(leaf) + 1}")
    style = _style(blocks[i])
    if not (blocks[i].kind == "heading" or blocks[i].bold or blocks[i].level or blocks[i].size >= 1.1):
        return False  # set as body text (an RFC, a figure's «4. TIME-WAIT …»): style tells nothing
    return (before is not None and before < i and _style(blocks[before]) == style) or (
        after is not None and after > i and _style(blocks[after]) == style
    )


def find_headings(
    blocks: tuple[Block, ...], contents: frozenset[str] = frozenset(), mapped: Sequence[Found] = ()
) -> list[Heading]:
    """Recognise headings and give each a level from the kinds present in the document.

    ``mapped`` are the headings of the document's own map (``docmap.find_map``): when there are
    any, they decide, and the grammar only fills in below them. Otherwise ``contents`` holds the
    section numbers of the document's own table of contents, when it has one: a numbered line is
    then a heading only if the contents list its number.
    """
    candidates = {i: m for i, b in enumerate(blocks) if (m := _match(b)) is not None}
    candidates.update(_approved(blocks))
    if mapped:
        return _levelled(blocks, _with_map(blocks, candidates, mapped, contents))
    if any(kind in ARTICLE_KINDS for kind, _, _ in candidates.values()):
        # In a law, «1.» under an article is a part of it, not a heading, unless it is styled as one.
        candidates = {
            i: m for i, m in candidates.items() if m[0] != "num" or blocks[i].bold or blocks[i].kind == "heading"
        }
    for i in _toc_runs(blocks, candidates):
        candidates.pop(i, None)
    for i in _articles_out_of_order(candidates):
        candidates.pop(i, None)
    lettered = [i for i, m in candidates.items() if m[0] == "lettered"]
    if len(lettered) < _LETTERED_RUN:
        for i in lettered:
            candidates.pop(i)
    numbered = [(i, m[2]) for i, m in sorted(candidates.items()) if m[0] == "num"]
    if len(contents) >= 5:
        rejected = {i for i, n in numbered if n not in contents}
    else:
        minority = set(_minority_style(numbered, blocks))
        rejected = minority | set(_out_of_sequence([(i, n) for i, n in numbered if i not in minority]))
    for i in rejected:
        candidates.pop(i, None)
    pattern_at = [i for i, m in sorted(candidates.items()) if m[0] not in ("big", "source")]
    if pattern_at:
        # Large or tagged lines before the first structural heading are the title block, not sections.
        candidates = {i: m for i, m in candidates.items() if i >= pattern_at[0] or m[0] not in ("big", "source")}
    return _levelled(blocks, candidates)


def _levelled(blocks: tuple[Block, ...], candidates: dict[int, tuple[str, int, str]]) -> list[Heading]:
    ranks = sorted({rank for _, rank, _ in candidates.values()})
    level_of = {rank: min(i + 1, 6) for i, rank in enumerate(ranks)}
    return [
        Heading(i, kind, number, level_of[rank], _numbered_text(kind, number, plain(blocks[i].text)))
        for i, (kind, rank, number) in sorted(candidates.items())
    ]


def _numbered_text(kind: str, number: str, text: str) -> str:
    """A numbered heading whose number is missing from the text layer gets it back from the document's
    own contents («General Requirements» listed as «2.1 General Requirements»): the reader and the
    clause table see the number the document gives it."""
    if kind == "num" and number and not text.startswith(number):
        return f"{number} {text}"
    return text


def clause_id(heading: Heading, *, english: bool = False) -> str:
    """The citation form of a heading's number: «ст. 10.2-1», «гл. 3», «п. 1.2», «§4.2.1»."""
    return heading_clause_id(heading.kind, heading.number, english=english)
