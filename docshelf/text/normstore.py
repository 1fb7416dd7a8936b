"""The normalized text of every section blob the shelf has scanned, kept across commits.

Quote verification looks for a quote everywhere on the shelf in the normalized text of every section of the
commit (:func:`docshelf.text.verify.prepare`). Normalizing is the cost: ~30 CPU-s for 100,000 sections. A
section's normalized text depends only on its bytes (a Git blob) and the footnote marks its meta blanks, so it is
kept in ``<shelf>/.docshelf/normalized.sqlite`` under that pair, zlib-compressed: the first scan of a commit
normalizes only the sections no earlier scan met — one changed document after an ``add``, not the shelf.

The texts are only as right as the code that made them: the store records a fingerprint of that code (the
normalization and the blanking of marks and editorial lines) and starts empty when it differs. A shelf that
cannot be written, or a store that cannot be read, costs time, never an answer: every text is then computed.
"""

from __future__ import annotations

import hashlib
import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing
from functools import cache
from pathlib import Path

from docshelf.build.footnotes import MARKS
from docshelf.law import grammar
from docshelf.records import SectionMeta
from docshelf.text import lawtext, normalize
from docshelf.text.cachepaths import INDEX_DIR, prepare
from docshelf.text.normalize import normalize_text

STORE = "normalized.sqlite"
_BATCH = 500  # keys per SELECT (SQLite's parameter limit is far above)
_KEEP = 3  # rows kept: up to this many times the sections of the commit being scanned, then the rest goes


@cache
def fingerprint() -> str:
    """What the stored texts were made by: the sources of normalization and of the blanking before it."""
    digest = hashlib.sha256()
    for module in (normalize, lawtext, grammar):  # grammar: the editorial lines blanked before normalizing
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()


def key(blob: str, section: SectionMeta) -> str:
    """A section's text by content: its blob sha and the footnote mark spans its meta blanks in it."""
    return blob + "".join(f":{a}-{b}" for a, b in section.extra.get(MARKS, ()))


def scan_text(text: str, section: SectionMeta) -> str:
    """What the scan looks for a quote in: editorial lines and footnote marks blanked, then normalized."""
    return normalize_text(lawtext.unmarked(grammar.blank_editorial(text), section))


def blob_sha(data: bytes) -> str:
    """The name Git gives ``data`` as a blob: what a section file will be called once committed."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def store_built(root: Path, sections: Iterable[tuple[str, SectionMeta]]) -> None:
    """Store the scan texts of sections just committed (their text and meta entry), so that the next commit's
    first scan finds them: ``add`` pays for its own documents, not the server for the whole shelf."""
    remember(root, {key(blob_sha(t.encode("utf-8")), s): scan_text(t, s) for t, s in sections})


def store_path(root: Path) -> Path:
    return root.resolve() / INDEX_DIR / STORE


def _open(root: Path) -> sqlite3.Connection | None:
    path = store_path(root)
    try:
        prepare(path.parent)
        db = sqlite3.connect(path, timeout=30)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        db.execute("CREATE TABLE IF NOT EXISTS text (key TEXT PRIMARY KEY, body BLOB) WITHOUT ROWID")
        row = db.execute("SELECT value FROM meta WHERE key = 'code'").fetchone()
        if row is None or row[0] != fingerprint():
            with db:
                db.execute("DELETE FROM text")
                db.execute("INSERT OR REPLACE INTO meta VALUES ('code', ?)", (fingerprint(),))
    except (OSError, sqlite3.Error):
        return None
    return db


def _batches(keys: list[str]) -> Iterator[list[str]]:
    for i in range(0, len(keys), _BATCH):
        yield keys[i : i + _BATCH]


def recall(root: Path, keys: Iterable[str]) -> dict[str, str]:
    """The stored texts of ``keys`` (those the store has)."""
    db = _open(root)
    if db is None:
        return {}
    found: dict[str, str] = {}
    with closing(db):
        try:
            for batch in _batches(sorted(set(keys))):
                marks = ",".join("?" * len(batch))
                for k, body in db.execute(f"SELECT key, body FROM text WHERE key IN ({marks})", batch):
                    found[k] = zlib.decompress(body).decode("utf-8")
        except (sqlite3.Error, zlib.error, UnicodeDecodeError):
            return {}
    return found


def remember(root: Path, made: Mapping[str, str], keep: Iterable[str] = ()) -> None:
    """Store ``made`` (key -> normalized text); with ``keep``, the keys a commit uses, drop the rest once the
    store holds more than :data:`_KEEP` times as many."""
    db = _open(root)
    if db is None:
        return
    with closing(db):
        try:
            with db:
                db.executemany(
                    "INSERT OR REPLACE INTO text VALUES (?, ?)",
                    ((k, zlib.compress(t.encode("utf-8"), 1)) for k, t in made.items()),
                )
            kept = set(keep)
            if kept and db.execute("SELECT count(*) FROM text").fetchone()[0] > _KEEP * len(kept):
                stale = [k for (k,) in db.execute("SELECT key FROM text") if k not in kept]
                with db:
                    db.executemany("DELETE FROM text WHERE key = ?", ((k,) for k in stale))
        except sqlite3.Error:
            return
