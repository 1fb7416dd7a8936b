"""The clause table: every article, part, item, point and annex measure of a section, with its span.

Clause ids are what a lawyer writes, normalised to one spelling: ``ст. 12 ч. 3 п. 2 подп. «а»``,
``п. 29.3.2``, ``Требования п. 13`` (a point of a document approved by the act), ``прил. 2 УПД.1``,
``§4.2.1``. Spans are character offsets into the section's Markdown exactly as stored (what
``fetch`` returns), so a quote can be checked against one clause and not its neighbours.
"""

from __future__ import annotations

import re
from collections import Counter

from docshelf.law import grammar as g
from docshelf.law import heading_clauses, numbering, tablerows
from docshelf.law import outline as outline_
from docshelf.law.census import Census, id_like
from docshelf.law.clause_ids import (
    Paragraphs,
    atom,
    clause_of,
    enhancement,
    generic_id,
    inline_clauses,
    join,
    join_generic,
    standalone,
)
from docshelf.law.grammar import blank_editorial
from docshelf.law.inline import run_before
from docshelf.law.lexicon import ITEM_JOINS
from docshelf.law.titled import TitledHeadings
from docshelf.records import Clause

_PARA = numbering.BLOCK  # a Markdown paragraph: lines up to a blank line
_HEADING = re.compile(r"^#{1,6}\s+(.*)$")
_CONTROL_DEPTH = heading_clauses.CONTROL_DEPTH
_ENGLISH = heading_clauses.ENGLISH


def printed_headings(markdown: str) -> list[str]:
    """The heading lines of a section's Markdown, in order: what «printed once in the document» counts."""
    return [h.group(1).strip() for m in _PARA.finditer(markdown) if (h := _HEADING.match(m.group(0)))]


