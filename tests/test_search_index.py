"""The search index: statistics kept in tables, a commit's index derived from its parent's, one build per
commit, a bounded cache; and one hit per clause (copies folded, apparatus down, absent acts named)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
import zlib
from collections import Counter
from contextlib import closing
from pathlib import Path

import pytest
from test_search import DOCS, PD_LAW, _make_shelf

from docshelf.build.pipeline import DocOptions
from docshelf.errors import IndexBusyError
from docshelf.shelf import gitrepo
from docshelf.shelf import store as shelf
from docshelf.text import indexcache, ranking, search
from docshelf.text.buildqueue import BuildQueue
from docshelf.text.cachepaths import INDEX_DIR
from docshelf.text.sections import is_apparatus


def _table(path: Path, sql: str) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(path)) as db:
        return sorted(db.execute(sql).fetchall())


def _recounted_df(path: Path) -> list[tuple[object, ...]]:
    """Document frequencies counted from the stored key strings, the slow way."""

    df: Counter[str] = Counter()
    for (data,) in _table(path, "SELECT data FROM keys"):
        df.update(set(zlib.decompress(data).decode("utf-8").replace("\x1f", " ").split()))  # type: ignore[arg-type]
    return sorted(df.items())


def _same_index(a: Path, b: Path) -> None:
    for sql in (
        "SELECT key, df FROM term",
        "SELECT value FROM meta WHERE key IN ('total', 'synonyms')",
        "SELECT s.path, s.title, s.clause, s.text, d.doc_id FROM section s JOIN doc d ON d.id = s.doc",
        "SELECT path FROM ref",
    ):
        assert _table(a, sql) == _table(b, sql), sql


@pytest.fixture
def two(tmp_path: Path) -> Path:
    return _make_shelf(tmp_path / "shelf", DOCS[:2])


def test_statistics_are_kept_and_match_a_recount(two: Path) -> None:
    result = search.search(two, "оператор")
    path = indexcache.index_path(two, result.commit)
    assert _table(path, "SELECT key, df FROM term") == _recounted_df(path)
    sections = len(search.read_sections(two, result.commit))
    assert _table(path, "SELECT value FROM meta WHERE key = 'total'") == [(str(sections),)]


def test_a_commit_changing_one_document_derives_its_index(two: Path, tmp_path: Path) -> None:
    first = search.search(two, "оператор")
    section = two / first.hits[0].path
    section.write_text(section.read_text(encoding="utf-8") + "\nзюзюкабряк\n", encoding="utf-8")
    child = gitrepo.commit(two, "Edit one section")
    target = indexcache.index_path(two, child)
    how = indexcache.make_index(two, child, target)
    assert how.startswith(f"derived from {first.commit[:12]} (1 document")
    full = tmp_path / "full.sqlite"
    indexcache.build_into(two, child, full, None)
    _same_index(target, full)
    hit = search.search(two, "зюзюкабряк").hits[0]
    assert hit.path == first.hits[0].path
    assert search.search(two, "зюзюкабряк", at=first.commit).mode == "none"  # the parent's index is untouched


def test_a_removed_and_an_added_document_are_followed(two: Path, tmp_path: Path) -> None:
    before = search.search(two, "провайдер хостинга")
    assert before.hits[0].doc_id == "149-ФЗ"
    meta = next((two / "docs").rglob("*.meta.json"))
    doc = json.loads(meta.read_text(encoding="utf-8"))
    gone = doc["id"]
    for s in doc["sections"]:
        (two / s["path"]).unlink()
    meta.unlink()
    gitrepo.commit(two, f"Remove {gone}")
    src = tmp_path / "measures.md"
    src.write_text(DOCS[2][3], encoding="utf-8")
    shelf.add(two, [src], DocOptions(source="", category="fstec", id="Приказ № 17"), progress=lambda _m: None)
    after = search.search(two, "УПД.1 провайдер хостинга статья")
    assert {h.doc_id for h in after.hits} <= {"152-ФЗ", "149-ФЗ", "Приказ № 17"} - {gone}
    full = tmp_path / "full.sqlite"
    indexcache.build_into(two, after.commit, full, None)
    _same_index(indexcache.index_path(two, after.commit), full)


def test_one_build_per_commit(two: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[str] = []
    real = indexcache.make_index

    def counted(root: Path, commit: str, target: Path) -> str:
        builds.append(commit)
        return real(root, commit, target)

    monkeypatch.setattr(indexcache, "make_index", counted)
    results: list[search.SearchResult] = []
    threads = [threading.Thread(target=lambda: results.append(search.search(two, "оператор"))) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 6 and len(builds) == 1


def test_the_cache_keeps_a_bounded_number_of_indexes(two: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(indexcache, "KEEP_INDEXES", 2)
    commits = []
    for n in range(4):
        (two / "README.md").write_text(f"edit {n}\n", encoding="utf-8")
        commits.append(gitrepo.commit(two, f"Edit {n}"))
        search.search(two, "оператор", at=commits[-1])
    kept = sorted(p.name for p in (two / INDEX_DIR).glob("search-*.sqlite"))
    assert kept == sorted(f"search-{c}.sqlite" for c in commits[-2:])


# --- one hit per clause -------------------------------------------------------------------------

CONTENTS = """# Сборник

