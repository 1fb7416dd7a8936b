"""A build that reports its own quality: how much of the document's own map made it onto the shelf.

Per document: the share of its outline (PDF bookmarks) or printed contents entries found as
headings, numbering gaps, repeated lines that survived cleaning (page furniture), fixed-size
fallback parts («(3/12)»), suspected false headings (a clause id in two places) and tables whose
rows do not line up. Stored in the meta under ``quality``, printed at ``add``/``rebuild`` and judged
against the shelf's floors by ``docshelf check --strict``. Pure: no disk, no Git.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from docshelf.build.clean import surviving_furniture
from docshelf.build.completeness import ContentsEntry, numbering_problems
from docshelf.build.docmap import key
from docshelf.build.options import QualityFloors
from docshelf.build.structure import Heading
from docshelf.law import grammar as g
from docshelf.model import Block
from docshelf.records import DocMeta, SectionMeta

_FALLBACK_PART = re.compile(r"\((\d+)/(\d+)\)$")
_MD_HEADING = re.compile(r"^#{1,6}\s+(.+)$", re.M)
_GROUP_ID = re.compile(rf"\s{g.BRACKETED_ID}\s*$")  # an entry naming a group by its id
_DECIMAL_NUMBER = re.compile(r"^(?:[A-Z]\.)?\d+(?:\.\d+)*$")
_SHOWN = 8  # how many missing entries, gaps or samples a warning names


@dataclass(frozen=True)
class Shelved:
    """What one built section offers to a reader looking for a contents entry."""

    title: str
    clause: str
    groups: tuple[str, ...]
    clause_ids: tuple[str, ...]
    markdown: str


def _heading_keys(sections: Sequence[Shelved], title: str) -> set[str]:
    keys = {key(title)}
    for s in sections:
        keys.add(key(s.title))
        keys.update(key(grp) for grp in s.groups)
        keys.update(key(h) for h in _MD_HEADING.findall(s.markdown))
    keys.discard("")
    return keys


def _found(entry: ContentsEntry, clause_ids: set[str], numbers: set[str], keys: set[str]) -> bool:
    if (entry.clause and entry.clause in clause_ids) or (entry.number and entry.number in numbers):
        return True
    if (group := _GROUP_ID.search(entry.title)) and group.group("id") in clause_ids:
        return True  # «Protect Software (PS)» in the outline, «Protect the Software (PS)» in the table
    want = key(entry.title)
    if not want:
        return True  # nothing to look for (a bare page number)
    return any(k == want or (len(k) >= 10 and (k.startswith(want) or want.startswith(k))) for k in keys)


def contents_share(
    entries: Sequence[ContentsEntry], unmapped: Sequence[ContentsEntry], sections: Sequence[Shelved], title: str
) -> tuple[int, list[ContentsEntry]]:
    """How many contents entries are found as headings, and the missing ones.

    ``unmapped`` are the entries the map search did not find; one of them still counts when a
    section carries its clause id or a heading with its title (the grammar found it).
    """
    clause_ids = {c for s in sections for c in (s.clause, *s.clause_ids) if c}
    numbers = {s.clause.split(" ")[-1].lstrip("§") for s in sections if s.clause}  # a section's own, not a list item
    keys = _heading_keys(sections, title)
    missing = [e for e in unmapped if not _found(e, clause_ids, numbers, keys)]
    return len(entries) - len(missing), missing


def fallback_parts(sections: Sequence[Shelved]) -> int:
    """Sections cut at a fixed size because no heading was found inside them («… (3/12)»)."""
    return sum(1 for s in sections if _FALLBACK_PART.search(s.title))


def false_headings(sections: Sequence[Shelved]) -> list[str]:
    """Clause ids that head two separate runs of sections under the same parents: a list item that
    took a chapter's id. (The same control under two appendices is the document's own repetition.)"""
    runs = [
        (s.groups, s.clause)
        for n, s in enumerate(sections)
        if s.clause and (n == 0 or sections[n - 1].clause != s.clause)
    ]
    return list(dict.fromkeys(c for (groups, c), n in Counter(runs).items() if n > 1))


def heading_gaps(headings: Sequence[Heading]) -> list[str]:
    """Decimal heading numbers that skip a sibling («4.1» then «4.3»; «4.2» is not among the headings)."""
    out: list[str] = []
    last: dict[tuple[str, ...], int] = {}
    for h in headings:
        if h.kind != "num" or not _DECIMAL_NUMBER.match(h.number):
            continue
        parts = h.number.split(".")
        parent, leaf = tuple(parts[:-1]), parts[-1]
        if not leaf.isdigit():
            continue
        prev = last.get(parent)
        if prev is not None and int(leaf) > prev + 1:
            out.append(f"{'.'.join([*parent, str(prev)])} is followed by {h.number}")
        last[parent] = int(leaf)
    return out


def unlisted_headings(entries: Sequence[ContentsEntry], headings: Sequence[Heading]) -> list[str]:
    """Numbered headings the body prints that the document's map leaves out beside listed siblings.

    A map is the author's statement, but an outline may be partial (bookmarks for «1.2» and «1.4»
    while the body heads «1.3» too): checked against the body's own numbering, it is not trusted
    alone. A map that lists no sibling at that depth is shallower, not partial, and says nothing.
    """
    listed = {e.number.rstrip(".") for e in entries if e.number}
    parents = {n.rpartition(".")[0] for n in listed if _DECIMAL_NUMBER.match(n)}
    return list(
        dict.fromkeys(
            h.number
            for h in headings
            if h.kind == "num"
            and _DECIMAL_NUMBER.match(h.number)
            and h.number not in listed
            and h.number.rpartition(".")[0] in parents
        )
    )


def unaligned_tables(blocks: Iterable[Block]) -> int:
    """Markdown tables with a row whose cell count differs from the header's (cells out of their columns)."""
    count = 0
    for b in blocks:
        if b.kind != "table":
            continue
        rows = [r for r in b.text.split("\n") if r.startswith("|")]
        widths = {_cells(r) for r in rows}
        if len(widths) > 1:
            count += 1
    return count