def section_clauses(
    markdown: str,
    section_clause: str,
    *,
    english: bool = False,
    approved: str = "",
    annex: str = "",
    known: set[str] | None = None,
    preamble: bool = False,
    title: str = "",
    part: str = "",
    headings: frozenset[str] | None = None,
    census: Census | None = None,
    carried: list[outline_.Open] | None = None,
) -> list[Clause]:
    """Every clause inside one section's Markdown, outermost first, with spans into that text.

    ``approved`` names the document approved by the act (``Требования``) when the section belongs to
    it, so its points get ids like ``Требования п. 13``; ``annex`` (``прил. 2``) is the annex a
    section sits in, for its measure codes. Headings inside the text (a whole short document kept as
    one file) open their own articles, points or annexes. Outside an article, labels the grammar
    does not name («6.1.1», «A.5.1», «PR.AC-4», «(a)», «5.b») are read from the document
    (:mod:`law.numbering`); ``known`` carries the labels placed so far in the document, and gains
    this section's. ``preamble``: the section comes before an English act's first article, and its
    numbered paragraphs «(1)», «(2)» are the act's recitals («Recital 26»). ``title``: the heading of a
    section that has no number, when no other section is headed so: its list items are «‹title› item 2»
    (««OWASP Core Projects» item 2»), as one cites a numbered list under an unnumbered heading. ``part``:
    the annex or appendix an unnumbered section sits in («Appendix C» for the sections after its heading),
    whose letter its tables number («| C.1 | Verify …»). ``headings``: the headings printed once in the whole
    document; an unnumbered one inside an unnumbered English section (a manual's chapter kept in one file)
    is a clause cited by its title, ««Configuring Storage»», up to the next heading of its level or above
    (by default, the headings printed once in this text). ``census``: the id labels the whole document prints
    (:mod:`law.census`), the evidence a label read by its shape may find in another section. ``carried``: the
    clauses the piece before left open, when this section is a later piece of one cut between paragraphs
    (``Section.continues``): they go on at this piece's first text («2.» of a control's list after «1.» in
    the piece before); the list is replaced by the clauses this piece leaves open.
    """
    kind = heading_clauses.section_kind(section_clause, english, markdown)
    titled = f"«{title}»" if title and english and not section_clause else ""  # holds its list items
    outer = section_clause if kind in ("law", "act") or g.is_annex(section_clause) else annex
    base = outer or approved
    out: list[Clause] = [Clause(section_clause, 0, len(markdown))] if section_clause else []
    known = set() if known is None else known
    outline = outline_.Outline(atom(section_clause), frozenset(known), census)
    stack = outline.stack  # open clauses, outermost first
    closed: list[Clause] = []
    paragraphs = Paragraphs()
    blocks = [(m.group(0), m.start(), m.end()) for m in _PARA.finditer(markdown)]
    seen = set(known)  # ids placed so far in the document: one printed again inside a part gets qualified
    readings = [_readings(text) for text, _a, _b in blocks]
    headings_inside = printed_headings(markdown)
    once = frozenset(h for h in headings_inside if headings_inside.count(h) == 1) if headings is None else headings
    headed = TitledHeadings(markdown)
    heads: list[tuple[int, str]] = []  # where each heading starts, with its title when it has no number
    notes_of: tuple[str, list[int]] | None = None  # after «Примечания:»: whose notes, and where each began
    id_headings: set[int] = set()  # where a heading opening with an id label («V2.1 …», «T1059 …») starts
    body = next((a for text, a, _b in blocks if not text.startswith(("#", ">"))), len(markdown))
    resumed = {(o.id, body) for o in carried or ()}  # their paragraphs were counted in the piece before
    for o in carried or ():
        outline.push(outline_.Open(o.depth, o.id, body, o.label))

    def end_items(at: int) -> None:
        """A run-in heading («Discussion:», «Supplemental Guidance:») ends the list items open before it."""
        items = [o.depth for o in stack if o.label is not None and f" {_ITEM} " in o.id]
        if items:
            close(min(items), at)

    def close(depth: float, at: int, *, pause: bool = False) -> None:
        opened = outline.close(depth)
        if pause:  # a table: the list it ends may go on after it
            outline.paused = opened
        for o in opened:
            if (end := numbering.trim_end(markdown, at)) > o.start:  # a carried clause the piece's first label ends
                closed.append(Clause(o.id, o.start, end))

    for n, (text, start, end) in enumerate(blocks):
        heading = _HEADING.match(text)
        reading: numbering.Label | None = None
        generic = False  # read from the document's own numbering, not named by the grammar
        found: tuple[float, str] | None
        if heading or text.startswith("|"):
            notes_of = None  # a heading or a table ends the numbered notes of «Примечания:»
        if heading:
            level = len(text) - len(text.lstrip("#"))
            closed.extend(headed.close(level, start))
            found = heading_clauses.heading_clause(heading.group(1), kind) or heading_clauses.lettered(
                heading.group(1), kind, stack
            )
            if found is None and readings[n] and (fit := outline.fit(readings[n], readings[n + 1 : n + _AHEAD])):
                # A heading opening with a label the document numbers by its shape («T1059 Command …» over
                # «T1059.001»): a clause, its blocks nested under it by their container.
                reading, found, generic = fit[1], (fit[0], fit[1].atom), True
                id_headings.add(start)
            heads.append((start, "" if found else f"«{heading.group(1).replace('*', '').strip()}»"))
            if found is None and not section_clause and n and (english or kind == "order"):
                # An unnumbered heading inside one file (a short manual kept whole) ends the points before it;
                # an English one holds its own list items. A Russian manual's chapter («Установка сервера») is
                # cited by its title, an act's banner in capitals is not.
                close(float("-inf"), start)
                own = heading.group(1).strip()
                if english:
                    titled = f"«{own}»" if headings_inside.count(own) == 1 and own != title else ""
                if own in once and own != title and (english or heading_clauses.sentence_case(own)):
                    headed.opens(own, level, start)
            if (
                found is None
                and kind == "order"
                and heading_clauses.approved(heading.group(1), blocks[max(0, n - 6) : n])
            ):
                # The document the act approves, kept in its file («Утверждены …» «ПРАВИЛА …»): its points
                # are «Правила п. 14», apart from the act's own «п. 1», «п. 2».
                close(float("-inf"), start)
                approved = heading.group(1).replace("*", "").split()[0].capitalize()
                base = approved
                continue
            if found is None or found[1] == section_clause:
                continue
            depth, label = found
            # An appendix or annex stands beside the chapters and divisions, not inside the last one.
            close(float("-inf") if depth == 0 and label.startswith(_PARTS) else depth, start)
            if depth < 0:
                outline.push(outline_.Open(depth, label, start))
                continue
            if depth == 0:
                if english or g.is_article(label):
                    kind = heading_clauses.section_kind(label, english, markdown[end:])
                own = g.is_article(label) or g.is_en_article(label) or g.is_annex(label)
                own = own or label.startswith(f"{g.EN_ANNEX} ")
                base = label if own else approved
                outline.push(outline_.Open(0, label, start))
                continue
        elif text.startswith("|"):
            headed.holds_text()
            # A measure table: each row with a code («| УПД.1 | …») is its own clause under the annex.
            # A table ends the points before it, not a control headed above it (its summary table is its own).
            floor = _CONTROL_DEPTH + 1 if any(o.depth == _CONTROL_DEPTH for o in stack) else 1
            # nor a numbered heading's clause («4 Состав работ» over «Таблица 1 — Этапы работ», «V2.1 Password Security»
            # over its table of requirements): the table and the text after it are the heading's
            headed_at = {at for at, _title in heads}
            lowest = max([floor, *(o.depth + 1 for o in stack if o.start in id_headings or o.start in headed_at)])
            close(lowest, start, pause=True)
            for row in re.finditer(r"[^\n]+", text):
                a = start + row.start()
                if code := g.MEASURE_ROW.match(row.group(0)):
                    parent = next((o.id for o in reversed(stack) if o.depth < 1), base)
                    closed.append(Clause(join(parent, code.group(1), kind), a, start + row.end()))
                    outline.known.add(code.group(1))  # a row the page break set as a paragraph goes on from it
                elif (requirement := g.REQUIREMENT_ROW.match(row.group(0))) and g.REQUIREMENT_HEADER.match(text):
                    closed.append(Clause(g.requirement_id(requirement.group(1)), a, start + row.end()))
            row_ids = tablerows.row_ids(text, start, {c.id for c in closed}, {c.start for c in closed})
            closed.extend(row_ids)
            outline.known.update(c.id for c in row_ids)  # a series the table began goes on after it
            if kind != "law":
                # «A» of an open «Annex A»: its table numbers «A.5.1»
                parts = [section_clause, part, *(o.id for o in stack)]
                annexes = frozenset(atom(x) for x in parts if x.startswith(_PARTS))
                points = tablerows.row_points(
                    text,
                    start,
                    seen | outline.known | {outline.root} | annexes,
                    english=kind in _ENGLISH,
                    annexes=annexes,
                )
                seen.update(c.id for c in points)
                outline.known.update(atom(c.id) for c in points)  # the document's later tables restate them
                closed.extend(points)
            continue
        else:
            found = clause_of(text, kind) or enhancement(text, stack)
            if found is None and preamble and kind == "rfc" and readings[n] and readings[n][0].style == "(1)":
                reading, found = readings[n][0], (1, f"{g.RECITAL} {readings[n][0].atom}")
            if found is not None and readings[n] and reading is None:
                reading = readings[n][0]
                if kind == "order" and found[0] >= _ITEM_DEPTH:
                    found = (outline.depth_of(reading, found[0]), found[1])
            elif found is None and kind != "law" and readings[n]:
                fit = outline.fit(readings[n], readings[n + 1 : n + _AHEAD])
                lone = fit is None or not (fit[1].first or outline.goes_on(fit[1]))  # read as a series of its own
                if lone and (chain := _run_before(blocks, readings, n, outline)):
                    # the list began in the paragraphs before: «Control: The organization: a. Develops …» … «e. …»
                    for at, earlier in chain:
                        step = outline.fit([earlier], [])
                        if step is None or (spelled := generic_id(earlier, kind)) is None:
                            break
                        close(step[0], at)
                        owner_id = next((o.id for o in reversed(stack) if o.depth < step[0]), base) or titled
                        cid = join_generic(owner_id or section_clause, spelled, kind)
                        outline.push(outline_.Open(step[0], cid, at, earlier))
                    fit = outline.fit(readings[n], readings[n + 1 : n + _AHEAD])
                spelled = generic_id(fit[1], kind) if fit else None
                parent = next((o.id for o in reversed(stack) if fit and o.depth < fit[0]), base)
                parent = parent or section_clause or titled
                if fit and fit[1].style == "A." and kind in _ENGLISH and (not parent or parent.startswith("«")):
                    spelled = g.section_id(fit[1].atom)  # «A. General Provisions» heads a division: «§A»
                joined = join_generic(parent, spelled, kind) if fit and spelled else ""
                # A list restarting under the same title gets no second «‹title› item 1».
                if fit and spelled and joined and not (parent == titled and joined.startswith("«") and joined in seen):
                    reading, found, generic = fit[1], (fit[0], spelled), True
                    if numbering.NAMED_STYLE.fullmatch(fit[1].style) and _title_line(text[fit[1].length :]):
                        id_headings.add(start)  # «Tier 1: Partial» on its own line heads the table under it
            if found is None and kind == "order" and g.APPROVAL_STAMP.match(text.replace("*", "")):
                close(float("-inf"), start)  # «Утверждены постановлением …» ends the act's last point
                continue
            plain = text.replace("*", "")
            if notes_of and re.match(rf"{len(notes_of[1]) + 1}\.?\s+(?=\S)", plain):
                # «Примечания:» then «1. Под средствами …», «2. …»: notes 1, 2 of the article, not its parts again
                notes_of[1].append(start)
                cid = g.note_id(notes_of[0], str(len(notes_of[1])), english=kind in _ENGLISH)
                closed.append(Clause(cid, start, numbering.trim_end(markdown, end)))
                continue
            notes_of = None
            inline_notes = g.NOTES_INLINE.match(plain)
            if found is None and (note := g.NOTE_LINE.match(plain) or g.NOTES_HEAD.match(plain) or inline_notes):
                # «NOTE 2 …», «Примечание — …»: a note to the clause it follows, not to that clause's last list item
                # (a law's: to its article, not its last part); an item after it goes on from the one it closed
                items = [o.depth for o in stack if o.label is not None and not _POINT_STYLE.fullmatch(o.label.style)]
                if kind == "law" and stack:
                    items.append(stack[0].depth if stack[0].id != section_clause else 1)
                if items:
                    close(min(items), start, pause=True)
                if owner_id := (stack[-1].id if stack else base or section_clause or titled):
                    headed.holds_text()
                    if note.re is g.NOTES_HEAD:
                        notes_of = (owner_id, [])
                        continue
                    if note.re is g.NOTES_INLINE:
                        closed.extend(_inline_notes(text, start, note.end(), owner_id, kind in _ENGLISH))
                        continue
                    cid = g.note_id(owner_id, g.note_number(note), english=kind in _ENGLISH)
                    closed.append(Clause(cid, start, numbering.trim_end(markdown, end)))
                continue
            if found is None and stack and not g.is_editorial(text) and _list_over(stack[-1], closed, markdown, start):
                # «d) …; e) … .» then «The scope shall be available …»: the paragraph is the clause's, not «e)»'s
                close(stack[-1].depth, start)  # its own list: a list it is an item of is not judged here
            if found is None and kind in _ENGLISH and _RUN_IN_HEADING.match(text):
                # «Discussion: …», «Related Controls: …» after a control's statement «c. … 2. …»: the list is over,
                # the paragraph is the control's, not its last item's.
                end_items(start)
            if found is None:
                if not g.is_editorial(text):
                    headed.holds_text()
                    owner = (stack[-1].id, stack[-1].start) if stack else (base, -1)
                    if owner not in resumed:
                        paragraphs.add(owner, start, numbering.trim_end(markdown, end))
                    closed.extend(inline_clauses(text, start, owner[0], kind, None))
                if kind in _ENGLISH and (inside := _RUN_IN_INSIDE.search(text)):
                    end_items(start + inside.start())
                continue
            depth, label = found
            close(depth, start)
        owner = next(((o.id, o.start) for o in reversed(stack) if 0 <= o.depth < depth), (base, -1))
        if (generic or heading) and standalone(label) and label in seen:
            # An id printed again inside a part («AC-1» restated in «Appendix B», as a block or under its
            # own heading): the part qualifies it.
            part = next((o.id for o in reversed(stack) if o.id.startswith(_PARTS)), "")
            label = f"{part} {label}" if part else label
        if heading:
            cid = join(owner[0], label, kind)
        else:  # a label the document numbers is inside its section's own clause («§11.10(a)»)
            cid = join_generic(owner[0] or ((section_clause or titled) if generic else ""), label, kind)
        outline.push(outline_.Open(depth, cid, start, reading))
        seen.add(cid)
        if reading is not None and generic and not heading:
            # «(b)(1) Business associate …», «(1)(i) Standard: …» (a CFR part): the block opens its label's first
            # child too, both starting here.
            inner_depth = depth
            for inner in numbering.chained(text.replace("*", ""), reading):
                fit = outline.fit([inner], readings[n + 1 : n + _AHEAD])
                spelled = generic_id(inner, kind) if fit else None
                if fit is None or spelled is None or not spelled.startswith("("):
                    break
                cid = join_generic(cid, spelled, kind)
                inner_depth = max(fit[0], inner_depth + 1)
                outline.push(outline_.Open(inner_depth, cid, start, inner))
                seen.add(cid)
        own_id, own_end = cid, len(text)  # the block's own clause and where its run-in successors begin
        if reading is not None and (generic or (kind == "rfc" and g.is_section(label))):
            for offset, later in outline_.run_in(text, reading):  # «1. Resolution 2. Validation …»
                own_end = min(own_end, offset)
                spelled = generic_id(later, kind)
                if spelled is None:
                    break
                later_id = join_generic(owner[0] or section_clause or titled, spelled, kind)
                if later_id.startswith("«") and later_id in seen:
                    break  # a list restarting under the same title
                close(depth, start + offset)
                cid = later_id
                outline.push(outline_.Open(depth, cid, start + offset, later))
                if cid.startswith("«"):
                    seen.add(cid)
        if not heading:
            paragraphs.add((cid, start), start, numbering.trim_end(markdown, end))
            closed.extend(inline_clauses(text[:own_end], start, own_id, kind, reading))
        if kind in _ENGLISH and (inside := _RUN_IN_INSIDE.search(text)):
            end_items(start + inside.start())  # «… f. Communicates … elements]. Supplemental Guidance: …»
    if carried is not None:
        carried[:] = outline.stack
    close(float("-inf"), len(markdown))
    closed.extend(headed.close(0, len(markdown)))
    known.update(outline.known)
    known.add(outline.root)
    # the numbers of the headings inside this text too: a summary table restating «1.1.1» later is no second place
    known.update(atom(c.id) for c in closed if c.start in {at for at, _title in heads})
    if kind not in _ENGLISH:
        closed.extend(paragraphs.clauses(skip={"", approved}))
    out.extend(sorted(_restarted_under_headings(closed, heads), key=lambda c: (c.start, -c.end)))
    return out


