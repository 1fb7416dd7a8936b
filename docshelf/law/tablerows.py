"""Clauses read from a table's rows: ids of a series at the start of a cell («PR.AC-4: …», «PO.1.1: …»),
the groups a framework's table names by a title and an id in brackets («Prepare the Organization (PO)»),
and numbered points a table continues from the text («| 3.4.3 | Track, review … |»). Pure: text in,
spans out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from docshelf.law import grammar as g
from docshelf.law import numbering, outline, shapes
from docshelf.law.census import Census
from docshelf.law.shapes import GENERIC
from docshelf.records import Clause


def row_ids(table: str, start: int, taken: set[str], rows: set[int]) -> list[Clause]:
    """Rows of a table whose cell opens with an id of a series («PR.AC-4: Access …», «PO.1.1: …»): each
    such id is a clause spanning its row, when the table also holds its neighbour in the series (or
    it is the series' first). Rows after it that print no id continue it (a cell broken across the rows
    of a page, its references listed one a row)."""
    found: list[tuple[numbering.Label, int, int]] = []  # label, its cell's start, its row's start
    stops: list[int] = []  # starts of the rows that print an id: each ends the clause above it
    for row in re.finditer(r"[^\n]+", table):
        if any(_TITLED_ID.match(c.strip()) for c in row.group(0).split("|")):
            stops.append(start + row.start())
        leading = True  # only row numbers so far («| 3 | REQ-003 | The system …»)
        for m in (c for c in re.finditer(r"[^|]+", row.group(0)) if c.group(0).strip()):
            cell = m.group(0).strip()
            labels = [r for r in numbering.read_label(cell) if is_series(r)]
            if labels and (not stops or stops[-1] != start + row.start()):
                stops.append(start + row.start())
            # The id's own row says what it is («PR.AC-4: Access permissions are managed …»); a cell
            # holding only an id («AC-2») or a list of them («CA-1, CA-6, PM-10; SP 800-37» in a mapping
            # table) refers to them and is no clause of its own. A catalogue of ids no family rule names prints
            # the id in its first cell (after a row number, if any) and the statement in the next
            # («| AC.L2-3.1.3 | Control the flow … |»).
            shaped = leading and bool(labels)
            leading = leading and cell.rstrip(".").isdigit()
            after = row.group(0)[m.end() :]
            # An id a family rule names («HC-01», «AC-2») heads a catalogue row when a sentence follows it, not
            # a title («| AC-1 | Access Control Policy and Procedures |» restates the control in a baseline table).
            catalogue = shaped and len(_statement_words(after)) >= ROW_WORDS
            if catalogue and not labels[0].style.startswith(GENERIC):
                catalogue = sum(w[:1].islower() for w in after.split()) >= ROW_WORDS
            if labels and len(_statement_words(cell[labels[0].length :])) < ROW_WORDS and not catalogue:
                break
            if labels:  # from its own cell on: a group's cell before it («… (PO.1): Ensure …») is the group's
                at = start + row.start() + m.start() + len(m.group(0)) - len(m.group(0).lstrip())
                found.append((labels[0], at, start + row.start()))
                break
    # «2.2.1.a Examine … 2.2.1.b Examine …»: the ids that go on in the text after one (a cell listing its testing
    # procedures one after another, a row continued below) are clauses too, each ending where the next begins
    for label, a, row_start in list(found):
        for offset, later in outline.run_in(table[a - start :], label):
            if a + offset not in stops:
                found.append((later, a + offset, row_start))
                stops.append(a + offset)
    found.sort(key=lambda f: f[1])
    stops.sort()
    series = {(label.style, label.parent, label.value) for label, _a, _b in found}
    out: list[Clause] = []
    ids = Census.of([label for label, _a, _b in found])  # a level in an id may change: «AC.L1-3.1.2», «AC.L2-3.1.3»
    for label, a, row_start in found:
        b = next((stop - 1 for stop in stops if stop > a), start + len(table.rstrip()))
        near = {(label.style, label.parent, label.value + d) for d in (-1, 1)}
        cid = numbering.full_label(label)
        # The series may have begun in a table before (a table carried over to the next page or column).
        before = re.sub(r"\d+$", str(label.value - 1), cid) if cid.endswith(str(label.value)) else ""
        if label.style.startswith(GENERIC):
            before = shapes.neighbour(label.parent, label.style, label.value - 1)
        shaped = label.style.startswith(GENERIC) and (ids.neighbour(label, -1) or ids.neighbour(label, 1))
        follows = label.first or near & series or before in taken or shaped
        if cid not in taken and row_start not in rows and follows:
            taken.add(cid)
            out.append(Clause(cid, a, b))
    out.extend(_titled_ids(table, start, taken, {numbering.full_label(label) for label, _a, _b in found}))
    return out


# A cell that names a group by its title and id: «Prepare the Organization (PO)», «Define Security
# Requirements for Software Development (PO.1): Ensure that …».
_TITLED_ID = re.compile(rf"^[A-Z][^()|:]{{2,120}}?\s{g.BRACKETED_ID}(?=:|\s*$)")


def _titled_ids(table: str, start: int, taken: set[str], ids: set[str]) -> list[Clause]:
    """Groups of a table's id series, named by a title and their id in brackets: the id is a clause when
    the table's rows hold ids inside it (PO.1 above PO.1.1, ID.AM above ID.AM-1, PO above PO.1) — the
    nesting is the evidence; an acronym in brackets nests nothing. A group spans its rows up to the next
    group that is not inside it."""
    rows: list[tuple[str, int]] = []  # each group's id and where its cell starts
    for cell in re.finditer(r"[^|\n]+", table):  # «| IDENTIFY (ID) | Asset Management (ID.AM): … |»
        if m := _TITLED_ID.match(cell.group(0).strip()):
            rows.append((m.group("id"), start + cell.start() + len(cell.group(0)) - len(cell.group(0).lstrip())))
    inner = ids | {cid for cid, _a in rows}
    out: list[Clause] = []
    for n, (cid, a) in enumerate(rows):
        if cid in taken or not any(i.startswith((f"{cid}.", f"{cid}-")) for i in inner):
            continue
        later = (b - 1 for other, b in rows[n + 1 :] if not other.startswith((f"{cid}.", f"{cid}-")))
        taken.add(cid)
        out.append(Clause(cid, a, next(later, start + len(table.rstrip()))))
    return out


def _statement_words(text: str) -> list[str]:
    """The words of a statement: ones with a small letter, not the ids and acronyms of a reference list."""
    return [w for w in text.split() if any(ch.islower() for ch in w) and not any(ch.isdigit() for ch in w)]


def row_points(table: str, start: int, known: set[str], *, english: bool, annexes: frozenset[str]) -> list[Clause]:
    """Rows that continue the document's numbered points in a table («| 3.4.3 | Track, review … |» after
    3.4.2 in the text; an annex's table of controls «| A.5.1.1 | Policies for … | Control: … |» under
    «Annex A»): a row whose first cell is a point of a known parent — the text's, or a row above it —
    with its statement after it, is that point's clause, down to the next row of its level or above;
    unless the point is already placed (a mapping table restating it). A lettered point is one only in
    the annex of its letter (``annexes``): «A.9.2.3» in a NIST appendix D maps ISO's control, not its own."""
    found: list[tuple[str, int, int, int]] = []  # id, depth, row start, row end
    letter = _fresh_annex(table, known, annexes)
    points = [(row, point) for row in re.finditer(r"[^\n]+", table) if (point := row_point(row.group(0)))]
    atoms = {label.atom for _row, (label, _after, _own) in points}
    for row, (label, after, own) in points:
        atom = f"{letter}.{label.atom}" if letter and label.atom[:1].isdigit() else label.atom
        # A control of the annex's own letter whose neighbour the table prints («A.5.1», «A.5.2») is one of the
        # annex's series, whether or not a row or heading above placed its group («A.5»).
        lettered = atom.split(".")[0] in annexes and any(f"{label.parent}.{label.value + d}" in atoms for d in (-1, 1))
        if atom == label.atom and not _placed(label.parent, known) and not lettered:
            continue
        if len(f"{after} {own}".split()) < ROW_WORDS:
            continue
        if not atom[:1].isdigit() and atom.split(".")[0] not in annexes:
            continue
        cid = g.section_id(atom) if english else g.point_id(atom)
        if cid not in known and atom not in known:
            known.add(cid)
            known.add(atom)
            found.append((cid, atom.count("."), start + row.start(), start + row.end()))
    out: list[Clause] = []
    for n, (cid, depth, a, b) in enumerate(found):
        later = (other_a - 1 for _c, d, other_a, _b in found[n + 1 :] if d <= depth)
        out.append(Clause(cid, a, max(b, next(later, found[-1][3]))))
    return out


