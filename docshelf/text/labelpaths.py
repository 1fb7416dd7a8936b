"""Label paths: how a citation names a place in a document's own numbering, and what is nearest to it.

:mod:`text.citations` reads a citation with the family grammar first; when that names no clause, these
helpers read the label path itself, whatever words and brackets wrap it («§ 11.10(a)», «4.2(11)»,
«item 5.b», «A.9.2.3»), a heading title of an unnumbered manual, «раздел 5» of a contract, and list what
is closest by place in the tree. Pure: they read a document's meta, no Git.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from docshelf.law import grammar, numbering
from docshelf.law.lexicon import name_forms
from docshelf.law.shapes import GENERIC
from docshelf.records import Clause, DocMeta, SectionMeta

Place = tuple[SectionMeta, Clause]


def doc_parts(meta: DocMeta) -> frozenset[str]:
    """The names of the documents an act approves («Правила», «Требования»): its sections' parts, and the
    first word of clause ids such a part qualifies where it is kept in the act's own file («Правила п. 14»)."""
    named = {p for s in meta.sections for p in s.part.split() if p}
    named.update(w for w in meta.clause_heads if w.isalpha() and _APPROVED_NAME.match(w))
    return frozenset(named)


_APPROVED_NAME = re.compile(r"^[А-ЯЁ][а-яё]{3,}$")


def all_clause_ids(meta: DocMeta) -> list[str]:
    return list(dict.fromkeys(c.id for s in meta.sections for c in s.clauses))


def closest(meta: DocMeta, clause: str) -> str:
    """The clause ids nearest to one the document lacks: by place in the tree first (its parent, its
    siblings, its children), then by spelling."""
    ids = all_clause_ids(meta)
    want = _tree_key(clause)
    keys = {cid: _tree_key(cid) for cid in ids}
    tree: list[str] = []
    if len(want) > 1:  # a place under a parent: the parent, its children, then the wanted one's own
        parent = want[:-1]
        siblings = [c for c, k in keys.items() if k[:-1] == parent and k != want and len(k) == len(want)]
        tree += [c for c, k in keys.items() if k == parent]
        tree += siblings[:4]  # in the document's order: where the wanted one would stand
        tree += [c for c, k in keys.items() if k[: len(want)] == want and len(k) == len(want) + 1]
    spelled = difflib.get_close_matches(clause, ids, n=5, cutoff=0.5)
    close = list(dict.fromkeys(tree[:5] + spelled))[:5]
    return f" Closest: {', '.join(close)}." if close else ""


def one_label(rest: str) -> str:
    """The label a citation's clause part is, when it is one label read whole by its shape («T1059.004»,
    «AC.L2-3.1.9»); "" otherwise (words, several labels, a family's label the grammar reads)."""
    text = rest.strip()
    labels = numbering.read_label(text)
    return text if labels and labels[0].style.startswith(GENERIC) and labels[0].atom == text else ""


def example(meta: DocMeta) -> str:
    """A place to show in an error, one the document has: its first numbered clause (not a footnote or a
    paragraph), else any clause, else the title of a section the title alone names; "" when none is."""
    ids = all_clause_ids(meta)
    numbered = (c for c in ids if grammar.footnote_owner(c) is None and not _PARAGRAPH.search(c))
    if found := next(numbered, next(iter(ids), "")):
        return found
    titled = (s.title for s in meta.sections if s.title != meta.title and by_title(meta, s.title))
    return next(titled, "")


def cite_instead(meta: DocMeta) -> str:
    """What to cite instead, for an error: a place the document has, or how to cite one that names none."""
    if shown := example(meta):
        return f"Cite one clause, e.g. «{meta.id} {shown}»."
    return f"It has no clause of its own to name: cite «{meta.id}» alone or a section path (docs/…)."


_PARAGRAPH = re.compile(rf" {re.escape(grammar.PARAGRAPH)} \d+$")
_PIECE_MARK = re.compile(r"\s*\((?:\d+/\d+|[^()]*\d[^()]*)\)$")  # «(2/3)», «(§1–23)», «(п. 4–6)»


