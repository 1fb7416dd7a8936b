"""Footnotes belong to the clause whose text carries their mark.

A footnote's text is printed where the page ends — often in another clause's span, or in the next
section's file (NIST SP 800-171 r1 marks multifactor authentication in 3.5.3 and prints footnote 22
under 3.6.2). Left alone, its text is proven as part of whatever clause it happens to sit in. This
pass reads the document's footnotes by their evidence — a block that opens with a footnote number
(«<1> …» in ConsultantPlus texts, «22 Multifactor …» in an English PDF, «(1) OJ C 517 …» after an EU
act's signatures), whose mark stands earlier in
the text («НИР <1>», «authentication 22 for»), numbers that rise through the document — and gives
each one a clause of its own, named after the clause holding its mark: «§3.5.3 footnote 22»,
«п. 5.1.2 подп. «г» пп. 1 сноска 1». A clause that only runs on into a footnote at its end stops
before it. The marks' places are kept in the section record (``footnote_marks``): a quote reads past a
superscript number the text layer set in the line. Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from docshelf.build.addresses import contents_page
from docshelf.build.repeated import part_of
from docshelf.law import grammar, numbering
from docshelf.law.grammar import blank_editorial
from docshelf.law.numbering import CONTENTS_LINE
from docshelf.law.outline import run_in
from docshelf.records import Clause, SectionMeta

_ANGLE = re.compile(r"^<(\d{1,3}|\*{1,3})>\s+\S")  # «<1> …», and in older ConsultantPlus texts «<*> …», «<**> …»
# «(1) OJ C 517, 22.12.2021, p. 56.»: an English act's notes (an EU regulation's), gathered after its
# signatures or at a page's foot, their marks «Committee (1),» in the text. Only in an act, whose own labels
# are «1.» paragraphs and «(a)» points; and even there a bracketed number is also a recital's label or a
# definition's («(1) ‘AI system’ means …»): only a run of them that rises one by one, opens with a capital,
# and has each mark after a word that names no kind of label («paragraph (1)» is a reference) is taken.
_BRACKET = re.compile(r"^\((\d{1,3})\)\s+[A-Z]")  # a note opens with a capital; a definition with its quote
_KIND_WORDS = frozenset(
    "paragraph paragraphs point points subparagraph subparagraphs article articles item items section sections "
    "annex and or to of in".split()
)
_RUN = 3  # bracketed notes come in a run of at least this many
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
# «22 Multifactor authentication …»; not «12 December 2012 on …» (a date wrapped onto a new line) nor a
# contents line («1 Introduction ........ 3»).
_BARE = re.compile(rf"^(\d{{1,3}})\s+(?=[A-Z«\"“(])(?!(?:{_MONTHS})\b)(?!.*(?:\.\s?){{4,}}\s*\d*\s*$)", re.M)
_MAX_GAP = 10  # footnote numbers rise through a document; a jump past this is no footnote
# «1) The dated edition …» at a page's foot, its mark «vocabulary1)» a superscript glued to its word: ISO and ГОСТ Р
# standards. A list item «1) the risk criteria …» opens in small letters, and no word elsewhere carries its number.
_PAREN = re.compile(r"^(\d{1,2})\)\s+(?=[A-ZА-ЯЁ«\"“])")
# «¹ Лицензия на деятельность …»: a note numbered with superscript digits the text layer kept as such, its mark «¹»
# glued to its word («организации¹»). A superscript digit is never a list's label.
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUPER = re.compile(f"^([{_SUPERSCRIPTS}]{{1,2}})\\s+\\S")
_FROM_SUPER = str.maketrans(_SUPERSCRIPTS, "0123456789")
_PARAGRAPH = re.compile(rf" {re.escape(grammar.PARAGRAPH)} \d+$")
_SEPARATOR = re.compile(r"^[-_—–]{8,}$")
# A bare footnote mark: the number right after a word or its closing punctuation («authentication 22 for»,
# «platforms.21», «[NISTCSF].2», a year's «of 2014.2 (CEA)»), never inside a number («1.1»).
MARK_AFTER = r"(?:(?<=[^\W\d_]|\])|(?<=(?:[^\W\d_]|\])[.,;:)”\"’])|(?<=(?:19|20)\d\d[.,]))"  # what a mark follows
_BARE_MARK = MARK_AFTER.replace("{", "{{").replace("}", "}}") + r"\s?(?P<mark>{n})(?=[\s.,;:)]|$)(?![.,]\d)"


@dataclass(frozen=True)
class _Note:
    number: int
    section: int
    start: int
    end: int
    angle: bool  # «<1>» (its mark is «<1>» too) or a bare number
    bracket: bool = False  # «(1) OJ C …»: its mark is «(1)» after a word
    stars: bool = False  # «<*>», «<**>»: the number counts the stars
    paren: bool = False  # «1) …»: its mark is «1)» glued to a word
    sup: bool = False  # «¹ …»: its mark is «¹» glued to a word


def attach_footnotes(
    records: Sequence[SectionMeta], files: dict[str, str], english: bool, *, act: bool = False
) -> tuple[list[SectionMeta], int]:
    """The records with a clause for every footnote whose mark is found, and how many were attached;
    ``act``: an English act, whose notes may be bracketed («(1) OJ C …»)."""
    notes = _notes(records, files, english, act)
    if not notes:
        return list(records), 0
    out = list(records)
    added: dict[int, list[Clause]] = {}
    marks: dict[int, list[list[int]]] = {}  # where the marks stand: verification reads past them
    taken = {c.id for r in records for c in r.clauses}
    labels = {cid.casefold() for cid in taken}  # «AC-2 (1)» names the document's own clause: no mark
    cursor = (0, 0)  # marks rise through the document: each one is searched after the last found
    last = 0
    glued = False  # the last mark touched its word: the document sets marks as superscripts
    for note in notes:
        if note.bracket and note.number == 1:
            last = 0  # a run of bracketed notes starts its own series
        # Notes numbered afresh on each page (the GDPR's «Committee1» … «Council1» on the next page) restart
        # at 1, but only with a mark set as a superscript is, glued to its word: «Table 1» is no mark.
        restart = not note.angle and not note.bracket and note.number == 1 and last > 0
        # A series whose first notes are not printed as notes (on a cover, in a box) starts later: only at a
        # mark set as a superscript is, glued to its word («of 2014.2 (CEA)»).
        late = not (note.angle or note.bracket) and last == 0 and 1 < note.number <= _MAX_GAP
        late = late and not _on_contents_page(files.get(records[note.section].path, ""), note)
        if (
            not note.angle
            and not restart
            and not late
            and not (last < note.number <= last + _MAX_GAP and (last or note.number == 1))
        ):
            continue  # bare numbers are footnotes only as a series that starts at 1 and rises
        # A series' first note is marked on its own page: the nearest superscript «1» before it, where the
        # text has one («Council1 seeks»), not the first «1» after the last note (a table's «Committee1»).
        first = note.number == 1 and not (note.angle or note.bracket)
        mark = (_nearest_glued(records, files, note, cursor) if first or late else None) or (
            None if restart or late else _mark(records, files, note, cursor, labels, glued=glued)
        )
        if mark is None:
            continue
        last = note.number
        glued = _glued(blank_editorial(files.get(records[mark[0]].path, "")), mark[1])
        cursor = (mark[0], mark[2])  # the next mark stands after this one
        owner = _innermost(records[mark[0]], mark[1], english)
        cid = grammar.footnote_id(owner, note.number, english=english)
        if cid in taken:
            continue
        taken.add(cid)
        added.setdefault(note.section, []).append(Clause(cid, note.start, note.end))
        marks.setdefault(mark[0], []).append([mark[1], mark[2]])
    for n, clauses in added.items():
        r = out[n]
        text = files.get(r.path, "")
        # A bracketed note read as a paragraph label («Article 113(18)») is the note's, not a clause of its own.
        notes_at = {c.start for c in clauses}
        kept = tuple(_stop_before(c, clauses, text) for c in r.clauses if c.start not in notes_at or c.id == r.clause)
        # A clause left with one paragraph once its note is taken out is its own «абз. 1», as the build numbers it
        paragraphs = Counter(_PARAGRAPH.sub("", c.id) for c in kept if _PARAGRAPH.search(c.id))
        kept = tuple(c for c in kept if not (_PARAGRAPH.search(c.id) and paragraphs[_PARAGRAPH.sub("", c.id)] < 2))
        out[n] = replace(r, clauses=tuple(sorted(kept + tuple(clauses), key=lambda c: (c.start, -c.end))))
    for n, spans in marks.items():
        out[n] = replace(out[n], extra={**out[n].extra, MARKS: sorted(spans)})
    return out, sum(len(clauses) for clauses in added.values())


def notes_go_on(records: Sequence[SectionMeta], files: dict[str, str], continues: Sequence[bool]) -> list[SectionMeta]:
    """A footnote cut mid-sentence where a piece ends goes on in the next piece (``continues[n]``: section ``n``
    goes on from ``n - 1``): the text that piece opens with is the note's, not the clauses the piece before left
    open («Recital 163» would hold the rest of its note 1, «… of the Council of» / «11 March 2009 on …»)."""
    out = list(records)
    for n in (k for k in range(1, len(out)) if continues[k]):
        before, here = out[n - 1], out[n]
        text = files.get(before.path, "").rstrip()
        note = next((c for c in before.clauses if grammar.FOOTNOTE_ID.match(c.id) and c.end >= len(text)), None)
        if note is None or text.endswith((".", ";", ":", "!", "?", ")")):
            continue
        start = min((c.start for c in here.clauses if c.id != here.clause), default=0)
        # the clauses carried in at the piece's first text (a bracketed note the piece before read as a point, its
        # clause then given to the note there, is carried too: «(17) Directive …» / «… p. 22).» is note 17's)
        carried = [c for c in here.clauses if c.start == start and c.id != here.clause]
        if carried:
            kept = tuple(c for c in here.clauses if c not in carried)
            joined = Clause(note.id, start, max(c.end for c in carried))
            out[n] = replace(here, clauses=tuple(sorted((*kept, joined), key=lambda c: (c.start, -c.end))))
    return out


_NOTE_WORDS = 8  # a note that starts a series late says something; «2 BIND Resource Requirements» is a title
_PAGE_AT_END = re.compile(r"[^\W\d]\s+\d{1,4}\s*$")
_LEADERS = re.compile(r"(?:\.\s?){5,}\s*\d")  # dot leaders to a page number, inside a line of joined entries


def _on_contents_page(text: str, note: _Note) -> bool:
    """A note on a printed contents page, a block of its lines or a title's few words: «6 BIND 9 Security
    Considerations 137» is a chapter, not a note."""
    own = text[note.start : note.end].splitlines()
    entry = len(" ".join(own).split()) < _NOTE_WORDS or (len(own) == 1 and _PAGE_AT_END.search(own[0]) is not None)
    leaders = any(CONTENTS_LINE.search(ln) or _LEADERS.search(ln) for ln in own)
    return entry or leaders or contents_page([m.group(0) for m in numbering.BLOCK.finditer(text)])


MARKS = "footnote_marks"  # a section record's key: [start, end] of each footnote mark in its text


def _notes(records: Sequence[SectionMeta], files: dict[str, str], english: bool, act: bool) -> list[_Note]:
    """Blocks that open with a footnote number, split where the next one runs into the same block."""
    out: list[_Note] = []
    for n, r in enumerate(records):
        text = files.get(r.path, "")
        starts = {c.start for c in r.clauses}
        named = {c.start for c in r.clauses if not c.id.endswith(")")}  # «Recital 1»: a paragraph, not a note
        for m in numbering.BLOCK.finditer(text):
            block = m.group(0)
            if act and (bracket := _BRACKET.match(block)) and m.start() not in named:
                end = numbering.trim_end(text, _runs_on(text, m.end()))  # a note a line break cut goes on
                out.append(_Note(int(bracket.group(1)), n, m.start(), end, False, True))
                continue
            angle = _ANGLE.match(block)
            bare = _BARE.match(block) if english and m.start() not in starts else None
            if not (angle or bare) and (paren := _PAREN.match(block) or _SUPER.match(block)):
                end = numbering.trim_end(text, _runs_on(text, m.end()))
                sup = paren.group(1)[:1] in _SUPERSCRIPTS
                number = int(paren.group(1).translate(_FROM_SUPER))
                out.append(_Note(number, n, m.start(), end, False, paren=not sup, sup=sup))
                continue
            if not (angle or bare):
                continue
            if angle:
                mark = angle.group(1)
                number = len(mark) if mark.startswith("*") else int(mark)
                out.append(_Note(number, n, m.start(), m.end(), True, stars=mark.startswith("*")))
                continue
            assert bare is not None
            value = int(bare.group(1))
            first = numbering.Label(str(value), "n", value, str(value), length=len(str(value)))
            pieces = [(0, first.value), *((o, lab.value) for o, lab in run_in(block, first))]
            for k, (offset, value) in enumerate(pieces):
                end = m.start() + pieces[k + 1][0] if k + 1 < len(pieces) else _runs_on(text, m.end())
                out.append(_Note(value, n, m.start() + offset, numbering.trim_end(text, end), False))
    return _in_runs(out)


# the next block continues a sentence: a small letter, a bracket that is no note's number, or an act's number
# («98/27/EC and …») opens it
_GOES_ON = re.compile(r"\n\n(?=[a-z]|\((?!\d{1,3}\))|\d+/)[^\n]+")


def _runs_on(text: str, end: int) -> int:
    """The end of a note whose text a line break cut into two blocks («… definition of micro, small and» /
    «medium-sized enterprises (OJ L 124 …).»): while the note has not ended its sentence and the next block
    goes on in small letters, that block is the note's too."""
    for _ in range(_MAX_GOES_ON):
        if text[:end].rstrip().endswith((".", ";", "!", "?")) or not (m := _GOES_ON.match(text, end)):
            break
        end = m.end()
    return end


