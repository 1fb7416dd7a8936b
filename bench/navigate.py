"""Navigation: the bytes a scripted navigator reads to reach the answer, with and without search first.

For each answerable query of bench/search_queries*.jsonl (the first set and the fresh ones), on the corpus
shelf (../shared/corpus):

* **tables of contents only**: read ``index.md``, open the documents whose entries best match the
  query (at most :data:`DOCS_TRIED`); in each read its subindex and open its best entries, best
  first, at most three a page: a section is fetched, a nested subindex (a chapter's page) is read the
  same way; at most :data:`SECTIONS_TRIED` fetches per document over all its pages; until the gold
  text has been read;
* **search first**: one ``search`` (limit 5; its text as the tool prints it), then read the hits in
  order (at most :data:`HITS_TRIED`) as the tool description says: ``fetch(path, start, max_chars)``
  with the hit's reading window (its clause); when no window holds the answer, the hits' whole
  sections, then the tables-of-contents walk, and their bytes are added.

An entry matches the query by its words as search analyses them (Snowball keys and the shelf's
synonym groups, so «за рубеж» meets «трансграничная»: a model reading an index knows that much),
each query concept weighted by how few entries of the page hold it. A concept is held when one of
its forms is there whole («персональн» and «дан», not «дан» alone; stopwords aside); a phrase held
only in part counts for the share of the query's own words it holds. A clause number is held by an
entry whose numbering covers it («ст. 18.1–22» holds ст. 19; «4. Messages» holds 4.1.4), as a reader
takes a range. Inside a document, the words that chose it at the root (its name, «RFC 1035») no
longer choose among its entries. The answer counts as reached only when the gold text is in what was
read (a path-only gold: when that section was read).

Bytes are UTF-8 bytes of the text each call returns (an index page, one page of a section, the
search result); medians per query kind, how often the answer was reached at all, and the bytes of tables of
contents read (``index.md`` and subindex pages) per answer the tables-only walk reached.

    python bench/navigate.py
    python bench/navigate.py --shelf /path/to/built/corpus/shelf
"""

from __future__ import annotations

import math
import os
import re
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from docshelf.errors import DocShelfError  # noqa: E402
from docshelf.shelf import gitrepo, reader  # noqa: E402
from docshelf.text import search, synonyms  # noqa: E402
from docshelf.text.analyzer import STOPWORDS, index_text, query_tokens  # noqa: E402
from docshelf.text.evaluate import load_queries  # noqa: E402
from docshelf.text.normalize import normalize_text  # noqa: E402

QUERIES = sorted((REPO / "bench").glob("search_queries*.jsonl"))
DOCS_TRIED, SECTIONS_TRIED, HITS_TRIED = 2, 3, 3
MAX_DEPTH = 4  # nested subindex pages followed below a document's own
# An analyser key of a clause number («19», «ст_19», «4_2_1») and what an entry's numbering looks like.
_CLAUSE_KEY = re.compile(r"(?:[^\W\d_]{1,4}_)?(\d+(?:_\d+)*)")
_NOT_CLAUSES = re.compile(r"\b(?:p|pp|ч|п)\. \d[\d.]*(?:–\d[\d.]*)?")  # page spans and a split article's parts
_RANGE = re.compile(r"(?:§|V|[^\W\d]{1,4}\.\s?)?(\d+(?:[.-]\d+)*)\s?–\s?(?:§|V|[^\W\d]{1,4}\.\s?)?(\d+(?:[.-]\d+)*)")
_HEAD = re.compile(r"^(?:§|V)?(\d+(?:\.\d+)*)\.?\s")  # «4. Handshake Protocol», «V2.1 Password Security»
_LISTED = re.compile(r"(?<![\w.])(?:§|V)?(\d+(?:\.\d+)+)\s")  # a numbered title in a chapter's contents
_ENTRY = re.compile(r"^\s*- \[(?P<title>[^\]]*)\]\((?P<path>[^)]+)\)(?P<rest>.*)$")


@dataclass
class Walk:
    """What one navigation read: bytes per call, and whether the gold text was among them."""

    commit: str
    gold: set[str]  # sections holding the answer
    needles: list[str]  # the answer's text, normalized ([] when the gold is a path)
    bytes: int = 0
    index_bytes: int = 0  # of those, the tables of contents (index.md and subindex pages)
    calls: int = 0
    found: bool = False

    def read(self, text: str, index: bool = False) -> str:
        self.bytes += len(text.encode("utf-8"))
        self.index_bytes += len(text.encode("utf-8")) if index else 0
        self.calls += 1
        return text

    def saw(self, path: str, text: str) -> None:
        if path in self.gold and (not self.needles or any(n in normalize_text(text) for n in self.needles)):
            self.found = True


