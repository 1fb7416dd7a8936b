"""Resolve a reference to clause spans: a section path (``docs/…/012-x.md#ч. 3``) or a citation as
lawyers write it (``152-ФЗ ст. 12 ч. 3``, ``п. 1 ч. 2 ст. 12 152-ФЗ``, ``ПП 1119 Требования п. 13``,
``Приказ ФСТЭК № 17 прил. 2 УПД.1``, ``RFC 4271 §4.2``).

A reference is read completely or refused: the document id, the clause components and known filler
words («Требования», «статья», «Section») must account for every token (``law.grammar`` reads
them); anything left over is a :class:`CitationError` that names it and the closest clause ids —
never a silent widening to the whole document. The result says at which ``level`` it points
(``clause``, ``section`` — a section file or a chapter of sections — or ``document``), and which
other documents (editions, formats of one act) the citation also matched.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache
from pathlib import Path

from docshelf.errors import CitationError, EditionError, SectionNotFoundError
from docshelf.law import docids, docnames, grammar
from docshelf.law.editions import has_edition, meta_status, parse_date
from docshelf.law.editions import id_key as _key
from docshelf.records import DocMeta, SectionMeta
from docshelf.shelf import gitrepo
from docshelf.shelf.reader import metas_at, moved_section, safe_path, section_record
from docshelf.text.labelpaths import (
    address_places,
    all_clause_ids,
    by_title,
    cite_instead,
    closest,
    doc_parts,
    numbered_heading,
    one_label,
    point_of_subparagraph,
    restated,
    titled_heading,
    titled_item,
)

_GLUED_BRACKET = re.compile(r"(?<=[\w)])\(\w{1,4}\)")
WHOLE = 1 << 62  # end offset of a target that is a whole section
LEVELS = ("clause", "section", "document")


@dataclass(frozen=True)
class Target:
    """One span of the shelf that a reference points to."""

    doc_id: str
    path: str
    clause: str  # "" = the whole section
    start: int
    end: int


@dataclass(frozen=True)
class Resolution:
    """What a reference was read as: its targets, the level they prove, and what the caller must be told."""

    doc_id: str
    clause: str  # the clause id read («ст. 12 ч. 3»); "" for a document or a section path
    level: str  # one of LEVELS
    targets: list[Target]
    candidates: list[str] = field(default_factory=list)  # other documents the citation also matched
    notes: list[str] = field(default_factory=list)  # edition choice, an ambiguous clause label


@lru_cache(maxsize=65536)
def _names_of(doc_id: str, title: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """(its own names, all its names) — read once per document, not once per citation.

    Its own: the ways of writing this document's id (and a law's title), what tells an edition apart. All:
    those and the short forms it shares with its other editions (:func:`docnames.names`)."""
    named = docids.law_title(doc_id, title)  # «ст. 6 Закона о персональных данных»
    own = [doc_id, *docids.id_spellings(doc_id)] + ([named] if named else [])
    return frozenset(own), tuple(dict.fromkeys(own + list(docnames.names(doc_id, title))))


@lru_cache(maxsize=16)
def _by_piece(shelf: tuple[tuple[str, str], ...]) -> dict[str, tuple[int, ...]]:
    """The documents (by position) whose names hold each piece: a citation's candidates are only those holding
    one of its pieces. Keyed by the shelf's (id, title) pairs, so it is built once per commit."""
    out: dict[str, list[int]] = {}
    for n, (doc_id, title) in enumerate(shelf):
        for text in dict.fromkeys(p.text for name in _names_of(doc_id, title)[1] for p in docnames.pieces(name)):
            out.setdefault(text, []).append(n)
    return {k: tuple(v) for k, v in out.items()}