_MAX_GOES_ON = 2


def _in_runs(notes: list[_Note]) -> list[_Note]:
    """The notes without bracketed numbers that stand alone or out of step: bracketed notes are a run
    («(1)», «(2)», «(3)» … in consecutive blocks), never a lone «(2)»."""
    keep: list[_Note] = []
    run: list[_Note] = []
    for note in notes:
        if note.bracket and run and note.number == run[-1].number + 1:
            run.append(note)
            continue
        keep.extend(run if len(run) >= _RUN else [])
        run = [note] if note.bracket else []
        keep.extend([] if note.bracket else [note])
    keep.extend(run if len(run) >= _RUN else [])
    return sorted(keep, key=lambda x: (x.section, x.start))


@lru_cache(maxsize=1024)
def _bare_mark(number: int, paren: bool = False, sup: bool = False) -> re.Pattern[str]:
    if paren:  # «vocabulary1)»: glued to a letter, the bracket part of the mark
        return re.compile(rf"(?<=[^\W\d_])(?P<mark>{number}\))")
    if sup:  # «организации¹»: the superscript digits glued to what they mark
        digits = str(number).translate(str.maketrans("0123456789", _SUPERSCRIPTS))
        return re.compile(rf"(?<=\S)(?P<mark>{digits})(?![{_SUPERSCRIPTS}])")
    return re.compile(_BARE_MARK.format(n=number))