def _title_key(text: str) -> str:
    t = _PIECE_MARK.sub("", str(text)).replace("*", "")
    t = re.sub(r"^(?:[A-Z]\.)?\d+(?:\.\d+)*\.?\s+", "", t)  # «4.1 Configuration File Elements»
    t = re.sub(r"[«»\"“”„]", "", t)
    return numbering.TITLE_WORDS.sub("", " ".join(t.split()).strip(" .:;,")).casefold()


def by_title(meta: DocMeta, rest: str) -> list[SectionMeta]:
    """The sections headed (or grouped under a heading) exactly as the citation names them; [] unless
    they are one place (the pieces of one section, or one group)."""
    want = _title_key(rest)
    if len(want) < _MIN_TITLE:
        return []
    # The heading's own sections and those grouped under it: a chapter is its opening text and its sections.
    places = [
        n
        for n, s in enumerate(meta.sections)
        if _title_key(s.title) == want or any(_title_key(g) == want for g in s.groups)
    ]
    if places and places == list(range(places[0], places[0] + len(places))):
        return [meta.sections[n] for n in places]
    return []


def titled_heading(meta: DocMeta, rest: str) -> list[Place]:
    """The clause of an unnumbered heading printed once inside a section (a manual's chapter kept in one
    file), named by its title as the citation spells it («Acme Guide Configuring Storage»)."""
    want = _title_key(rest)
    if len(want) < _MIN_TITLE:
        return []
    return [(s, c) for s in meta.sections for c in s.clauses if c.id.endswith("»") and _heading_of(c.id) == want]


_MIN_TITLE = 4
# «‹title› item 2», «‹title›, item 2.b», «‹title› 2»: a list item under an unnumbered heading
_TITLED_NAMED = re.compile(r"^(?P<title>.+?)[\s,]+(?P<named>[^\W\d_]{3,16}\s\d{1,3}(?:\.\d{1,3})*)\.?$")
_TITLED_ITEM = re.compile(r"^(?P<title>.+?)[\s,]+(?:items?\s+|#)?(?P<path>\d{1,3}(?:\.[a-z\d]{1,3})*)\.?$", re.I)


def _heading_of(clause: str) -> str:
    return _title_key(clause[1 : clause.find("»")]) if "»" in clause else ""


def titled_item(meta: DocMeta, rest: str) -> tuple[list[Place], list[str]]:
    """The list item a citation names by its unnumbered section's heading and its number («OWASP ASVS
    4.0.3 OWASP Core Projects item 2»): the clause ««OWASP Core Projects» item 2» (the build gives a
    heading's title to its items only where the title heads one place), and the items under that heading
    (to name them when the number is not among them)."""
    m = _TITLED_NAMED.match(rest.strip()) or _TITLED_ITEM.match(rest.strip())
    if m is None:
        return [], []
    key = _title_key(m.group("title"))
    items = [(s, c) for s in meta.sections for c in s.clauses if c.id.startswith("«") and _heading_of(c.id) == key]
    # «Removing the Agent Step 1»: a label named by its word under the heading, as «… item 1» is
    named = m.groupdict().get("named")
    want = f" {named.casefold()}" if named else f" {grammar.ITEM} {m.group('path').casefold()}"
    return [(s, c) for s, c in items if c.id.casefold().endswith(want)], [c.id for _s, c in items]


def numbered_heading(meta: DocMeta, groups: list[str]) -> str:
    """«разд. 5» read as the section headed «5. …» when the document has no division 5 but numbers its
    top-level headings so (a contract, an agreement): that heading's clause id, or ""."""
    if len(groups) != 1 or not re.fullmatch(rf"{re.escape(grammar.DIVISION)} \d+", groups[0]):
        return ""
    wanted = grammar.point_id(groups[0].split()[-1]) if not meta.english else grammar.section_id(groups[0].split()[-1])
    ids = all_clause_ids(meta)
    if any(cid.startswith(grammar.DIVISION) for cid in ids) or any(s.groups for s in meta.sections):
        return ""  # a document with divisions of its own («Раздел II»): «раздел 2» is one of them, or nothing
    return wanted if wanted in ids else ""


