"""Where search indexes live, how a commit gets one, and how many are kept.

The index of a commit is cached at ``<shelf>/.docshelf/search-<commit>.sqlite`` (or, when the shelf
cannot be written, in a private temporary directory). A commit gets its index in one of two ways:

* **derived**: the nearest cached index of another commit (fewest changed paths, from ``git diff``)
  is copied and only the documents the diff touches are re-indexed — seconds at 100,000 sections;
* **built**: from every document of the commit, when no cached index is near enough.

One build per commit at a time: builders take an exclusive lock on ``search-<commit>.lock``
(``flock``: across threads and processes), and whoever waited finds the index ready. The file is
written under a temporary name and swapped in with ``os.replace``, so a reader never sees half of
it. The cache is bounded: at most :data:`KEEP_INDEXES` files and :data:`MAX_CACHE_BYTES`, least
recently used first out (the newest always stays). Readers (a connection and what it read) are cached per thread.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sqlite3
import tempfile
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from docshelf.errors import DocShelfError
from docshelf.shelf import gitrepo
from docshelf.text import searchindex as ix
from docshelf.text import synonyms
from docshelf.text.buildqueue import BUILDS
from docshelf.text.cachepaths import INDEX_DIR, prepare
from docshelf.text.fts5index import Fts5Index
from docshelf.text.sections import is_meta, read_documents, read_shelf

KEEP_INDEXES = 4
MAX_CACHE_BYTES = 2 * 1024**3
DERIVE_MAX_SHARE = 0.3  # re-index at most this share of the documents; more changed: a full build
_CONNECTIONS = 4  # per thread

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: one process per shelf, a thread lock is enough
    fcntl = None  # type: ignore[assignment]

_thread_locks: dict[Path, threading.Lock] = {}
_thread_locks_guard = threading.Lock()
_local = threading.local()
_ready: set[tuple[Path, int]] = set()  # (path, inode) checked current: a finished index file never changes
_private_dir: Path | None = None


def index_path(root: Path, commit: str) -> Path:
    """Where the index of ``commit`` is cached (it may not exist yet)."""
    return root.resolve() / INDEX_DIR / f"search-{commit}.sqlite"


def _fallback_dir() -> Path:
    global _private_dir
    if _private_dir is None:
        _private_dir = Path(tempfile.mkdtemp(prefix="docshelf-search-"))  # mode 0700: ours alone
        atexit.register(shutil.rmtree, _private_dir, True)
    return _private_dir


def _is_current(path: Path) -> bool:
    try:
        st = path.stat()
    except OSError:
        return False
    stamp = (path, st.st_ino)
    if stamp in _ready:
        return True
    try:
        with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    except sqlite3.Error:
        return False
    if row is None or row[0] != ix.INDEX_VERSION:
        return False
    _ready.add(stamp)
    return True


@contextmanager
def _build_lock(target: Path) -> Iterator[None]:
    """Exclusive right to build ``target``: other threads and processes wait here."""
    with _thread_locks_guard:
        lock = _thread_locks.setdefault(target, threading.Lock())
    with lock:
        if fcntl is None:
            yield
            return
        with open(target.with_suffix(".lock"), "a", encoding="utf-8") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def open_index(root: Path, commit: str) -> Fts5Index:
    """The index of ``commit``, derived or built first if needed (see the module docstring)."""
    target = index_path(root, commit)
    if not _is_current(target):
        try:
            prepare(target.parent)
            _ensure(root, commit, target)
        except OSError:
            target = _fallback_dir() / f"search-{commit}.sqlite"
            _ensure(root, commit, target)
    return _connect(target, commit)


def _ensure(root: Path, commit: str, target: Path) -> None:
    with _build_lock(target):
        if _is_current(target):
            return  # built by whoever held the lock before us
        # Callers of one commit wait for its builder above; builders of different commits share a bounded queue.
        with BUILDS.slot(commit):
            make_index(root, commit, target)
        _ready.add((target, target.stat().st_ino))
    prune(target.parent, keep=target)


def _connect(target: Path, commit: str) -> Fts5Index:
    """This thread's reader of ``target``: its connection, and what it read of the unchanging file, are kept."""
    cache: OrderedDict[tuple[Path, int], Fts5Index] = getattr(_local, "indexes", None) or OrderedDict()
    _local.indexes = cache
    key = (target, target.stat().st_ino)
    index = cache.pop(key, None)
    if index is None:
        db = sqlite3.connect(f"{target.as_uri()}?mode=ro", uri=True, check_same_thread=False)
        index = Fts5Index(db, commit)
        _touch(target)
    cache[key] = index
    while len(cache) > _CONNECTIONS:
        cache.popitem(last=False)[1].db.close()
    return index