def _mark(
    records: Sequence[SectionMeta],
    files: dict[str, str],
    note: _Note,
    after: tuple[int, int],
    labels: set[str],
    *,
    glued: bool = False,
) -> tuple[int, int, int] | None:
    """(section, start, end) of the note's mark: after the last mark found, before the note itself.
    ``glued``: the document's marks so far touch their word («provenance5»), so a glued one is looked
    for first — a number after a space there is a name's («Example 5», «Security Experts 8»)."""
    if not (note.angle or note.bracket):
        bare = _bare_mark(note.number, note.paren, note.sup)
        for only_glued in (True, False) if glued else (False,):
            for n, text, lo, hi in _windows(records, files, note, after):
                for found in bare.finditer(text, lo, hi):
                    if _names_label(text, found.end("mark"), labels):
                        continue  # «See PW.6 regarding …»: the document's own id, not «PW.» and a mark
                    if not only_glued or _glued(text, found.start("mark")):
                        return n, found.start("mark"), found.end("mark")
        return None
    angled = "<" + ("*" * note.number if note.stars else str(note.number)) + ">"
    pattern = re.compile(re.escape(angled) if note.angle else rf"\({note.number}\)(?=[\s.,;:)]|$)")
    for n, text, lo, hi in _windows(records, files, note, after):
        for m in pattern.finditer(text, lo, hi):
            if note.angle or _marks(text, m.start(), labels):
                return n, m.start(), m.end()
    return None