def _candidates(metas: tuple[DocMeta, ...], ref: str) -> list[tuple[int, bool, DocMeta]]:
    """(name length, own name?, meta) of every document whose longest name in ``ref`` is the longest there."""
    table = _by_piece(tuple((m.id, m.title) for m in metas))
    near = sorted({n for p in docnames.pieces(ref) for n in table.get(p.text, ())})
    scored = []
    for meta in (metas[n] for n in near):
        own = _names_of(meta.id, meta.title)[0]
        found = [(docnames.length(n), n in own) for n in _matched_names(meta, ref)]
        if found:
            best = max(n for n, _own in found)
            scored.append((best, any(o for n, o in found if n == best), meta))
    top = max((s[0] for s in scored), default=0)
    return [s for s in scored if s[0] == top]


def _edition_date(meta: DocMeta) -> date:
    """When an edition starts: its recorded dates, else a date in its id («(ред. 08.08.2024)»)."""
    edition = meta.edition if isinstance(meta.edition, dict) else {}
    found = docids.RU_DATE.search(meta.id)
    for value in (edition.get("valid_from"), edition.get("adopted"), found.group(0) if found else None):
        if value:
            try:
                return parse_date(value)
            except EditionError:
                pass
    return date.min


def find_document(
    metas: tuple[DocMeta, ...], ref: str, as_of: date | None = None
) -> tuple[DocMeta | None, list[str], str]:
    """The document a citation names, the other documents it also matched, and a note on the choice.

    Several editions (or formats) of one act share its number: the edition in force on ``as_of`` wins;
    without recorded statuses, the document whose own id the citation spells, then the newest edition.
    """
    found = _candidates(metas, ref)
    if not found:
        return None, [], ""
    if len(found) == 1:
        return found[0][2], [], ""

    def rank(item: tuple[int, bool, DocMeta]) -> tuple[int, int, date, str]:
        _n, own, meta = item
        in_force = _in_force(meta, as_of)
        return (int(in_force), int(own), _edition_date(meta), meta.id)

    ordered = sorted(found, key=rank, reverse=True)
    chosen = ordered[0][2]
    others = [m.id for _n, _o, m in ordered[1:]]
    if _in_force(chosen, as_of):
        why = f"it is the edition in force on {(as_of or date.today()).isoformat()}"
    elif ordered[0][1] and not all(own for _n, own, _m in ordered[1:]):
        why = "the citation spells its id; no edition status is recorded to prefer another"
    else:
        why = "it is the newest edition; no edition status is recorded"
    note = f"The citation also matches {', '.join(others)}; read as {chosen.id}: {why}."
    return chosen, others, note


def _in_force(meta: DocMeta, as_of: date | None) -> bool:
    return has_edition(meta) and meta_status(meta, as_of).in_force


def _without_stated_number(root: Path, commit: str, meta: DocMeta, ref: str, dated: docids.Dated, rest: str) -> str:
    """Check the act's date a citation gives against the dates the document states beside its number (its
    opening or signature lines) or records as adopted; the citation without the number that followed the date
    (a code's law number, «№ 74-ФЗ»). A date the document does not state is refused, never read past:
    «от 01.01.2000 № 152-ФЗ» is not 152-ФЗ."""
    when, number = dated
    paths = dict.fromkeys(s.path for s in (meta.sections[:1] + meta.sections[-1:]))
    text = "\n".join([meta.title, *(gitrepo.read(root, p, commit).decode("utf-8") for p in paths)])
    stated = docids.stated_dates(text, meta.id)
    adopted = meta.edition.get("adopted") if isinstance(meta.edition, dict) else None
    if adopted and re.fullmatch(r"\d{4}-\d{2}-\d{2}", adopted):
        year, month, day = map(int, adopted.split("-"))
        stated.add(((day, month, year), ""))
    numbers = {n for w, n in stated if w == when}  # what the document numbers itself on that date
    if not number or _key(number) in _key(meta.id):  # no number, or the document's id (already read)
        if numbers:
            return rest
    elif number in numbers:  # a code's law number: «Водный кодекс РФ от 03.06.2006 № 74-ФЗ»
        return re.sub(rf"(?:N|№)?\s*{re.escape(number)}", " ", rest, count=1, flags=re.IGNORECASE)
    said = f"{when[0]:02}.{when[1]:02}.{when[2]}" + (f" № {number}" if number else "")
    states = ", ".join(sorted(f"{d:02}.{m:02}.{y}" + (f" № {n}" if n else "") for (d, m, y), n in stated))
    raise CitationError(
        f"{meta.id}: the reference {ref!r} dates the act {said}, but the document states "
        f"{states or 'no date beside its number'}. Cite it without the date, or with the date it states."
    )


