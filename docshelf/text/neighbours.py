"""A query word the shelf never says, searched by the shelf's words nearest to it in meaning.

«фирма», «слили», «чиновник»: everyday words a regulation does not use. Stemming and the synonym
dictionary only join words someone listed; word embeddings trained on news (navec, 250K words ×
300 d, shipped inside the ``natasha`` wheel: nothing is downloaded) place «фирма» near «компания»
and «организация». Only words with no posting on the shelf are expanded, in a query some of whose
words the shelf does say (a query of absent words only goes to the prefix and substring fallbacks),
and only by words the shelf holds (a matrix of the shelf's own vocabulary, built once per index); the
result's note says what was searched instead: a guess is never silent.

This is the ``docshelf[semantic]`` extra. Without navec, numpy and natasha's data, :func:`expand`
returns the concepts unchanged (the default install stays light).
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from docshelf.text.analyzer import CYRILLIC, tokens
from docshelf.text.synonyms import Concept

if TYPE_CHECKING:
    from collections.abc import Hashable

TOP = 3  # shelf words added per absent query word
MIN_SIMILARITY = 0.5  # cosine: below it a neighbour is another topic («фирма» ~ «бренд» 0.48)
GUESSES = 8192  # memoized guesses (per index and query word) before the memo starts over
MAX_WORDS = 100_000  # shelf words a matrix holds: 1.2 KB each (300 float32), so at most ~120 MB a commit
_SHELVES = 2  # vocabulary matrices kept (one per index file: the served commit and one more)


class Vocabulary(Protocol):
    commit: str

    def df(self, key: str) -> int: ...

    def vocabulary(self) -> list[str]: ...

    def setting(self, key: str) -> str | None: ...


class _Model:
    """The navec vectors, and per index the matrix of its words that navec knows."""

    def __init__(self, navec: Any, numpy: Any) -> None:
        self.navec, self.np = navec, numpy
        self._shelves: OrderedDict[Hashable, tuple[list[str], Any]] = OrderedDict()
        self.lock = threading.Lock()  # guards the matrices and the memo of guesses
        self.guesses: dict[tuple[Hashable, str], dict[str, str]] = {}  # (index stamp, word) -> its guesses

    def vector(self, word: str) -> Any | None:
        for form in (word, word.replace("е", "ё")):
            if form in self.navec:
                v = self.navec[form]
                return v / (self.np.linalg.norm(v) + 1e-9)
        return None

    def shelf(self, index: Vocabulary) -> tuple[list[str], Any]:
        stamp = index.setting("build") or index.commit
        with self.lock:
            if stamp in self._shelves:
                self._shelves.move_to_end(stamp)
                return self._shelves[stamp]
        words = [w for w in index.vocabulary() if CYRILLIC.fullmatch(w) and len(w) > 3 and w in self.navec]
        if len(words) > MAX_WORDS:  # a bounded matrix: the words most sections say are the likeliest guesses
            df = {w: index.df(tokens(w)[0].key) for w in words}
            words = sorted(sorted(words, key=lambda w: -df[w])[:MAX_WORDS])
        matrix = self.np.stack([self.navec[w] for w in words]) if words else self.np.zeros((0, 300), "float32")
        matrix /= self.np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-9
        with self.lock:
            self._shelves[stamp] = (words, matrix)
            while len(self._shelves) > _SHELVES:
                self._shelves.popitem(last=False)
        return words, matrix


_model: _Model | bool | None = False  # False: not looked for yet; None: the extra is not installed
_load_lock = threading.Lock()


def _data_file() -> Path | None:
    """natasha's navec archive, found without importing natasha (its import loads far more than vectors)."""
    spec = importlib.util.find_spec("natasha")
    if spec is None or spec.origin is None:
        return None
    return next((Path(spec.origin).parent / "data" / "emb").glob("navec_news_*.tar"), None)


def model() -> _Model | None:
    """The loaded vectors, or ``None`` when ``docshelf[semantic]`` is not installed."""
    global _model
    with _load_lock:
        if _model is False:
            _model = None
            # One BLAS thread: a guess is one small matrix-vector product, and OpenBLAS's idle threads spin
            # (CPU time per question doubled on two cores). Only effective before numpy's first import.
            os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
            try:
                import numpy
                from navec import Navec
            except ImportError:
                return None
            data = _data_file()
            if data is not None:
                _model = _Model(Navec.load(str(data)), numpy)
        return _model if isinstance(_model, _Model) else None


def available() -> bool:
    return model() is not None


def warm(index: Vocabulary) -> None:
    """Load the vectors and the matrix of ``index``'s words now (a server preparing a commit), not at a query."""
    found = model()
    if found is not None:
        found.shelf(index)


def expand(index: Vocabulary, concepts: list[Concept]) -> tuple[list[Concept], dict[str, list[str]]]:
    """Concepts with their absent plain words widened to the nearest shelf words, and what was guessed.

    The mapping is query word → the shelf words searched for it (for the result's note).
    """
    missing = [c for c in concepts if all(index.df(k) == 0 for a in c.alts for k in a)]
    # navec learnt Russian news: its few English words sit among noise («dead» ~ «alive», «walking»).
    absent = [c for c in missing if not c.ident and c.first == c.last and CYRILLIC.fullmatch(c.label)]
    # When nothing of the query is on the shelf, the lexical fallbacks (a prefix, a word inside another word)
    # answer more faithfully than a guess by meaning: guesses only fill the gaps of a query that matches.
    found = model() if absent and len(missing) < len(concepts) else None
    if found is None:
        return concepts, {}
    guessed: dict[str, list[str]] = {}
    out = []
    for c in concepts:
        near = _nearest(found, index, c.label) if c in absent else {}
        if near:
            guessed[c.label] = list(near.values())
        out.append(replace(c, alts=c.alts + tuple((k,) for k in near)) if near else c)
    return out, guessed


def _nearest(found: _Model, index: Vocabulary, label: str) -> dict[str, str]:
    """Up to :data:`TOP` shelf keys nearest to ``label`` in meaning → the shelf word each came from (memoized)."""
    stamp = index.setting("build") or index.commit
    memo = found.guesses.get((stamp, label))
    if memo is not None:
        return memo
    words, matrix = found.shelf(index)
    v = found.vector(label)
    extra: dict[str, str] = {}  # key -> the shelf word it came from
    if v is not None and words:
        sims = matrix @ v
        near = found.np.flatnonzero(sims >= MIN_SIMILARITY)  # a few dozen of the shelf's words at most
        for j in near[found.np.argsort(-sims[near])]:
            word = tokens(words[j])[0]
            # A function word near a content word («чиновник» ~ «он», «сам») says nothing of the topic.
            if not word.stop and len(word.word) > 3 and word.key not in extra and index.df(word.key) > 0:
                extra[word.key] = words[j]
                if len(extra) == TOP:
                    break
    with found.lock:
        if len(found.guesses) >= GUESSES:
            found.guesses.clear()
        found.guesses[stamp, label] = extra
    return extra