def _cells(row: str) -> int:
    return len(re.split(r"(?<!\\)\|", row.strip().strip("|")))


def assess(
    *,
    contents: tuple[str, Sequence[ContentsEntry], Sequence[ContentsEntry]],
    blocks: tuple[Block, ...],
    headings: Sequence[Heading],
    sections: Sequence[Shelved],
    meta: DocMeta,
    title_source: str,
    id_source: str,
    addresses: dict[str, Any] | None = None,
    bookmarks: Sequence[str] = (),
) -> dict[str, Any]:
    """The quality record of one built document (see the module docstring); ``warnings`` says it in words.

    ``contents`` is the document's map: its name («outline», «contents», «none»), its entries and
    the entries the map search did not find in the body; ``bookmarks`` the outline's entries left out
    of it as bookmarked paragraphs.
    """
    source, entries, unmapped = contents
    found, missing = contents_share(entries, unmapped, sections, meta.title)
    furniture = surviving_furniture(blocks)
    gaps = [*numbering_problems(meta), *heading_gaps(headings)]
    false = false_headings(sections)
    fallback = fallback_parts(sections)
    tables = sum(1 for b in blocks if b.kind == "table")
    unaligned = unaligned_tables(blocks)
    record: dict[str, Any] = {
        "contents": {
            "source": source,
            "expected": len(entries),
            "found": found,
            "share": round(found / len(entries), 3) if entries else None,
            "missing": [e.label for e in missing],
            "unlisted": unlisted_headings(entries, headings) if entries else [],
            **({"paragraph_bookmarks": list(bookmarks)} if bookmarks else {}),
        },
        "headings": len(headings),
        "numbering_gaps": gaps,
        "furniture_lines": len(furniture),
        "furniture_samples": list(dict.fromkeys(furniture))[:_SHOWN],
        "fallback_parts": fallback,
        "false_headings": false,
        "tables": tables,
        "unaligned_tables": unaligned,
        "title_source": title_source,
        "id_source": id_source,
    }
    if addresses is not None:
        record["addresses"] = addresses
    record["warnings"] = quality_warnings(record)
    return record


def _some(items: Sequence[str]) -> str:
    shown = ", ".join(items[:_SHOWN])
    return shown + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")