def _inline_notes(text: str, start: int, first: int, owner: str, english: bool) -> list[Clause]:
    """«Примечания 1 … . 2 … .» in one block: note 1 from the block's start, each next where its number follows a
    sentence's end."""
    one = numbering.Label("1", "n", 1, "1", length=1)
    starts = [0, *(first + offset for offset, _label in outline_.run_in(text[first:], one))]
    ends = [*(at - 1 for at in starts[1:]), len(text.rstrip())]
    return [
        Clause(g.note_id(owner, str(n), english=english), start + a, start + len(text[:b].rstrip()))
        for n, (a, b) in enumerate(zip(starts, ends, strict=True), start=1)
    ]


def _list_over(top: outline_.Open, closed: list[Clause], markdown: str, at: int) -> bool:
    """Whether the list item open at ``at`` ended its list: a list whose items end with «;» is over after the
    item that ends with «.» — the paragraph after it is the clause's (ISO 27001's «… c) …; and d) … .» then «The
    scope shall be available as documented information.»)."""
    if top.label is None or _POINT_STYLE.fullmatch(top.label.style):
        return False
    if not markdown[top.start : at].rstrip().endswith("."):
        return False
    key = numbering.address_key(top.id)
    sibling = next((c for c in reversed(closed) if c.end <= top.start and c.id != top.id), None)
    if sibling is None or numbering.address_key(sibling.id)[:-1] != key[:-1]:
        return False
    return _ENDS_ITEM.search(markdown[sibling.start : sibling.end].rstrip()) is not None