## Предисловие

В сборник вошли обязанности оператора и другие нормы о том, как оператор исполняет обязанности.

## Статья 1. Общие положения

Обязанности оператора установлены законом; сборник их только пересказывает.
"""


@pytest.fixture(scope="module")
def editions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two editions of one law (the old one repealed), and a document whose contents list the law's words."""
    root = _make_shelf(tmp_path_factory.mktemp("editions") / "shelf", [])
    src = root.parent / "src"
    (src / "old.md").write_text(PD_LAW, encoding="utf-8")
    (src / "new.md").write_text(PD_LAW.replace("адекватной защите", "надлежащей защите"), encoding="utf-8")
    (src / "book.md").write_text(CONTENTS, encoding="utf-8")
    old = {"valid_from": "2006-07-27", "valid_to": "2024-09-01", "replaced_by": "152-ФЗ (ред. 2024)"}
    new = {"valid_from": "2024-09-01"}
    for name, doc_id, edition in [("old.md", "152-ФЗ", old), ("new.md", "152-ФЗ (ред. 2024)", new),
                                  ("book.md", "Сборник", {})]:  # fmt: skip
        opts = DocOptions(source="", category="laws", id=doc_id, edition=edition)
        shelf.add(root, [src / name], opts, progress=lambda _m: None)
    return root


def test_copies_of_a_clause_fold_into_the_edition_in_force(editions: Path) -> None:
    result = search.search(editions, "трансграничная передача персональных данных")
    first = result.hits[0]
    assert (first.doc_id, first.clause, first.status) == ("152-ФЗ (ред. 2024)", "ст. 12", "in_force")
    assert [(a["doc_id"], a["clause"], a["kind"]) for a in first.also_in] == [("152-ФЗ", "ст. 12", "copy")]
    clauses = [(h.doc_id, h.clause) for h in result.hits]
    assert len(clauses) == len(set(clauses)) and ("152-ФЗ", "ст. 12") not in clauses
    assert "also in: 152-ФЗ ст. 12" in search.describe(result)


def test_contents_rank_below_the_text(editions: Path) -> None:
    hits = search.search(editions, "обязанности оператора", doc="Сборник", limit=3).hits
    assert hits[0].title == "Статья 1. Общие положения" and hits[1].title.endswith("Предисловие")


def test_an_act_not_on_the_shelf_is_named_not_matched_by_its_number(editions: Path) -> None:
    result = search.search(editions, "приказ ФСТЭК № 18")
    assert result.low_confidence and "No document приказ ФСТЭК № 18 on the shelf" in result.note
    assert all(h.clause != "ст. 18" for h in result.hits)
    present = search.search(editions, "152-ФЗ ст. 18")
    assert "No document" not in present.note and present.hits[0].clause == "ст. 18"


def test_a_code_not_on_the_shelf_is_named_not_matched_by_its_article(editions: Path, tmp_path: Path) -> None:
    """«ст. 18 УК РФ» on a shelf of personal-data laws: not «Статья 18» of 152-ФЗ without a word."""
    for query in ("ст. 18 УК РФ", "статья 18 Уголовного кодекса Российской Федерации"):
        result = search.search(editions, query)
        assert result.low_confidence and "No document УК РФ on the shelf" in result.note, query
        assert all(h.clause != "ст. 18" for h in result.hits)
    # A code on the shelf under an id of the operator's choosing is on the shelf: its title names it.
    root = shelf.init(tmp_path / "s")
    code = tmp_path / "code.md"
    code.write_text("# Водный кодекс Российской Федерации\n\n## Статья 6. Водные объекты\n\nБереговая полоса.\n",
                    encoding="utf-8")  # fmt: skip
    shelf.add(root, [code], DocOptions(source="", category="laws", id="102107048"), progress=lambda _m: None)
    named = search.search(root, "береговая полоса по Водному кодексу")
    assert "No document" not in named.note and named.hits[0].doc_id == "102107048"