def _fresh_annex(table: str, known: set[str], annexes: frozenset[str]) -> str:
    """The letter of the annex a table numbers afresh, "" when it does not: ISO's «Annex A» table of controls
    prints «| 5.1 | Policies … |» beside the main text's own «5.1», and its rows are cited «A.5.1». A series of
    numbered rows in the annex of one letter, some of which cannot continue the text (their parent is not
    placed, or they are placed already), and not all of which are placed: a table restating the text's points
    (a mapping appendix) is not renumbered."""
    letter = next(iter(annexes)) if len(annexes) == 1 else ""
    if len(letter) != 1:
        return ""
    rows = [p[0] for row in re.finditer(r"[^\n]+", table) if (p := row_point(row.group(0)))]
    numbers = [label for label in rows if label.atom[:1].isdigit()]
    placed = sum(_placed(label.atom, known) for label in numbers)
    # A table the page broke goes on with the annex's series: «A.5.19» placed, «5.20» continues it.
    going_on = any(_placed(f"{letter}.{x.parent}", known) or _placed(f"{letter}.{x.atom}", known) for x in numbers)
    restart = going_on or any(not _placed(label.parent, known) or _placed(label.atom, known) for label in numbers)
    return letter if len(numbers) >= 2 and restart and placed < len(numbers) else ""


