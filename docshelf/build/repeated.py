"""One label, one place: a label a document prints in two parts becomes two addresses, each qualified
by the part it is in.

NIST SP 800-53 prints «AC-2» in its control catalogue (Appendix F) and again in its industrial-systems
appendix (Appendix I); a label like that cannot be proven at clause level by itself. The build looks
for clause ids that stand in sections of different parts (not the pieces of one split section), finds
for each place the part it sits in (the appendix, annex or division among the section's groups, or
the section's own heading), and when those parts tell every place apart, spells each place with its
part first («Appendix I AC-2»). The place where the label heads its own section (the catalogue's
«AC-2») is its home and keeps the bare label, so the usual citation proves the clause; where it heads
a section in several parts, the part holding the most clauses (the whole catalogue, not the appendix
restating a selection of it) is the home; without one home every place is qualified and a bare
citation names them all (``text.citations``). A label named by a word that restarts under each unnumbered
heading of a split manual («Step 1» under «Installing the Agent» and again under «Removing the Agent») is told
apart by those headings («‹Removing the Agent› Step 1», as a manual kept in one file spells it). Places neither
tells apart stay as they are, and the quality report says so. Pure.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace

from docshelf.law import grammar
from docshelf.law.numbering import NAMED_ID
from docshelf.records import Clause, SectionMeta

_PART_KINDS = frozenset({"appendix", "annex", "prilozhenie", "razdel", "roman", "glava", "subappendix"})


def part_of(section: SectionMeta, english: bool) -> str:
    """The clause id of the outermost part a section is in («Appendix F», «прил. 2»); "" when none."""
    own = [section.title] if section.clause and grammar.is_annex(section.clause) else []
    for text in [*section.groups, *own, section.clause]:
        if part := grammar.heading_id(text, english=english, kinds=_PART_KINDS):
            return part
        if text == section.clause and section.clause.startswith(grammar.PART_PREFIXES):
            return section.clause
    return ""


def drop_repeated_notes(records: Sequence[SectionMeta]) -> list[SectionMeta]:
    """Notes whose id the document prints twice («Note: …» twice under one clause, unnumbered) name no place: they
    stay their clause's text, as before a note was a clause (:data:`grammar.NOTE_LINE`)."""
    counts = Counter(c.id for r in records for c in r.clauses if grammar.NOTE_ID.search(c.id))
    twice = {cid for cid, k in counts.items() if k > 1}
    if not twice:
        return list(records)
    return [replace(r, clauses=tuple(c for c in r.clauses if c.id not in twice)) for r in records]


def qualify_repeated(
    records: Sequence[SectionMeta], english: bool
) -> tuple[list[SectionMeta], list[dict[str, object]]]:
    """The records with labels printed in two parts qualified by their parts, and what was done:
    ``[{"label", "places", "as"}]`` (``as`` empty when the parts could not tell the places apart)."""
    where: dict[str, list[int]] = defaultdict(list)
    for n, r in enumerate(records):
        for c in r.clauses:
            if not where[c.id] or where[c.id][-1] != n:
                where[c.id].append(n)
    renames: dict[int, dict[str, str]] = defaultdict(dict)
    report: list[dict[str, object]] = []
    part_at = [part_of(r, english) for r in records]
    size: Counter[str] = Counter()  # clauses per part
    for r, p in zip(records, part_at, strict=True):
        size[p] += len(r.clauses)
    for label, places in where.items():
        if len(places) < 2 or _one_split_section(records, places):
            continue
        parts = [part_at[n] for n in places]
        # consecutive sections of one part, or of one unnumbered heading cut in pieces, are one place
        runs = _runs(places, [p or _PIECE.sub("", records[n].title) for n, p in zip(places, parts, strict=True)])
        if len(runs) < 2:
            continue  # consecutive sections of one part: the pieces of one place
        # Its home: the one place where the label heads its own section (the catalogue's «AC-2»)
        # keeps the bare label; the places that restate it elsewhere are qualified.
        homes = {parts[k] for k, n in enumerate(places) if records[n].clause == label}
        home = _home(homes, size)
        others = [(n, p) for n, p in zip(places, parts, strict=True) if p != home]
        named = {p for _n, p in others}
        if (
            all(named)
            and len(named) == len(runs) - (home is not None)
            and not any(label.startswith(p + " ") for p in named)
        ):
            for n, part in others:
                renames[n][label] = f"{part} {label}"
            report.append({"label": label, "places": len(runs), "as": sorted(f"{p} {label}" for p in named)})
        elif titled := _by_titles(records, places, label):
            # «Step 1» restarting under each unnumbered heading of a split manual: each place spelled with its
            # section's heading, as one file spells it («‹Removing the Agent› Step 1»)
            for n, name in titled.items():
                renames[n][label] = name
            report.append({"label": label, "places": len(runs), "as": sorted(titled.values())})
        else:
            report.append({"label": label, "places": len(runs), "as": []})
    out = list(records)
    for n, names in renames.items():
        r = out[n]
        clauses = tuple(Clause(_renamed(c.id, names), c.start, c.end) for c in r.clauses)
        out[n] = replace(r, clauses=clauses)
    return out, report


def _renamed(cid: str, names: dict[str, str]) -> str:
    """A clause id under its renamed label: the label itself, or what is inside it («Step 1 item a»)."""
    if cid in names:
        return names[cid]
    inside = next((label for label in names if cid.startswith((f"{label} ", f"{label}("))), None)
    return names[inside] + cid[len(inside) :] if inside else cid


def _by_titles(records: Sequence[SectionMeta], places: list[int], label: str) -> dict[int, str]:
    """Places of a label named by a word («Step 1») told apart by the titles of the unnumbered sections they
    are in, one title a place: {section index: «title» label}; {} when the titles do not tell them apart."""
    if not NAMED_ID.fullmatch(label) or any(records[n].clause for n in places):
        return {}
    titles = {n: _PIECE.sub("", records[n].title) for n in places}  # «Removing the Agent (2/2)»: one of its pieces
    runs = _runs(places, [titles[n] for n in places])
    if len(set(runs)) != len(runs) or not all(runs):
        return {}
    return {n: f"«{title}» {label}" for n, title in titles.items()}


_PIECE = re.compile(r"\s*\(\d+/\d+\)$")


def _home(homes: set[str], size: Counter[str]) -> str | None:
    """The part that is the label's home: the one place it heads a section; when it heads one in several
    parts (a catalogue and an appendix that restates some of its controls under their own headings), the
    part that holds the most clauses: the whole series, not the selection restated from it."""
    if len(homes) < 2:
        return next(iter(homes), None)
    first, second = sorted(homes, key=lambda p: size[p], reverse=True)[:2]
    return first if size[first] > size[second] else None


def _one_split_section(records: Sequence[SectionMeta], places: list[int]) -> bool:
    """Consecutive pieces of one section (a long article cut in parts) hold one place, not two."""
    owners = {records[n].clause or _PIECE.sub("", records[n].title) for n in places}  # unnumbered: by its title
    return len(owners) == 1 and places == list(range(places[0], places[0] + len(places)))


def _runs(places: list[int], parts: list[str]) -> list[str]:
    """The distinct places: consecutive sections of one part count once."""
    out: list[str] = []
    last = -2
    for n, part in zip(places, parts, strict=True):
        if not out or n != last + 1 or part != out[-1]:
            out.append(part)
        last = n
    return out


__all__ = ["part_of", "qualify_repeated"]