def _matched_names(meta: DocMeta, ref: str) -> list[str]:
    """The document's names the citation spells, longest first."""
    ref_pieces = docnames.pieces(ref)
    found = [n for n in _names_of(meta.id, meta.title)[1] if docnames.find(docnames.pieces(n), ref_pieces) is not None]
    return sorted(found, key=docnames.length, reverse=True)


def canonical_clause(ref: str, parts: set[str], *, english: bool = False) -> str:
    """The clause part of a citation in DocShelf's order: «п. 1 ч. 2 ст. 12» → «ст. 12 ч. 2 п. 1»."""
    parsed = grammar.parse_citation(ref, english=english, names=frozenset(p for p in parts if p))
    clause = parsed.clause()
    return f"{parsed.name} {clause}".strip() if parsed.name else clause


def _in_group_spans(meta: DocMeta, groups: list[str], t: Target) -> bool:
    """Whether a target lies inside the spans of every named group headed in its own file."""
    clauses = next((s.clauses for s in meta.sections if s.path == t.path), ())
    return all(any(c.id == g and c.start <= t.start and t.end <= c.end for c in clauses) for g in groups)


def _clause_targets(meta: DocMeta, clause: str) -> list[Target]:
    exact = [Target(meta.id, s.path, c.id, c.start, c.end) for s in meta.sections for c in s.clauses if c.id == clause]
    if exact:
        # A clause's footnotes are its own, wherever the page printed them («§3.5.3 footnote 22»).
        return exact + [
            Target(meta.id, s.path, c.id, c.start, c.end)
            for s in meta.sections
            for c in s.clauses
            if grammar.footnote_owner(c.id) == clause
        ]
    # «requirement 2.1.1» of a standard that numbers it V2.1.1; not a bare «1» («Level 1» is no chapter V1)
    if clause.startswith("§") and clause[1:2].isdigit() and "." in clause:
        if verified := _clause_targets(meta, "V" + clause[1:]):
            return verified
    lone = f" {grammar.paragraph_id(1)}"
    if clause.endswith(lone):
        # A one-paragraph clause is its own «абз. 1»: no paragraph ids were written for it.
        parent = clause.removesuffix(lone)
        ids = all_clause_ids(meta)
        if parent in ids and not any(cid.startswith(parent + " ") for cid in ids):
            return _clause_targets(meta, parent)
    # «п. 13» when the document numbers it «Требования п. 13»: accept a unique longer id ending the same.
    hits = [
        Target(meta.id, s.path, c.id, c.start, c.end)
        for s in meta.sections
        for c in s.clauses
        if c.id.endswith(" " + clause)
    ]
    return hits if len({t.clause for t in hits}) == 1 else []


def _group_ids(section: SectionMeta, english: bool) -> set[str]:
    """Clause ids of the headings a section sits under («гл. 3», «разд. II») and its own."""
    return {section.clause, *(grammar.heading_id(text, english=english) for text in section.groups)}


