"""Paraphrase recall: query expansion by dictionary lemmas (pymorphy3) and word embeddings (navec), measured.

Three runs of the same search over the corpus shelf, on the paraphrase queries of
bench/search_queries.jsonl (dev and holdout halves apart) and on every query:

* **shipped**: DocShelf as it is (Snowball keys + the curated synonym dictionary);
* **+ pymorphy3 lexemes**: every plain query word also matches the Snowball keys of every form of
  its dictionary lemma (the top two parses), so «передал» finds «передавать»'s other stems;
* **+ navec neighbours**: every plain query word also matches its nearest words in the navec news
  embeddings that ship inside the ``natasha`` wheel (250K words × 300 d; top 5, cosine ≥ 0.55).

Both run offline (the dictionaries and vectors are inside the wheels). Needs ``pymorphy3`` and
``natasha`` + ``navec`` + ``numpy`` installed; a run without them says so and measures what it can.

    python bench/expansion.py --shelf /path/to/built/corpus/shelf
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from docshelf.text import synonyms  # noqa: E402
from docshelf.text.analyzer import Token, tokens  # noqa: E402
from docshelf.text.evaluate import evaluate, load_queries  # noqa: E402
from docshelf.text.synonyms import Concept  # noqa: E402

QUERIES = REPO / "bench" / "search_queries.jsonl"
Expand = Callable[[str], set[str]]


def lexeme_expander() -> Expand | None:
    try:
        import pymorphy3  # type: ignore[import-not-found]
    except ImportError:
        return None
    morph = pymorphy3.MorphAnalyzer()

    def expand(word: str) -> set[str]:
        out: set[str] = set()
        for parse in morph.parse(word)[:2]:
            if parse.score >= 0.2:
                out |= {t.key for form in parse.lexeme[:60] for t in tokens(form.word)}
        return out

    return expand


def navec_expander(k: int = 5, threshold: float = 0.55) -> Expand | None:
    import importlib.util

    try:
        import numpy as np
        from navec import Navec  # type: ignore[import-not-found]
    except ImportError:
        return None
    spec = importlib.util.find_spec("natasha")  # only its data folder is used: the package is not imported
    if spec is None or spec.origin is None:
        return None
    tar = next((Path(spec.origin).parent / "data" / "emb").glob("navec_news_*.tar"))
    vectors = Navec.load(str(tar))
    words = vectors.vocab.words
    matrix = np.stack([vectors[w] for w in words])
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-9
    index = {w: i for i, w in enumerate(words)}

    def expand(word: str) -> set[str]:
        i = index.get(word)
        if i is None:
            return set()
        sims = matrix @ matrix[i]
        top = np.argpartition(-sims, k + 1)[: k + 1]
        return {t.key for j in top if j != i and sims[j] >= threshold for t in tokens(words[j])}

    return expand


def _with_expansion(expand: Expand) -> Callable[[Any, list[Token]], list[Concept]]:
    plain = synonyms.Synonyms.concepts

    def concepts(self: Any, toks: list[Token]) -> list[Concept]:
        out = []
        for c in plain(self, toks):
            if len(c.alts) == 1 and len(c.alts[0]) == 1 and not c.ident and c.label.isalpha():
                extra = expand(c.label.lower()) - {c.alts[0][0]}
                c = Concept(c.label, c.alts + tuple((e,) for e in sorted(extra)), c.ident, c.first, c.last)
            out.append(c)
        return out

    return concepts


def run(root: Path) -> list[str]:
    queries = load_queries(QUERIES)
    para = [q for q in queries if q.get("kind") == "paraphrase"]
    runs: dict[str, Expand | None] = {"shipped": None}
    missing = []
    for name, make in (("+ pymorphy3 lexemes", lexeme_expander), ("+ navec neighbours", navec_expander)):
        expand = make()
        if expand is None:
            missing.append(name)
        else:
            runs[name] = expand
    lines = ["| run | paraphrase dev hit@5 / MRR | paraphrase holdout hit@5 / MRR | all queries hit@5 / MRR | CPU s |"]
    lines.append("|---|---:|---:|---:|---:|")
    plain = synonyms.Synonyms.concepts
    for name, expand in runs.items():
        synonyms.Synonyms.concepts = plain if expand is None else _with_expansion(expand)  # type: ignore[method-assign]
        start = time.process_time()
        cells = []
        for subset in ([q for q in para if q.get("split", "dev") == "dev"],
                       [q for q in para if q.get("split") == "holdout"], queries):  # fmt: skip
            m = evaluate(root, subset).overall
            cells.append(f"{m.hit_at_k:.2f} / {m.mrr:.2f} (n={m.n})")
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {time.process_time() - start:.1f} |")
    synonyms.Synonyms.concepts = plain  # type: ignore[method-assign]
    if missing:
        lines.append(f"\nNot measured (package not installed): {', '.join(missing)}.")
    return lines


def main() -> None:
    from search import on_corpus_shelf  # bench/search.py builds the corpus shelf the same way

    on_corpus_shelf(__doc__ or "", run, "expansion")


if __name__ == "__main__":
    main()