@dataclass(frozen=True)
class Concept:
    """One thing the query asks for, as an entry's words may hold it."""

    forms: tuple[frozenset[str], ...]  # each form's analyser keys, stopwords aside: all must be there
    words: tuple[frozenset[str], ...]  # the query's own words a phrase spans (their keys), for part credit
    numbers: frozenset[tuple[int, ...]]  # the clause numbers it names («ст. 19» → (19,))


Query = list[Concept]
_STOP_KEYS = frozenset(k for w in STOPWORDS for k in index_text(w).split())


def analysed(query: str) -> Query:
    toks = query_tokens(query)
    out = []
    for c in synonyms.parse(None).concepts(toks):
        forms = tuple(frozenset(alt) - _STOP_KEYS or frozenset(alt) for alt in c.alts)
        own = [frozenset(t.alts) for t in toks[c.first : c.last + 1] if not t.stop] if c.last > c.first else []
        numbers = {_numbers(m[1]) for form in forms for k in form if (m := _CLAUSE_KEY.fullmatch(k))}
        out.append(Concept(forms, tuple(own), frozenset(numbers - {()})))
    return out


def _held(c: Concept, words: set[str], covers: Callable[[tuple[int, ...]], bool]) -> float:
    """1 when the entry holds one of the concept's forms whole (or covers its clause number); for a
    phrase it does not hold whole, the share of the query's own words it holds: «на гражданской службе»
    of «предельным возрастом пребывания на гражданской службе» is still a reason to open 79-ФЗ."""
    if any(form <= words for form in c.forms) or any(map(covers, c.numbers)):
        return 1.0
    return sum(1 for w in c.words if w & words) / len(c.words) if c.words else 0.0


def _entries(text: str, base: str) -> list[tuple[str, str, str]]:
    """(title, the rest of the entry, shelf path) of every link line of an index page.

    A split article's parts are indented links under an unlinked line with its title: each part's
    title is that line, as a reader sees it. Relative links are resolved against ``base``.
    """
    out, parent = [], ""
    for line in text.splitlines():
        m = _ENTRY.match(line)
        if m is None:
            if line.startswith("- "):
                parent = line[2:]
            continue
        parent = parent if line.startswith(" ") else ""
        path = m["path"]
        if path.startswith("/"):
            path = path[1:]  # shelf-absolute
        elif not path.startswith("docs/") and base:
            path = os.path.normpath(str(Path(base).parent / path))  # nested subindexes link with ../
        out.append((f"{parent} {m['title']}", m["rest"], path))
    return out


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.split(r"[._\-]", text) if n.isdigit())


def _covers(title: str, rest: str) -> Callable[[tuple[int, ...]], bool]:
    """Whether an entry's numbering holds a clause number, as a reader takes it: «ст. 18.1–22» holds
    ст. 19, «§4–§4.6.3» holds 4.2.1, and a heading numbered «4.» or «V2.1» (its title, or a title in its
    contents) holds 4.2.1 or 2.1.1. Page spans («p. 5–7») and a split article's parts («ч. 1–8») are
    not clause ranges."""
    text = _NOT_CLAUSES.sub(" ", f"{title} {rest}")
    spans = [(_numbers(a), _numbers(b)) for a, b in _RANGE.findall(text)]
    heads = {_numbers(m[1]) for m in _LISTED.finditer(rest)}
    if m := _HEAD.match(title.strip()):
        heads.add(_numbers(m[1]))

    def covers(n: tuple[int, ...]) -> bool:
        inside = any(a and b and a <= n and n[: len(b)] <= b for a, b in spans)
        return inside or any(h and len(n) > len(h) and n[: len(h)] == h for h in heads)

    return covers


def _ranked(query: Query, entries: list[tuple[str, str, str]]) -> list[str]:
    """Entry paths by the query concepts their words hold, a concept held by few entries weighing more.

    A clause number of the query is also held by an entry whose numbering covers it (:func:`_covers`):
    a chapter page lists «ст. 18.1–22», not «ст. 19»."""
    held = [[_held(c, set(index_text(f"{title} {rest}").split()), _covers(title, rest)) for c in query]
            for title, rest, _path in entries]  # fmt: skip
    df = [sum(h[i] for h in held) for i in range(len(query))]
    weight = [math.log(1 + len(entries) / (1 + d)) for d in df]
    scored = [(sum(w * h for w, h in zip(weight, hs, strict=True)), -n, e[2])
              for n, (hs, e) in enumerate(zip(held, entries, strict=True))]  # fmt: skip
    return [path for score, _n, path in sorted(scored, reverse=True) if score > 0]


def _fetch(root: Path, walk: Walk, path: str, start: int = 0, max_chars: int = reader.DEFAULT_MAX_CHARS) -> None:
    try:
        page = reader.fetch(root, path, at=walk.commit, start=start, max_chars=max_chars)
    except DocShelfError:
        return
    walk.saw(path, walk.read(page.text))