_ENDS_ITEM = re.compile(rf";(?:\s*{ITEM_JOINS})?$")


def _restarted_under_headings(clauses: list[Clause], heads: list[tuple[int, str]]) -> list[Clause]:
    """A word-named series restarting under each unnumbered heading («Step 1» under «Installing the Agent»
    and again under «Removing the Agent»): each place spelled with its heading, ««Removing the Agent» Step 1»,
    and what is inside it too. A series printed once keeps its bare label whatever the converter saw as a
    heading (a PDF and a DOCX of one text give the same ids)."""
    counts = Counter(c.id for c in clauses if numbering.NAMED_ID.fullmatch(c.id))
    twice = [cid for cid, k in counts.items() if k > 1]
    if not twice:
        return clauses
    out = []
    for c in clauses:
        named = any(c.id == t or c.id.startswith((f"{t} ", f"{t}(")) for t in twice)
        home = next((title for at, title in reversed(heads) if at <= c.start), "") if named else ""
        out.append(Clause(f"{home} {c.id}", c.start, c.end) if home else c)
    return out


_AHEAD = 40  # blocks looked ahead for a label's successor
_TITLE_WORDS = 8


def _run_before(
    blocks: list[tuple[str, int, int]], readings: list[list[numbering.Label]], n: int, outline: outline_.Outline
) -> list[tuple[int, numbering.Label]]:
    """The labels of a reading's list run into the unlabelled paragraphs before block ``n``, from the list's first
    or from a label open in ``outline`` (:func:`law.inline.run_before`), each with where it stands in the section."""
    before: list[int] = []
    for k in range(n - 1, max(-1, n - _AHEAD), -1):
        if blocks[k][0].startswith(("#", "|", ">")):
            break
        before.append(k)
        if readings[k]:  # a labelled paragraph is the farthest: the list may go on from its own label's text
            break
    if not before:
        return []
    texts = [blocks[k][0] for k in before]
    for reading in readings[n]:
        chain, complete = run_before(texts, reading)
        if chain and (complete or outline.fit([chain[0][2]], []) is not None):
            return [(blocks[before[where]][1] + at, label) for where, at, label in chain]
    return []