def test_an_index_of_a_vanished_commit_is_no_base(two: Path) -> None:
    """A cached index whose commit is gone (a rewritten branch) is skipped; the nearest real one is used."""
    old = search.search(two, "оператор").commit
    shutil.copy(indexcache.index_path(two, old), indexcache.index_path(two, "f" * 40))
    (two / "README.md").write_text("x\n", encoding="utf-8")
    child = gitrepo.commit(two, "Edit")
    how = indexcache.make_index(two, child, indexcache.index_path(two, child))
    assert how == f"derived from {old[:12]} (0 document(s) re-indexed)"


def test_common_words_are_ranked_by_the_rerank_not_by_reading_every_posting(
    two: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no posting budget every concept is 'common': candidates come unranked, the rerank still orders them."""
    expected = [h.path for h in search.search(two, "обязанности оператора при сборе данных").hits]
    monkeypatch.setattr(ranking, "RANK_BUDGET", 0)
    result = search.search(two, "обязанности оператора при сборе данных")
    assert result.hits[0].clause == "ст. 18" and [h.path for h in result.hits][:1] == expected[:1]


CONTENTS_PAGE = """> RFC 8446 · p. 4–5

12. References ...................................................109

12.1. Normative References ....................................109

Appendix A. State Machine ........................................120

A.1. Client ....................................................120
"""


def test_a_section_of_contents_lines_is_apparatus_whatever_its_title() -> None:
    """A title page running into the contents keeps the document's title: its lines say what it is."""
    assert is_apparatus("The Transport Layer Security (TLS) Protocol Version 1.3 (3/3)", CONTENTS_PAGE)
    assert is_apparatus("Содержание") and is_apparatus("4. Normative References")
    body = "The UPDATE message carries routes.\n\nSee Section 4.1 ........ for the header.\n\nIt has three fields."
    assert not is_apparatus("4.3. UPDATE Message Format", body)  # one leader line among text
    assert not is_apparatus("Статья 2. Основные понятия", "1) информация - сведения;\n\n2) оператор - лицо;")


def test_index_builds_for_other_commits_wait_in_one_bounded_queue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One build at a time, two waiting, the rest told to retry; a commit whose index is cached never waits."""
    root = _make_shelf(tmp_path / "shelf", DOCS)
    law = next(p for p in (root / "docs").rglob("*.md") if "index" not in p.name)
    commits = []
    for n in range(5):
        law.write_text(law.read_text(encoding="utf-8") + f"\nРедакция {n}.\n", encoding="utf-8")
        commits.append(gitrepo.commit(root, f"Edition {n}"))
    queue = BuildQueue(running=1, waiting=2)
    monkeypatch.setattr(indexcache, "BUILDS", queue)
    release, lock, running, peak = threading.Event(), threading.Lock(), [0], [0]
    real = indexcache.make_index

    def held(root: Path, commit: str, target: Path) -> str:  # a build that lasts until the test lets it finish
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        release.wait(60)
        try:
            return real(root, commit, target)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(indexcache, "make_index", held)
    outcomes: list[object] = []

    def ask(commit: str) -> None:
        try:
            outcomes.append(search.search(root, "персональные данные", at=commit).commit)
        except IndexBusyError as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=ask, args=(c,)) for c in commits]
    for t in threads:
        t.start()
    pause = threading.Event()  # never set: wait(0.1) is a sleep
    for _ in range(600):  # until the two that found the queue full have answered (a readiness wait, no timing)
        if sum(isinstance(o, IndexBusyError) for o in outcomes) == 2:
            break
        pause.wait(0.1)
    release.set()
    for t in threads:
        t.join(60)
    refused = [o for o in outcomes if isinstance(o, IndexBusyError)]
    assert len(refused) == 2 and all("Retry in about" in str(e) for e in refused)
    assert peak[0] == 1 and queue.started == 3 and queue.refused == 2
    queue.configure(running=1, waiting=0)
    built = [c for c in commits if indexcache.index_path(root, c).exists()]
    assert sorted(o for o in outcomes if isinstance(o, str)) == sorted(built) and len(built) == 3
    assert all(search.search(root, "данные", at=c).commit == c for c in built)  # cached: no slot needed