def _ambiguity(meta: DocMeta, targets: list[Target]) -> str:
    """A note when one clause id labels places in unrelated sections (a build defect, e.g. list items)."""
    targets = [t for t in targets if grammar.footnote_owner(t.clause) is None]  # a clause's footnotes are its own
    if len(targets) <= 1:
        return ""
    by_path = {s.path: s.clause for s in meta.sections}
    owners = {by_path.get(t.path, "") for t in targets}
    order = {s.path: n for n, s in enumerate(meta.sections)}
    places = sorted(order.get(t.path, -1) for t in targets)
    # Consecutive sections under one clause are the pieces of a split article (or an appendix and its
    # subsections); the same label in scattered places is two different things.
    if len(owners) == 1 and next(iter(owners)) and places == list(range(places[0], places[0] + len(places))):
        return ""
    return (
        f"{meta.id} labels {len(targets)} places «{targets[0].clause}» in different sections "
        f"({', '.join(sorted(o or '—' for o in owners)[:4])}): the label is ambiguous in this document's structure."
    )


_QUOTED_TAIL = re.compile(r"«[^«»]+»[^«»]*$")


def resolve_ref(root: Path, ref: str, commit: str, *, as_of: date | None = None) -> Resolution:
    """Read ``ref`` completely at ``commit``; CitationError (naming what was not understood) otherwise."""
    ref = ref.strip()
    if not ref:
        raise CitationError("Empty reference: give a section path or a citation such as «152-ФЗ ст. 12 ч. 3».")
    metas = metas_at(root, commit)
    if ref.startswith("docs/"):
        return _resolve_path(root, metas, ref, commit)
    # «Приказ ФСТЭК России от 25.12.2017 № 239»: the act's date stands between the words of its id
    dated = docids.cited_date(ref)
    undated = ref if dated is None else ref[: dated[0][0]] + " " + ref[dated[0][1] :]
    meta, others, note = find_document(metas, undated, as_of)
    if meta is None:
        known = ", ".join(sorted(m.id for m in metas)[:30])
        raise CitationError(f"No document on the shelf matches {ref!r}. Documents: {known}.")
    english = meta.english
    # «‹How to Reference ASVS Requirements› NOTE»: a clause id in quotes, read whole before the document's names are
    # cut out of the reference (they may be words of the title: «ASVS»)
    if (tail := _QUOTED_TAIL.search(undated)) and (by_id := _clause_targets(meta, tail.group(0).strip())):
        if not _ambiguity(meta, by_id):
            return Resolution(meta.id, tail.group(0).strip(), "clause", by_id, others, [note] if note else [])
    rest = undated
    for name in _matched_names(meta, undated):  # «152-ФЗ «О персональных данных»»: the id and the title both go
        rest = docnames.without(rest, name)
    if dated is not None:
        rest = _without_stated_number(root, commit, meta, ref, dated[1], rest)
    quoted = rest.strip()
    if quoted.startswith("«") and (by_heading := _clause_targets(meta, quoted)) and not _ambiguity(meta, by_heading):
        # «Level 1»: a heading cited by its title in quotes is that heading's clause, whatever its words would
        # read as in the grammar («Level» a filler, «1» a section)
        return Resolution(meta.id, quoted, "clause", by_heading, others, [note] if note else [])
    parsed = grammar.parse_citation(rest, english=english, names=doc_parts(meta))
    problems = []
    if parsed.unread:
        problems.append(f"«{' '.join(parsed.unread)}» is not understood")
    if parsed.repeated:
        problems.append(f"«{', '.join(parsed.repeated)}» names more than one place")
    clause = parsed.clause(slots=frozenset(grammar.CITE_ORDER) - grammar.GROUP_SLOTS)
    named = f"{parsed.name} {clause}".strip() if parsed.name else clause
    targets = _clause_targets(meta, named) if clause and not problems else []
    # «§3(3)», «§ 11.10(a)(1)»: brackets the grammar skips as punctuation are a label in English texts.
    bracketed = english and _GLUED_BRACKET.search(rest) is not None
    if problems or bracketed or (clause and not targets):
        # The document's own labels as the citation spells them («§ 11.10(a)», «4.2(11)», «A.9.2.3»).
        places, ids = address_places(meta, rest)
        said = [note] if note else []
        if not ids and (by_point := point_of_subparagraph(meta, rest)):
            places, ids, skipped = by_point
            said.append(f"«{skipped}» is no clause of its own here: {ids[0]}, the one place of that point, is named.")
        by_address = [Target(meta.id, s.path, c.id, c.start, c.end) for s, c in places]
        if len(ids) == 1:
            return Resolution(meta.id, ids[0], "clause", by_address, others, said)
        if bracketed and not ids:
            problems.append(f"no clause has the bracketed label of «{rest.strip()}»")
        if len(ids) > 1:
            raise CitationError(
                f"{meta.id}: the reference {ref!r} names {len(ids)} places: {', '.join(ids[:6])}. "
                f"Cite one of them, e.g. «{meta.id} {ids[0]}»."
            )
    items, listed = titled_item(meta, rest) if problems else ([], [])
    if items:  # a numbered list under an unnumbered heading: «OWASP ASVS 4.0.3 OWASP Core Projects item 2»
        targets = [Target(meta.id, s.path, c.id, c.start, c.end) for s, c in items]
        return Resolution(meta.id, items[0][1].id, "clause", targets, others, [note] if note else [])
    if listed:
        shown = ", ".join(listed[:6]) + (", …" if len(listed) > 6 else "")
        raise CitationError(
            f"{meta.id} has no such item under that heading (read from {ref!r}); its items are {shown}. "
            f"Cite one of them, e.g. «{meta.id} {listed[0]}»."
        )
    if problems and (chapter := titled_heading(meta, rest)):
        # A manual's chapter kept in one file, cited by its heading («Acme Guide Configuring Storage»).
        targets = [Target(meta.id, s.path, c.id, c.start, c.end) for s, c in chapter]
        return Resolution(meta.id, chapter[0][1].id, "clause", targets, others, [note] if note else [])
    if problems and (titled := by_title(meta, rest)):
        # An unnumbered manual's chapter or section, cited by its heading («Bv9ARM «Catalog Zones»»).
        targets = [Target(meta.id, s.path, "", 0, WHOLE) for s in titled]
        return Resolution(meta.id, "", "section", targets, others, [note] if note else [])
    if problems and (label := one_label(rest)):
        # «T1059.004» read whole as a label the document numbers by, but no clause has it: say so, and what is near
        hint = closest(meta, label)
        raise CitationError(f"{meta.id} has no clause «{label}» (read from {ref!r}).{hint or ' ' + cite_instead(meta)}")
    if problems:
        # «Article 1(3)»: the tree of the bracketed path, not of «Article 1» alone
        hint = closest(meta, rest.strip() if bracketed else clause) if clause else ""
        raise CitationError(f"{meta.id}: in the reference {ref!r}, {'; '.join(problems)}. {cite_instead(meta)}{hint}")
    notes = [note] if note else []
    groups = [parsed.components[s] for s in grammar.CITE_ORDER if s in grammar.GROUP_SLOTS and s in parsed.components]
    if clause:
        if not targets:
            hint = closest(meta, named) or f" {cite_instead(meta)}"
            raise CitationError(f"{meta.id} has no clause «{named}» (read from {ref!r}).{hint}")
        if groups:
            inside = {s.path for s in meta.sections if set(groups) <= _group_ids(s, english)}
            targets_in = [t for t in targets if t.path in inside or _in_group_spans(meta, groups, t)]
            if not targets_in:
                raise CitationError(f"{meta.id}: «{named}» is not inside «{' '.join(groups)}» (read from {ref!r}).")
            targets = targets_in
        if ambiguous := _ambiguity(meta, targets):
            return Resolution(meta.id, named, "document", targets, others, [*notes, ambiguous])
        if others_printed := restated(meta, named):
            notes.append(
                f"«{named}» is also printed in another part: cite {', '.join(others_printed[:4])} for that place."
            )
        return Resolution(meta.id, targets[0].clause, "clause", targets, others, notes)
    if groups:
        sections = [s for s in meta.sections if set(groups) <= _group_ids(s, english)]
        headed = [t for g in groups[-1:] for t in _clause_targets(meta, g) if t.clause == g]
        if not sections and headed and all(_in_group_spans(meta, groups, t) for t in headed):
            # A division or chapter headed inside one file («I. Общие положения» of a short act): its span.
            return Resolution(meta.id, headed[0].clause, "clause", headed, others, notes)
        if not sections and (heading := numbered_heading(meta, groups)):
            # «раздел 5» of a contract whose sections are headed «5. ОБЯЗАННОСТИ СТОРОН» (clause «п. 5»)
            targets = [t for t in _clause_targets(meta, heading) if t.clause == heading]
            return Resolution(meta.id, heading, "clause", targets, others, notes)
        if not sections:
            raise CitationError(f"{meta.id} has no «{' '.join(groups)}» (read from {ref!r}).{closest(meta, groups[0])}")
        targets = [Target(meta.id, s.path, "", 0, WHOLE) for s in sections]
        return Resolution(meta.id, " ".join(groups), "section", targets, others, notes)
    targets = [Target(meta.id, s.path, "", 0, WHOLE) for s in meta.sections]
    return Resolution(meta.id, "", "document", targets, others, notes)