def restated(meta: DocMeta, label: str) -> list[str]:
    """The qualified ids the build gave the other places that print ``label`` (``build.repeated``)."""
    addresses = (meta.quality or {}).get("addresses") or {}
    return next((list(r["as"]) for r in addresses.get("printed_twice", []) if r.get("label") == label), [])


def _tree_key(clause: str) -> tuple[str, ...]:
    """A clause's place in the tree: its address with dotted numbers as levels («п. 6.1.1» → 6, 1, 1)."""
    parts = (part for atom in numbering.address_key(clause) for part in re.split(r"[.-]", atom) if part)
    # Kind words («ст», «item», «appendix») say what a level is, not where: only labels stay.
    return tuple(p for p in parts if not (p.isalpha() and len(p) > 1 and not numbering.roman_value(p)))


def address_places(meta: DocMeta, rest: str) -> tuple[list[Place], list[str]]:
    """Clauses named by the label path a citation spells, in whatever words and brackets it wraps it
    («§ 11.10(a)», «4.2(11)», «item 5.b», «A.9.2.3», «пп. 1 подп. «г» п. 5.1.2»): (targets, ids).

    Every word must be a label, a word naming a label's kind or a filler; otherwise nothing is named.
    A path matches a clause whose own path is the same (read either way round: Russian citations name
    the innermost part first) or, when no clause has it whole, ends with it. Several ids: ambiguous.
    """
    rest = grammar.OWN_ANNEX.sub("", rest.strip())  # «Annex A A.5.1.1»: the annex its label already names
    part_names = {form: p for p in doc_parts(meta) for form in name_forms(p)}
    words = [w for w in re.split(r"\s+", rest.strip()) if w and w.casefold().strip(".,;:") not in grammar.FILLER_WORDS]
    # A part the citation names («Перечень п. 3», «Правила п. 5») is where the path is looked for: another part's
    # «п. 3» (the act's own) is not it.
    parts = {part_names[w.casefold().strip(".,;:")] for w in words if w.casefold().strip(".,;:") in part_names}
    words = [w for w in words if w.casefold().strip(".,;:") not in part_names]
    want = numbering.address_key(" ".join(words))
    clauses = [
        (s, c, numbering.address_key(c.id)) for s in meta.sections if not parts or s.part in parts for c in s.clauses
    ]
    own = {a for _s, _c, k in clauses for a in k}  # the document's own labels («id.am» of a CSF category)
    if not want or not all(re.search(r"\d", a) or len(a) <= 4 or a in numbering.PART_WORDS or a in own for a in want):
        return [], []
    # «point (a) of Article 5(1)»: the innermost label first, then the part it is of (as EU acts cite)
    # («подп. «а» п. А.2 прил. А»: the part, then what stood before it innermost-first, read outwards)
    turned = next((want[k:] + want[:k][::-1] for k, a in enumerate(want) if k and a in numbering.PART_WORDS), want)
    forms = (want, want[::-1], turned, _parts_reversed(want))
    # A path that ends a clause's own («item 5.b» of «§5.3.2 item 5.b») leaves out the levels above it; one that
    # opens with a top label of the document and is cited as such («Section 2(b)», «2(b)») leaves out nothing:
    # when §2 has no (b), it names no clause — not «(b)(2)» of another section read backwards.
    tops = {k[0] for _s, _c, k in clauses if len(k) == 1}
    from_top = not _ITEM_FIRST.match(rest) and want[0] in tops
    ends = tuple(f for f in forms if not (from_top and (f[0] in tops or (meta.english and f is not turned))))
    if numbering.PARAGRAPH_WORD.match(rest) and len(want) == 1 and want[0].isdigit():
        # «paragraph 23» of guidelines numbering their paragraphs through the document: the item, not §23
        items = [(s, c) for s, c, k in clauses if c.id.endswith(f" {grammar.ITEM} {want[0]}")]
        if len({c.id for _s, c in items}) == 1:
            return items, [items[0][1].id]
    # Then «I.A.1» as the levels «§I item A.1» has, when no clause is spelled the way it is cited (computed
    # only then: this runs for every citation the grammar does not read whole).
    annexed = tuple(f for f in (_annexed(want), _annexed(turned)) if f)
    passes: list[
        tuple[Callable[[], list[tuple[SectionMeta, Clause, tuple[str, ...]]]], tuple[tuple[str, ...], ...], bool]
    ]
    passes = [
        # the path as spelled first: «section 1A(1)» is §1A(1), not §1(1A) read inside out
        (lambda: clauses, forms[:1], True),
        (lambda: clauses, forms, True),
        # the end of a path as spelled before one read backwards: «п. А.2 подп. «а»» of «прил. А» is the sub-point,
        # not «А» «А.2» (the annex's letter and its point) at the end of «прил. А п. А.2»
        (lambda: clauses, ends[:1] if ends[:1] == (want,) else (), False),
        (lambda: clauses, ends, False),
        (lambda: [(s, c, _flat(k)) for s, c, k in clauses], (_flat(want),), True),
        (lambda: clauses, annexed, True),
    ]
    for keys, sought, whole in passes:
        if not sought:
            continue
        hits = [(s, c) for s, c, k in keys() if k and (k if whole else k[-len(sought[0]) :]) in sought]
        if hits:
            ids = list(dict.fromkeys(c.id for _s, c in hits))
            spelled = [cid for cid in ids if _compact(cid) in (_compact(" ".join(words)), _compact(rest))]
            if len(ids) > 1 and len(spelled) == 1:  # «§22(b)» beside «§22 item b», «Level 1»: the one spelled so
                return [(s, c) for s, c in hits if c.id == spelled[0]], spelled
            return hits, ids
    if len(want) >= 2 and "." in want[1] and (dotted := _dotted_in_part(clauses, want))[1]:
        return dotted
    return _inside_named(clauses, want)