def _windows(
    records: Sequence[SectionMeta], files: dict[str, str], note: _Note, after: tuple[int, int]
) -> Iterator[tuple[int, str, int, int]]:
    """(section, text, lo, hi): where a note's mark may stand, from the last mark found to the note itself,
    in reading order; the text without its editorial lines (not a breadcrumb's «p. 22»)."""
    for n in range(after[0], note.section + 1):
        text = blank_editorial(files.get(records[n].path, ""))
        yield n, text, after[1] if n == after[0] else 0, note.start if n == note.section else len(text)


def _marks(text: str, at: int, labels: set[str]) -> bool:
    """Whether the bracketed number at ``at`` is a note's mark: right after a word («Committee(1)») or after
    a space and a word or an act's number that names no kind of label («Directive 85/374/EEC (10)»), not a
    paragraph of a reference («Article 26(10)», «paragraph (1)», «(2) to (6)», «AC-2 (1)» of a clause)."""
    before = text[:at]
    if before[-1:].isalpha():
        return True
    if not before.endswith(" "):
        return False
    token = before.rstrip().rsplit(None, 1)[-1] if before.strip() else ""
    word = token.strip('.,;:’”"').casefold()
    plain = bool(word) and word not in _KIND_WORDS and word not in labels
    return plain and not word.endswith(")") and not word.startswith("(")