def _title_line(text: str) -> bool:
    """What follows a label is a title, not a sentence: one short line with no full stop at its end."""
    words = text.replace("*", "").split()
    return "\n" not in text.strip() and 0 < len(words) <= _TITLE_WORDS and not text.rstrip().endswith((".", ";", ","))


_PARTS = g.PART_PREFIXES  # parts that qualify an id printed again inside them
_ITEM_DEPTH = 5  # the grammar's item and sub-item depths in an order: read from the document instead


def _readings(block: str) -> list[numbering.Label]:
    """The label readings of a block; of a heading, only an id's (the other family headings are read by
    ``heading_clauses``): one read by its shape («T1059 Command …»), a family's «AC-2», «V1.1 Password …»."""
    if not block.startswith("#"):
        return numbering.block_labels(block)
    title = block.lstrip("#").strip().replace("*", "")
    return [
        r for r in numbering.read_label(title) if id_like(r.style) or outline_.LETTERS_NUMBERED_STYLE.fullmatch(r.style)
    ]


_ITEM = g.ITEM
# A numbered point, part or section («4.2», «6.1.3», «5.»: styles «n.n», «n», «1.»), not a list's item («1)», «a)»)
_POINT_STYLE = re.compile(r"(?:1|n(?:\.n)*)\.?")
# The same run after a sentence, inside a block whose items the PDF ran together: «… elements]. Supplemental Guidance:»
# Two words or more («Supplemental Guidance:», «Related Controls:»): a one-word «Example:» or «Note:» inside an item is
# the item's own. Not «1. Resolution:» (a label's dot).
_RUN_IN_INSIDE = re.compile(r"(?<=[a-z)\]][.;]\s)[A-Z][a-z]+(?: [A-Z][a-z]+){1,3}:\s")
_RUN_IN_HEADING = re.compile(r"^\**[A-Z][a-z]+(?: [A-Z]?[a-z]+){0,3}:\**(?:\s|$)")  # «Discussion:», «Related Controls:»


__all__ = ["Clause", "blank_editorial", "printed_headings", "section_clauses"]