def _placed(atom: str, known: set[str]) -> bool:
    return atom in known or g.section_id(atom) in known or g.point_id(atom) in known


def row_point(
    row: str, read: Callable[[str], list[numbering.Label]] = numbering.read_label
) -> tuple[numbering.Label, str, str] | None:
    """The numbered point a table row prints in its first cell («| A.5.1.1 | Policies … |»): its label, the
    text of the cells after it, and the rest of its own cell; None for a row that opens with no point."""
    cells = [c.strip() for c in row.strip("|").split("|")]
    first = next((c for c in cells if c), "")
    label = next((x for x in read(first) if POINT_STYLE.fullmatch(x.style)), None)
    if label is None:
        return None
    return label, " ".join(cells[cells.index(first) + 1 :]), first[label.length :]


POINT_STYLE = re.compile(r"[XЯ]\.n(?:\.n)*|n(?:\.n)+")  # «3.4.3», «A.5.1.1», «А.2»: not a bare «1»
ROW_WORDS = 3  # words after a row's id that make the row its statement
_SERIES = re.compile(r"[XЯ]{2,}[.-]|[XЯ]+(?:\.[XЯ]+)*-n")  # «PR.AC-n», «PO.n.n», «AC-n»: ids, not list numbers


def is_series(label: numbering.Label) -> bool:
    """A label of an id series: a family's («PR.AC-4», «PO.1.1», «AC-2») or one read by its shape with a letter
    in it («AC.L2-3.1.3», «T1059.001»), not a list number."""
    return bool(_SERIES.match(label.style)) or (
        label.style.startswith(GENERIC) and any(ch.isalpha() for ch in label.atom)
    )
