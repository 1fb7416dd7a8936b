"""Navigation: the bytes a scripted navigator reads to reach the answer, with and without search first.

For each answerable query of bench/search_queries.jsonl, on the corpus shelf (../shared/corpus):

* **tables of contents only**: read ``index.md``, open the documents whose entries share the most
  analysed words with the query (at most :data:`DOCS_TRIED`), in each read the subindex (and any
  nested subindex it links), then fetch the sections whose entries share the most words, best first
  (at most :data:`SECTIONS_TRIED` per document), until a section holding the gold text is read;
* **search first**: one ``search`` (limit 5; its text as the tool prints it), then fetch the hits in
  order (at most :data:`HITS_TRIED`); when none is the answer, the tables-of-contents walk follows
  and its bytes are added.

Bytes are UTF-8 bytes of the text each call returns (an index page, the first page of a section,
the search result); medians per query kind, and how often the answer was reached at all.

    python bench/navigate.py
    python bench/navigate.py --shelf /path/to/built/corpus/shelf
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from docshelf.errors import DocShelfError  # noqa: E402
from docshelf.shelf import gitrepo, reader  # noqa: E402
from docshelf.text import search  # noqa: E402
from docshelf.text.analyzer import index_text, keys  # noqa: E402
from docshelf.text.evaluate import load_queries  # noqa: E402
from docshelf.text.normalize import normalize_text  # noqa: E402

QUERIES = REPO / "bench" / "search_queries.jsonl"
DOCS_TRIED, SECTIONS_TRIED, HITS_TRIED = 2, 3, 3
_ENTRY = re.compile(r"^\s*- \[(?P<title>[^\]]*)\]\((?P<path>[^)]+)\)(?P<rest>.*)$", re.MULTILINE)


@dataclass
class Walk:
    """What one navigation read: bytes per call, and whether it reached a gold section."""

    commit: str
    gold: set[str]
    bytes: int = 0
    calls: int = 0
    found: bool = False

    def read(self, text: str) -> str:
        self.bytes += len(text.encode("utf-8"))
        self.calls += 1
        return text


def _entries(text: str, base: str) -> list[tuple[str, str]]:
    """(entry text, shelf path) of every link line of an index page; relative links resolved against ``base``."""
    out = []
    for m in _ENTRY.finditer(text):
        path = m["path"]
        if path.startswith("/"):
            path = path[1:]  # shelf-absolute
        elif not path.startswith("docs/") and base:
            path = os.path.normpath(str(Path(base).parent / path))  # nested subindexes link with ../
        out.append((f"{m['title']} {m['rest']}", path))
    return out


def _ranked(query_keys: set[str], entries: list[tuple[str, str]]) -> list[str]:
    """Entry paths by how many of the query's keys the entry's words hold (ties: the index's order)."""
    scored = [(len(query_keys & set(index_text(text).split())), -n, path) for n, (text, path) in enumerate(entries)]
    return [path for score, _n, path in sorted(scored, reverse=True) if score > 0]


def _fetch(root: Path, walk: Walk, path: str) -> None:
    try:
        walk.read(reader.fetch(root, path, at=walk.commit).text)
    except DocShelfError:
        return
    walk.found = walk.found or path in walk.gold


def _subindex(root: Path, walk: Walk, path: str, query_keys: set[str], depth: int = 0) -> None:
    """Read one subindex and fetch its best sections (a nested subindex is walked the same way)."""
    try:
        text = walk.read(reader.read_index(root, path, at=walk.commit).text)
    except DocShelfError:
        return
    for target in _ranked(query_keys, _entries(text, path))[:SECTIONS_TRIED]:
        if walk.found:
            return
        if target.endswith("subindex.md") and target != path and depth < 2:
            _subindex(root, walk, target, query_keys, depth + 1)
        else:
            _fetch(root, walk, target)


def by_tables(root: Path, query: str, walk: Walk) -> Walk:
    query_keys = set(keys(query))
    top = walk.read(reader.read_index(root, "index.md", at=walk.commit).text)
    for doc in _ranked(query_keys, _entries(top, ""))[:DOCS_TRIED]:
        if walk.found:
            break
        _subindex(root, walk, doc, query_keys)
    return walk


def by_search(root: Path, query: str, walk: Walk) -> Walk:
    result = search.search(root, query, at=walk.commit)
    walk.read(search.describe(result))
    for hit in result.hits[:HITS_TRIED]:
        if walk.found:
            break
        _fetch(root, walk, hit.path)
    return walk if walk.found else by_tables(root, query, walk)


def gold_paths(root: Path, commit: str) -> Callable[[str | list[str]], set[str]]:
    texts = {r.path: normalize_text(r.text) for r in search.read_sections(root, commit)}

    def find(gold: str | list[str]) -> set[str]:
        needles = [normalize_text(g) for g in ([gold] if isinstance(gold, str) else gold)]
        return {p for p, t in texts.items() if any(n in t for n in needles)}

    return find


def run(root: Path) -> list[str]:
    commit = gitrepo.resolve(root)
    find = gold_paths(root, commit)
    rows: dict[str, dict[str, list[Walk]]] = defaultdict(lambda: defaultdict(list))
    for q in load_queries(QUERIES):
        if q["gold"] is None:
            continue
        gold = find(q["gold"])
        for name, navigate in (("tables only", by_tables), ("search first", by_search)):
            walk = navigate(root, q["query"], Walk(commit, gold))
            rows[name][q.get("kind") or "plain"].append(walk)
            rows[name]["all"].append(walk)
    kinds = [*sorted(k for k in rows["tables only"] if k != "all"), "all"]
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
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shelf", type=Path, help="a corpus shelf already built (default: build one from ../shared)")
    args = ap.parse_args()
    if args.shelf:
        print("\n".join(run(args.shelf)))
        return
    from search import CORPUS, corpus_shelf  # bench/search.py builds the corpus shelf the same way

    if not CORPUS.is_dir():
        sys.exit(f"{CORPUS} is absent: the corpus shelf needs it.")
    with tempfile.TemporaryDirectory(prefix="docshelf-navigate-") as tmp:
        print("\n".join(run(corpus_shelf(Path(tmp) / "corpus"))))


if __name__ == "__main__":
    main()