def _in_section(meta: DocMeta, s: SectionMeta, path: str, fragment: str) -> Resolution:
    """The section ``path`` itself, or the clause ``fragment`` (after «#») names in it."""
    if not fragment.strip():
        return Resolution(meta.id, "", "section", [Target(meta.id, path, s.clause, 0, WHOLE)])
    ids = {c.id: (c.start, c.end) for c in s.clauses}
    if (exact := fragment.strip()) in ids:  # the id as the build spelled it («§4.2 item 7.b»)
        return Resolution(meta.id, exact, "clause", [Target(meta.id, path, exact, *ids[exact])])
    parsed = grammar.parse_citation(fragment, english=meta.english, names=doc_parts(meta))
    if parsed.unread or parsed.repeated or not parsed.components:
        what = " ".join(parsed.unread + parsed.repeated) or fragment.strip()
        raise CitationError(
            f"{path}: the clause «{fragment.strip()}» is not understood («{what}»). "
            f"Clauses there: {', '.join(list(ids)[:8])}."
        )
    wanted = f"{parsed.name} {parsed.clause()}".strip()
    for cid in (wanted, f"{s.clause} {wanted}".strip(), f"{s.part} {wanted}".strip()):
        if cid in ids:
            return Resolution(meta.id, cid, "clause", [Target(meta.id, path, cid, *ids[cid])])
    close = difflib.get_close_matches(wanted, list(ids), n=5, cutoff=0.4)
    raise CitationError(f"{path} has no clause «{wanted}». Clauses there: {', '.join(close or list(ids)[:8])}.")


def resolve(root: Path, ref: str, commit: str, *, as_of: date | None = None) -> list[Target]:
    """Every span ``ref`` points to at ``commit``; CitationError (with the closest refs) when none."""
    return resolve_ref(root, ref, commit, as_of=as_of).targets


def _resolve_path(root: Path, metas: tuple[DocMeta, ...], ref: str, commit: str) -> Resolution:
    path, _, fragment = ref.partition("#")
    path = safe_path(path)
    if (found := section_record(root, commit, path)) is not None:  # the commit's path table, not a scan
        return _in_section(*found, path, fragment)
    if moved := moved_section(root, path, commit):  # a path of an earlier commit: the same clause's section now
        now = _resolve_path(root, metas, moved[0] + (f"#{fragment}" if fragment else ""), commit)
        return replace(now, notes=[moved[1], *now.notes])
    raise SectionNotFoundError(f"No section {path!r} at commit {commit[:12]}; read the index for paths.", path=path)