def _parts_reversed(key: tuple[str, ...]) -> tuple[str, ...]:
    """A Russian citation's components innermost-first read outwards, a part's word kept with its label: «подп. «а»
    п. А.2 прил. А» → прил, А, А.2, а."""
    groups: list[tuple[str, ...]] = []
    k = 0
    while k < len(key):
        size = (
            2 if key[k] in numbering.PART_WORDS and k + 1 < len(key) and key[k + 1] not in numbering.PART_WORDS else 1
        )
        groups.append(key[k : k + size])
        k += size
    return tuple(a for group in reversed(groups) for a in group)


# A citation naming its first label by a list item's word: it may leave the levels above out.
_ITEM_FIRST = re.compile(
    r"(?i)\s*(?:items?|points?|subparagraphs?|paragraphs?|paras?\.|пп?\.|подп\.|подпункт\w*|пункт\w*)\s"
)

_Keyed = tuple[SectionMeta, Clause, tuple[str, ...]]  # a clause with its section and address key


def _dotted_in_part(
    clauses: list[tuple[SectionMeta, Clause, tuple[str, ...]]], want: tuple[str, ...]
) -> tuple[list[Place], list[str]]:
    """«Article 5.2(a)» of an agreement whose «Article 5» numbers its paragraphs «5.1», «5.2» (the build's
    «§5.2(a)»): the dotted label's clause when it lies inside the part of its first number."""
    outer = [(s, c) for s, c, key in clauses if key == (want[0], want[1].split(".")[0])]
    inner = [(s, c) for s, c, key in clauses if key == want[1:]]
    if len(outer) != 1 or len({c.id for _s, c in inner}) != 1:
        return [], []
    o_sec, o = outer[0]
    inside = [(s, c) for s, c in inner if s.path == o_sec.path and o.start <= c.start and c.end <= o.end]
    return (inside, [inside[0][1].id]) if inside else ([], [])