def _names_label(text: str, end: int, labels: set[str]) -> bool:
    """Whether the token ending at ``end`` is one of the document's clause labels («PW.6», «(PO.1»)."""
    token = re.search(r"\S*$", text[max(0, end - 40) : end])
    return token is not None and token.group(0).lstrip("([").casefold() in labels


def _nearest_glued(
    records: Sequence[SectionMeta], files: dict[str, str], note: _Note, after: tuple[int, int]
) -> tuple[int, int, int] | None:
    """(section, start, end) of the last mark «1» glued to its word between the last mark and the note."""
    bare = _bare_mark(note.number, note.paren, note.sup)
    for n, text, lo, hi in reversed(list(_windows(records, files, note, after))):
        glued = [m for m in bare.finditer(text, lo, hi) if _glued(text, m.start("mark"))]
        if glued:
            return n, glued[-1].start("mark"), glued[-1].end("mark")
    return None


def _glued(text: str, at: int) -> bool:
    """Whether the mark at ``at`` touches the word before it («Committee1», «practice.4»), as a
    superscript does (a bare mark always follows a word or its closing punctuation)."""
    return at > 0 and not text[at - 1].isspace()


def _innermost(section: SectionMeta, at: int, english: bool) -> str:
    """The deepest clause holding ``at``, a clause's paragraph («абз. 2») aside: a footnote is the clause's; under
    no clause (a table's cell in an annex), the section's own or the part it is in («прил. 1»)."""
    inside = [c for c in section.clauses if c.start <= at < c.end and not _PARAGRAPH.search(c.id)]
    best = min(inside, key=lambda c: c.end - c.start, default=None)
    return best.id if best is not None else section.clause or part_of(section, english)


def _stop_before(c: Clause, notes: list[Clause], text: str) -> Clause:
    """A clause whose span runs on only into footnotes (and their separator line) ends before them."""
    inside = [f for f in notes if c.start < f.start and f.end <= c.end]
    if not inside:
        return c
    first = min(f.start for f in inside)
    tail = text[first : c.end]
    covered = _without(tail, [(f.start - first, f.end - first) for f in inside])
    if covered.strip():
        return c  # the clause's own text goes on after a footnote printed inside it
    head = text[c.start : first].rstrip()
    lines = head.split("\n")
    if lines and _SEPARATOR.match(lines[-1].strip()):
        head = "\n".join(lines[:-1]).rstrip()
    return Clause(c.id, c.start, c.start + len(head))


def _without(text: str, spans: list[tuple[int, int]]) -> str:
    out, at = [], 0
    for a, b in sorted(spans):
        out.append(text[at:a])
        at = max(at, b)
    out.append(text[at:])
    return "".join(out)


__all__ = ["MARKS", "attach_footnotes", "notes_go_on"]
