"""Costs that must not grow with the shelf: work done once per commit is not redone per call (counted, not timed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.build.pipeline import BuiltDoc, DocOptions
from docshelf.law import editions
from docshelf.shelf import reader
from docshelf.shelf import store as shelf


def _regulation(folder: Path, n: int, chapters: int = 1) -> Path:
    points = "\n\n".join(
        f"{k}. Работник обязан соблюдать правило {n}-{k} и хранить сведения в тайне." for k in range(1, 4)
    )
    body = "\n\n".join(f"## {c}. Раздел {c}\n\n{points}" for c in range(1, chapters + 1))
    path = folder / f"reg-{n}.md"
    path.write_text(f"# Положение № {n} о порядке работы\n\n{body}\n", encoding="utf-8")
    return path


def _shelf(tmp_path: Path, documents: int) -> tuple[Path, list[BuiltDoc]]:
    """A shelf of ``documents`` small regulations in one category, added in one commit."""
    root = shelf.init(tmp_path / "shelf", name="Flat")
    src = tmp_path / "src"
    src.mkdir()
    files = [_regulation(src, n) for n in range(documents)]
    return root, shelf.add(root, files, DocOptions(source="", category="acts"), progress=lambda _m: None)


def test_read_index_looks_at_every_meta_once_per_commit_not_once_per_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, docs = _shelf(tmp_path, 6)
    looked: list[str] = []
    real = editions.has_edition

    def counted(meta: object) -> bool:
        looked.append(getattr(meta, "id", ""))
        return real(meta)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "has_edition", counted)
    reader.read_index(root)
    first = len(looked)
    assert first == len(docs)  # the first call of a commit reads every meta once
    for _ in range(5):
        reader.read_index(root)
        reader.read_index(root, docs[0].entry_path if docs[0].entry_path.endswith("subindex.md") else "index.md")
    assert len(looked) == first  # later calls of the same commit read none again


def test_a_big_category_reads_in_pages_of_a_budget_and_its_range_pages_go_when_it_shrinks(tmp_path: Path) -> None:
    from docshelf.build import tocpages
    from docshelf.shelf import check

    root, docs = _shelf(tmp_path, 65)
    quiet = lambda _m: None  # noqa: E731
    ranges = sorted(p.relative_to(root).as_posix() for p in (root / "docs/acts/_pages").rglob("subindex.md"))
    assert len(ranges) == 2
    category = reader.read_index(root, "docs/acts/subindex.md")
    assert all(f"]({'/' + r})" in category.text for r in ranges)
    for rel in ranges:
        listed = reader.read_index(root, rel).text
        assert sum(ln.startswith("- [") for ln in listed.splitlines()) <= tocpages.MAX_ENTRIES
    assert check.check(root) == []
    # A document no longer in force is marked on the range page that lists it, as on any index page (one split
    # into sections: its entry is its own subindex, in a folder beside the range pages).
    old = _regulation(tmp_path / "src", 999, chapters=40)
    (gone,) = shelf.add(root, [old], DocOptions(source="", category="acts", edition={"valid_to": "2001-01-01"}))
    assert gone.entry_path.endswith("/subindex.md")
    page = next(r for r in ranges if f"]({'/' + gone.entry_path})" in reader.read_index(root, r).text)
    shown = reader.shown_index(reader.read_index(root, page))
    line = next(ln for ln in shown.splitlines() if f"]({'/' + gone.entry_path})" in ln)
    assert "**" in line and line != next(ln for ln in reader.read_index(root, page).text.splitlines() if gone.id in ln)
    shelf.remove(root, [d.id for d in docs[:10]], progress=quiet)
    assert not (root / "docs/acts/_pages").exists() or not list((root / "docs/acts/_pages").rglob("*.md"))
    assert check.check(root) == []


def test_the_shelfs_names_are_read_once_per_commit_for_queries_naming_acts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf.text import docmentions, search

    root, _docs = _shelf(tmp_path, 3)
    made: list[int] = []
    real = docmentions.ShelfNames.of

    def counted(docs: object, titles: object) -> docmentions.ShelfNames:
        made.append(1)
        return real(docs, titles)  # type: ignore[arg-type]

    monkeypatch.setattr(docmentions.ShelfNames, "of", counted)
    first = search.search(root, "приказ ФСТЭК № 117 о хранении сведений")
    assert "No document" in first.note  # the act is not on the shelf, and the note says so
    for query in ("указ 250 о правилах", "приказ № 117 работник", "закон 999-ФЗ правило"):
        assert "No document" in search.search(root, query).note
    assert len(made) == 1  # every document's names and titles were read for the first of them only


def test_a_citation_reads_each_documents_names_once_not_once_per_quote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf.law import docids
    from docshelf.shelf import gitrepo
    from docshelf.text import citations

    root, docs = _shelf(tmp_path, 4)
    commit = gitrepo.resolve(root)
    spelled: list[str] = []
    real = docids.id_spellings

    def counted(doc_id: str) -> list[str]:
        spelled.append(doc_id)
        return real(doc_id)

    monkeypatch.setattr(docids, "id_spellings", counted)
    citations._names_of.cache_clear()
    citations._by_piece.cache_clear()
    first = citations.resolve_ref(root, f"{docs[1].id} п. 2", commit)
    assert first.doc_id == docs[1].id and spelled  # the first citation read the documents' names
    read = len(spelled)
    for doc in docs:
        assert citations.resolve_ref(root, f"{doc.id} п. 1", commit).doc_id == doc.id
    assert len(spelled) == read  # later citations of the same commit read none again


def test_a_commits_first_scan_normalizes_only_the_sections_no_earlier_scan_met(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quote verification's scan of the whole shelf keeps normalized texts by content (blob and marks) across
    commits: after an add, the next commit's first scan normalizes the new document's sections, not the shelf."""
    from docshelf.shelf import gitrepo
    from docshelf.text import normstore, verify

    root, docs = _shelf(tmp_path, 5)
    first = gitrepo.resolve(root)
    made: list[str] = []
    real = normstore.normalize_text

    def counted(text: str) -> str:
        made.append(text)
        return real(text)

    monkeypatch.setattr(normstore, "normalize_text", counted)
    sections = sum(len(d.meta.sections) for d in docs)
    shelf_before = verify._shelf_text(root, first)
    assert len(made) == sections  # a store that is empty: every section is normalized once
    verify._shelf_text.cache_clear()
    assert verify._shelf_text(root, first) == shelf_before  # read back from the store, the same texts
    assert len(made) == sections
    (new,) = shelf.add(root, [_regulation(tmp_path / "src", 77)], DocOptions(source="", category="acts"))
    made.clear()
    second = verify._shelf_text(root, gitrepo.resolve(root))
    assert len(made) == len(new.meta.sections)  # only the added document's sections are new
    assert "правило 77-2" in second.text and "правило 3-2" in second.text
    # The quote is proven at the new commit with texts the store gave (a changed word is still not found).
    quote = "Работник обязан соблюдать правило 3-2 и хранить сведения в тайне"
    assert verify.verify_quote(root, quote, f"{docs[3].meta.id} п. 2").verdict == "ok"
    assert verify.verify_quote(root, quote.replace("3-2", "3-9"), f"{docs[3].meta.id} п. 2").verdict == "not_found"
    assert verify.verify_quote(root, quote, f"{docs[2].meta.id} п. 2").verdict == "wrong_clause"  # the scan found it
    # Texts made by other code are not trusted: a store written by another version of it starts empty.
    monkeypatch.setattr(normstore, "fingerprint", lambda: "other code")
    verify._shelf_text.cache_clear()
    made.clear()
    verify._shelf_text(root, gitrepo.resolve(root))
    assert len(made) == sections + len(new.meta.sections)


def test_a_shelf_whose_cache_cannot_be_written_still_scans(tmp_path: Path) -> None:
    from docshelf.shelf import gitrepo
    from docshelf.text import verify

    root, docs = _shelf(tmp_path, 2)
    (root / ".docshelf").mkdir(exist_ok=True)
    (root / ".docshelf" / "normalized.sqlite").mkdir()  # a folder where the store's file should be: unusable
    verify._shelf_text.cache_clear()
    scanned = verify._shelf_text(root, gitrepo.resolve(root))
    assert "правило 1-3" in scanned.text and len(scanned.paths) == sum(len(d.meta.sections) for d in docs)