def _subindex(root: Path, walk: Walk, path: str, query: Query, budget: list[int], depth: int = 0) -> None:
    """Read one subindex and open its best entries, best first: a section is fetched, a nested subindex
    (a chapter's page) is walked the same way. ``budget`` is what is left of the document's fetches,
    shared by all its pages: a model opening a chapter reads a few of its sections, not every chapter's."""
    try:
        text = walk.read(reader.read_index(root, path, at=walk.commit).text, index=True)
    except DocShelfError:
        return
    for target in _ranked(query, _entries(text, path))[:SECTIONS_TRIED]:
        if walk.found or budget[0] <= 0:
            return
        if target.endswith("subindex.md"):
            if target != path and depth < MAX_DEPTH:
                _subindex(root, walk, target, query, budget, depth + 1)
        else:
            budget[0] -= 1
            _fetch(root, walk, target)


def by_tables(root: Path, query: str, walk: Walk) -> Walk:
    concepts = analysed(query)
    docs = _entries(walk.read(reader.read_index(root, "index.md", at=walk.commit).text, index=True), "")
    for doc in _ranked(concepts, docs)[:DOCS_TRIED]:
        if walk.found:
            break
        # Inside «RFC 1035» the words that named the document («RFC», «1035») no longer choose among
        # its entries: what is left of the query does (4.1.4). All of it, if the title held it all.
        title, rest, _path = next(e for e in docs if e[2] == doc)
        inside = [c for c in concepts if _held(c, set(index_text(f"{title} {rest}").split()), _covers("", "")) < 1]
        _subindex(root, walk, doc, inside or concepts, [SECTIONS_TRIED])
    return walk


def by_search(root: Path, query: str, walk: Walk) -> Walk:
    result = search.search(root, query, at=walk.commit)
    walk.read(search.describe(result))
    hits = result.hits[:HITS_TRIED]
    for hit in hits:  # the clause each hit points at
        if not walk.found:
            _fetch(root, walk, hit.path, hit.start, hit.max_chars or reader.DEFAULT_MAX_CHARS)
    for hit in hits:  # the whole section, where the clause was not enough
        if not walk.found and hit.max_chars:
            _fetch(root, walk, hit.path)
    return walk if walk.found else by_tables(root, query, walk)


def gold_paths(root: Path, commit: str) -> Callable[[str | list[str]], tuple[set[str], list[str]]]:
    texts = {r.path: normalize_text(r.text) for r in search.read_sections(root, commit)}

    def find(gold: str | list[str]) -> tuple[set[str], list[str]]:
        golds = [gold] if isinstance(gold, str) else gold
        paths = {g for g in golds if g in texts}
        needles = [normalize_text(g) for g in golds if g not in texts]
        return paths | {p for p, t in texts.items() if any(n in t for n in needles)}, [] if paths else needles

    return find


def run(root: Path) -> list[str]:
    commit = gitrepo.resolve(root)
    find = gold_paths(root, commit)
    rows: dict[str, dict[str, list[Walk]]] = defaultdict(lambda: defaultdict(list))
    for q in (q for path in QUERIES for q in load_queries(path)):
        if q["gold"] is None:
            continue
        gold, needles = find(q["gold"])
        for name, navigate in (("tables only", by_tables), ("search first", by_search)):
            walk = navigate(root, q["query"], Walk(commit, gold, needles))
            rows[name][q.get("kind") or "plain"].append(walk)
            split = q.get("split", "dev")
            rows[name][f"split: {split}"].append(walk)
            if not split.startswith("fresh"):
                rows[name]["split: dev + holdout"].append(walk)
            rows[name]["all"].append(walk)
    kinds = sorted(rows["tables only"], key=lambda k: (k == "all", k.startswith("split"), k))
    lines = [
        "| kind | n | tables only: median KB | reached | index KB per answer | search first: median KB | reached "
        "| calls (search) |"
    ]
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for kind in kinds:
        t, s = rows["tables only"][kind], rows["search first"][kind]
        answered = [w.index_bytes for w in t if w.found]  # the tables read on the way to each answer reached
        per = f"{statistics.median(answered) / 1024:.1f}" if answered else "–"
        cells = [_kb(t), _share(t), per, _kb(s), _share(s), f"{statistics.median(w.calls for w in s):.0f}"]
        lines.append(f"| {kind} | {len(t)} | " + " | ".join(cells) + " |")
    return lines


def _kb(walks: list[Walk]) -> str:
    return f"{statistics.median(w.bytes for w in walks) / 1024:.1f}"


def _share(walks: list[Walk]) -> str:
    return f"{sum(w.found for w in walks) / len(walks):.2f}"


def main() -> None:
    from search import on_corpus_shelf  # bench/search.py builds the corpus shelf the same way

    on_corpus_shelf(__doc__ or "", run, "navigate")


if __name__ == "__main__":
    main()