# --- building and deriving ----------------------------------------------------------------------


def make_index(root: Path, commit: str, target: Path) -> str:
    """Write the index of ``commit`` to ``target``: derived from a near cached index, else built. Returns how."""
    text = synonyms.read_shelf_file(root, commit)
    synonyms.parse(text)  # a broken synonyms.json fails here, with its own message
    fd, tmp = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        how = _derive(root, commit, target, Path(tmp), text) or build_into(root, commit, Path(tmp), text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return how


def build_into(root: Path, commit: str, tmp: Path, synonyms_text: str | None) -> str:
    """Build the index of ``commit`` from every document into the file ``tmp`` (replaced if present)."""
    tmp.unlink(missing_ok=True)
    with closing(sqlite3.connect(tmp)) as db:
        ix.create(db, commit, synonyms_text)
        df: Counter[str] = Counter()
        added = sum(ix.add_document(db, m, listed, rows, df) for m, (listed, rows) in read_shelf(root, commit).items())
        ix.write_stats(db, df, added, 0)
        ix.finish(db, optimize=True)
    return "built"


def _commit_of(path: Path) -> str:
    return path.name.removeprefix("search-").removesuffix(".sqlite")


def _nearest(root: Path, commit: str, target: Path) -> tuple[Path, set[str]] | None:
    """The cached index whose commit differs from ``commit`` in the fewest paths, and those paths."""
    best: tuple[Path, set[str]] | None = None
    for other in _cached(target.parent):
        if other == target or not _is_current(other):
            continue
        try:
            changed = gitrepo.changed_paths(root, _commit_of(other), commit)
        except DocShelfError:
            continue  # that commit is gone (a rewritten branch): not a base
        if best is None or len(changed) < len(best[1]):
            best = (other, changed)
    return best


def _derive(root: Path, commit: str, target: Path, tmp: Path, synonyms_text: str | None) -> str | None:
    near = _nearest(root, commit, target)
    if near is None:
        return None
    base, changed = near
    shutil.copyfile(base, tmp)
    with closing(sqlite3.connect(tmp)) as db:
        db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
        docs = ix.documents_of(db, changed) | {p for p in changed if is_meta(p)}
        known = db.execute("SELECT count(*) FROM doc").fetchone()[0]
        if len(docs) > max(1, DERIVE_MAX_SHARE * known):
            return None  # so much changed that a fresh, optimized build is as quick
        df: Counter[str] = Counter()
        removed = sum(ix.remove_document(db, m, df) for m in docs)
        fresh = read_documents(root, commit, docs)
        added = sum(ix.add_document(db, m, listed, rows, df) for m, (listed, rows) in fresh.items())
        ix.write_stats(db, df, added, removed)
        ix.set_commit(db, commit, synonyms_text)
        ix.finish(db, optimize=False)
    return f"derived from {_commit_of(base)[:12]} ({len(docs)} document(s) re-indexed)"


# --- the bounded cache --------------------------------------------------------------------------


def _cached(folder: Path) -> list[Path]:
    """Index files of the folder, most recently used first."""
    files = []
    for p in folder.glob("search-*.sqlite"):
        try:
            files.append((p.stat().st_mtime, p))
        except OSError:
            continue  # pruned by another process meanwhile
    return [p for _t, p in sorted(files, reverse=True)]


def prune(folder: Path, keep: Path) -> None:
    """Delete the least recently used indexes beyond :data:`KEEP_INDEXES` files or :data:`MAX_CACHE_BYTES`."""
    total = 0
    for n, p in enumerate([keep, *(p for p in _cached(folder) if p != keep)]):
        try:
            total += p.stat().st_size
        except OSError:
            continue
        if n > 0 and (n >= KEEP_INDEXES or total > MAX_CACHE_BYTES):
            p.unlink(missing_ok=True)  # a process still reading it keeps its open handle
            p.with_suffix(".lock").unlink(missing_ok=True)
    for stale in folder.glob("search-*.tmp"):
        if _older_than(stale, 24 * 3600):  # a build killed halfway
            stale.unlink(missing_ok=True)


def _older_than(path: Path, seconds: float) -> bool:
    try:
        return time.time() - path.stat().st_mtime > seconds
    except OSError:
        return False


def _touch(path: Path) -> None:
    """Mark an index as just used (the cache drops the least recently used)."""
    try:
        os.utime(path)
    except OSError:
        pass