def _annexed(key: tuple[str, ...]) -> tuple[str, ...]:
    """«Annex A 5.1», «Annex A.5.1», «control 5.1 of Annex A» as the annex's own label «A.5.1» (ISO's Annex A
    table prints «5.1», the build numbers it «A.5.1»); () when the path does not open with a lettered annex."""
    if len(key) < 2 or key[0] not in numbering.ANNEX_WORDS:
        return ()
    letter, rest = key[1], key[2:]
    if len(letter) == 1 and letter.isalpha() and rest and rest[0][:1].isdigit():
        return (f"{letter}.{rest[0]}", *rest[1:])
    if re.fullmatch(r"[^\W\d_]\.\d[\d.]*", letter):
        return key[1:]
    return ()


def _flat(key: tuple[str, ...]) -> tuple[str, ...]:
    """A label path with every dotted atom that holds a letter split into its levels: «i.a.1» → i, a, 1
    (a document's «I. Background» › «A.» › «1.»); all-number atoms («6.1.1») are one label and stay."""
    return tuple(p for a in key for p in (a.split(".") if "." in a and re.search(r"[^\W\d_]", a) else (a,)))


def _inside_named(
    clauses: list[tuple[SectionMeta, Clause, tuple[str, ...]]], want: tuple[str, ...]
) -> tuple[list[Place], list[str]]:
    """«§2.4 Task 2-4», «Appendix F AC-2», «R1 Part 1.1»: a label that carries its whole address, named with the
    clause it is in. The place when the inner label is one clause and its span lies inside the outer one's."""
    heads = {key[0] for _s, _c, key in clauses if key}
    for k in range(1, len(want)):
        outer = [(s, c) for s, c, key in clauses if key == want[:k]]
        # «R1 Part 1.1» (a standard's requirement and its part «1.1.»): a part word the document names no clause
        # with only says what the inner label is
        tail = want[k + 1 :] if want[k] in numbering.PART_WORDS and want[k] not in heads else want[k:]
        inner = [(s, c) for s, c, key in clauses if key == tail]
        if len(outer) == 1 and len({c.id for _s, c in inner}) == 1:
            (o_sec, o), places = outer[0], inner
            inside = [(s, c) for s, c in places if s.path == o_sec.path and o.start <= c.start and c.end <= o.end]
            if inside:
                return inside, [inside[0][1].id]
    return [], []


_SUBPARAGRAPH = re.compile(
    r",?\s*\b(?:first|second|third|fourth|fifth|last)\s+subparagraph\b,?(?=.*\bpoint\b)", re.IGNORECASE
)


def point_of_subparagraph(meta: DocMeta, rest: str) -> tuple[list[Place], list[str], str] | None:
    """«Article 5(1), first subparagraph, point (h)», as EU acts cite a point: the clause table numbers the
    point, not the unnumbered subparagraph holding it. (places, ids, the words passed over) when the path
    without the subparagraph names exactly one place; None otherwise (two points (a) in two subparagraphs
    of one paragraph are never guessed between)."""
    m = _SUBPARAGRAPH.search(rest)
    if m is None:
        return None
    places, ids = address_places(meta, f"{rest[: m.start()]} {rest[m.end() :]}")
    return (places, ids, m.group(0).strip(" ,")) if len(ids) == 1 and _one_place(meta, places) else None


def _one_place(meta: DocMeta, places: list[Place]) -> bool:
    """The places are one clause: one place, or one a section in consecutive pieces of a section cut between
    paragraphs (the clause goes on into the next piece)."""
    order = {s.path: n for n, s in enumerate(meta.sections)}
    at = [order[s.path] for s, _c in places]
    return bool(at) and at == list(range(at[0], at[0] + len(at)))


def _compact(text: str) -> str:
    return re.sub(r"[\s«»\"]+", "", text).casefold()
