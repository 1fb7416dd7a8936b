"""Navigation: the bytes a scripted navigator reads to reach the answer, with and without search first.

For each answerable query of bench/search_queries*.jsonl (the first set and the fresh ones), on the corpus
shelf (../shared/corpus):

* **tables of contents only**: read ``index.md``, open the documents whose entries best match the
  query (at most :data:`DOCS_TRIED`), in each read the subindex (and any nested subindex it links),
  then fetch the sections whose entries match best, best first (at most :data:`SECTIONS_TRIED` per
  document), until the gold text has been read;
* **search first**: one ``search`` (limit 5; its text as the tool prints it), then read the hits in
  order (at most :data:`HITS_TRIED`) as the tool description says: ``fetch(path, start, max_chars)``
  with the hit's reading window (its clause); when no window holds the answer, the hits' whole
  sections, then the tables-of-contents walk, and their bytes are added.

An entry matches the query by its words as search analyses them (Snowball keys and the shelf's
synonym groups, so «за рубеж» meets «трансграничная»: a model reading an index knows that much),
each query concept weighted by how few entries of the page hold it. The answer counts as reached
only when the gold text is in what was read (a path-only gold: when that section was read).

Bytes are UTF-8 bytes of the text each call returns (an index page, one page of a section, the
search result); medians per query kind, and how often the answer was reached at all.

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
from docshelf.text.analyzer import index_text, query_tokens  # noqa: E402
from docshelf.text.evaluate import load_queries  # noqa: E402
from docshelf.text.normalize import normalize_text  # noqa: E402

QUERIES = sorted((REPO / "bench").glob("search_queries*.jsonl"))
DOCS_TRIED, SECTIONS_TRIED, HITS_TRIED = 2, 3, 3
_ENTRY = re.compile(r"^\s*- \[(?P<title>[^\]]*)\]\((?P<path>[^)]+)\)(?P<rest>.*)$")


@dataclass
class Walk:
    """What one navigation read: bytes per call, and whether the gold text was among them."""

    commit: str
    gold: set[str]  # sections holding the answer
    needles: list[str]  # the answer's text, normalized ([] when the gold is a path)
    bytes: int = 0
    calls: int = 0
    found: bool = False

    def read(self, text: str) -> str:
        self.bytes += len(text.encode("utf-8"))
        self.calls += 1
        return text

    def saw(self, path: str, text: str) -> None:
        if path in self.gold and (not self.needles or any(n in normalize_text(text) for n in self.needles)):
            self.found = True


Query = list[frozenset[str]]  # per concept of the query: every analyser key any of its forms has


def analysed(query: str) -> Query:
    concepts = synonyms.parse(None).concepts(query_tokens(query))
    return [frozenset(k for alt in c.alts for k in alt) for c in concepts]


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


def _ranked(query: Query, entries: list[tuple[str, str, str]]) -> list[str]:
    """Entry paths by the query concepts their words hold, a concept held by few entries weighing more."""
    words = [set(index_text(f"{title} {rest}").split()) for title, rest, _path in entries]
    held = [[bool(c & w) for c in query] for w in words]
    df = [sum(h[i] for h in held) for i in range(len(query))]
    weight = [math.log(1 + len(entries) / (1 + d)) for d in df]
    scored = [(sum(w for w, h in zip(weight, hs, strict=True) if h), -n, e[2])
              for n, (hs, e) in enumerate(zip(held, entries, strict=True))]  # fmt: skip
    return [path for score, _n, path in sorted(scored, reverse=True) if score > 0]


def _fetch(root: Path, walk: Walk, path: str, start: int = 0, max_chars: int = reader.DEFAULT_MAX_CHARS) -> None:
    try:
        page = reader.fetch(root, path, at=walk.commit, start=start, max_chars=max_chars)
    except DocShelfError:
        return
    walk.saw(path, walk.read(page.text))


def _subindex(root: Path, walk: Walk, path: str, query: Query, depth: int = 0) -> None:
    """Read one subindex and fetch its best sections (a nested subindex is walked the same way)."""
    try:
        text = walk.read(reader.read_index(root, path, at=walk.commit).text)
    except DocShelfError:
        return
    for target in _ranked(query, _entries(text, path))[:SECTIONS_TRIED]:
        if walk.found:
            return
        if target.endswith("subindex.md") and target != path and depth < 2:
            _subindex(root, walk, target, query, depth + 1)
        else:
            _fetch(root, walk, target)


def by_tables(root: Path, query: str, walk: Walk) -> Walk:
    concepts = analysed(query)
    top = walk.read(reader.read_index(root, "index.md", at=walk.commit).text)
    for doc in _ranked(concepts, _entries(top, ""))[:DOCS_TRIED]:
        if walk.found:
            break
        _subindex(root, walk, doc, concepts)
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
    lines = ["| kind | n | tables only: median KB | reached | search first: median KB | reached | calls (search) |"]
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    for kind in kinds:
        t, s = rows["tables only"][kind], rows["search first"][kind]
        cells = [_kb(t), _share(t), _kb(s), _share(s), f"{statistics.median(w.calls for w in s):.0f}"]
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
