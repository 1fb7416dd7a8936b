"""What a served commit needs before its first call, computed before the server says it is ready.

A kept-open server answers in milliseconds because it has read the commit once: the search index (built
or found cached), the word vectors (``docshelf[semantic]``), every meta, the clause tables, and the
normalized text of every section that quote verification scans. In a fresh process all of that is read
by the first call, which then costs seconds. :func:`prepare` reads it up front — ``serve`` calls it
before ``/readyz`` turns ready (HTTP), beside ``initialize`` (stdio: the handshake does not wait), and on
a ``--follow`` switch before the new commit is served — and it ends with one call of each kind on a real
clause, so that what a call loads lazily (the analyzer's dictionaries, the synonyms, the grammar's
patterns) is loaded too.
"""

from __future__ import annotations

from pathlib import Path

from docshelf.shelf.reader import fetch, metas_at, read_index
from docshelf.text import lemmas, neighbours, verify
from docshelf.text.lawtext import sections_at
from docshelf.text.search import open_index, search
from docshelf.text.search import prepare as prepare_search


def prepare(root: Path, commit: str) -> None:
    """Read everything the calls on ``commit`` read (see the module docstring); DocShelfError as they would."""
    index = open_index(root, commit)
    try:
        neighbours.warm(index)  # with docshelf[semantic]: the first query guessing a word must not load them
    finally:
        index.close()
    metas = metas_at(root, commit)
    sections_at(root, commit)
    verify.prepare(root, commit)
    prepare_search(root, commit)  # the names of every document, which a query naming an act reads
    lemmas.available()  # the Russian morphology a query word is looked up in (the index keeps the synonyms analysed)
    words = next((m.title for m in metas if m.title.strip()), "") or "document"
    found = search(root, " ".join(words.split()[:4]), at=commit, limit=1)
    # One call of each kind on a real clause: what the first answer compiles or loads on its way (patterns
    # of the citation grammar, the quote matcher, result models) is ready for the next.
    for hit in found.hits[:1]:
        read_index(root, at=commit)
        fetch(root, hit.path, at=commit, start=hit.start, max_chars=max(hit.max_chars, 1))
        verify.verify_quote(root, hit.snippet, f"{hit.doc_id} {hit.snippet_clause}".strip(), at=commit)