def quality_warnings(q: dict[str, Any]) -> list[str]:
    """The quality record as a short list of warnings (empty when nothing needs a look)."""
    out: list[str] = []
    c = q["contents"]
    if c["expected"] and c["found"] < c["expected"]:
        out.append(
            f"contents: {c['found']} of {c['expected']} entries of the document's {c['source']} found as "
            f"headings ({c['found'] / c['expected']:.3f}); missing: {_some(c['missing'])}"
        )
    if bookmarks := c.get("paragraph_bookmarks"):
        out.append(
            f"contents: {len(bookmarks)} entries of the document's outline bookmark paragraphs of the text, not "
            f"headings, and are not counted as its map: {_some(bookmarks)}"
        )
    if unlisted := c.get("unlisted"):
        out.append(
            f"contents: the document's {c['source']} leaves out {len(unlisted)} numbered heading(s) the body prints "
            f"beside entries it lists: {_some(unlisted)} (the {c['source']} is partial; the body's numbering cut them)"
        )
    if q["numbering_gaps"]:
        out.append(f"numbering: {_some(q['numbering_gaps'])}")
    if q["furniture_lines"]:
        out.append(
            f"furniture: {q['furniture_lines']} repeated page line(s) survived cleaning, e.g. "
            f"{_some([repr(s) for s in q['furniture_samples']])}"
        )
    if q["fallback_parts"]:
        out.append(f"fallback: {q['fallback_parts']} section(s) cut at a fixed size («(k/n)»): no headings inside")
    if q["false_headings"]:
        out.append(f"false headings suspected: {_some(q['false_headings'])} head(s) two separate places")
    if q.get("title_source") == "file name":
        out.append(
            "title: the document sets none in display type and its metadata has none, so the file name stands in; "
            "give the document's title with --title (it is what index.md shows a model choosing a document)"
        )
    if q["unaligned_tables"]:
        out.append(f"tables: {q['unaligned_tables']} of {q['tables']} table(s) have rows that do not line up")
    a = q.get("addresses") or {}
    if unqualified := [str(r["label"]) for r in a.get("printed_twice", []) if not r["as"]]:
        out.append(
            f"addresses: {len(unqualified)} label(s) printed in more than one place that no part tells apart "
            f"(proven for the document only): {_some(unqualified)}"
        )
    if a.get("gaps"):
        out.append(f"addresses: a series skips a label: {_some(a['gaps'])}")
    if a.get("share") is not None and a["share"] < _ADDRESSES_WARN:
        out.append(
            f"addresses: {a['addressed']} of {a['printed']} labels the document prints at block starts are clauses "
            f"({a['share']:.3f}); not placed, e.g. {_some([repr(u) for u in a['unplaced']])}"
        )
    return out


_ADDRESSES_WARN = 0.95  # below this share of printed labels made clauses, add says so


def below_floors(q: dict[str, Any], floors: QualityFloors) -> list[str]:
    """Why a document fails the shelf's quality floors (empty when it passes)."""
    out: list[str] = []
    c = q.get("contents") or {}
    share = c.get("share")
    if share is not None and share < floors.min_contents_found:
        out.append(
            f"{c['found']} of {c['expected']} contents entries found as headings ({share:.3f} < "
            f"{floors.min_contents_found:.3f}); missing: {_some(c.get('missing', []))}"
        )
    a = q.get("addresses") or {}
    if a.get("share") is not None and a["share"] < floors.min_labels_addressed:
        out.append(
            f"{a['addressed']} of {a['printed']} printed labels are clauses ({a['share']:.3f} < "
            f"{floors.min_labels_addressed:.3f}); not placed, e.g. {_some([repr(u) for u in a['unplaced']])}"
        )
    furniture = int(q.get("furniture_lines", 0))
    if furniture > floors.max_furniture_lines:
        out.append(f"{furniture} furniture line(s) survived cleaning (at most {floors.max_furniture_lines} allowed)")
    return out


def section_view(records: Sequence[SectionMeta], files: dict[str, str]) -> list[Shelved]:
    """The built sections as quality sees them (title, clause ids, Markdown)."""
    return [
        Shelved(
            title=r.title,
            clause=r.clause,
            groups=r.groups,
            clause_ids=tuple(r.clause_ids()),
            markdown=files.get(r.path, ""),
        )
        for r in records
    ]


__all__ = ["Shelved", "assess", "below_floors", "quality_warnings", "section_view"]
