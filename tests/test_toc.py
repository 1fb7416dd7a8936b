"""Tables of contents: llms.txt-shaped root index, subindexes, and a tree balanced for a small model."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pdfgen

from docshelf.build import toc
from docshelf.build.pipeline import DocOptions
from docshelf.records import DocMeta
from docshelf.shelf import check
from docshelf.shelf import store as shelf


def _meta(n_sections: int, groups: int, doc_id: str = "1-ФЗ", category: str = "laws") -> DocMeta:
    per = max(1, n_sections // max(groups, 1))
    sections = [
        {
            "path": f"docs/{category}/doc/{i:03d}-statia-{i}.md",
            "title": f"Статья {i}. Заголовок",
            "clause": f"ст. {i}",
            "groups": [f"Глава {1 + (i - 1) // per}. Название"] if groups else [],
            "pages": [i, i],
            "bytes": 1000,
            "tokens": 300,
        }
        for i in range(1, n_sections + 1)
    ]
    return DocMeta.from_json(
        {
            "id": doc_id,
            "title": "Закон",
            "category": category,
            "entry": f"docs/{category}/doc/subindex.md",
            "source": {"file": "sources/law.pdf"},
            "pages": n_sections,
            "edition": {},
            "sections": sections,
        }
    )


def test_index_is_llms_txt_shaped() -> None:
    text = toc.render_index("Полка", "Нормативная база", [_meta(3, 1)])
    lines = text.splitlines()
    assert lines[0] == "# Полка" and lines[2] == "> Нормативная база" and "## laws" in lines
    assert "- [Закон](docs/laws/doc/subindex.md): 1-ФЗ · 3 sections · ~900 tok, 2.9 KB" in lines


def test_short_document_has_one_flat_subindex_with_sizes_and_clauses() -> None:
    pages = toc.render_subindexes(_meta(12, 2))
    assert list(pages) == ["docs/laws/doc/subindex.md"]
    text = pages["docs/laws/doc/subindex.md"]
    assert "## Глава 1. Название" in text and "## Глава 2. Название" in text
    assert "- [Статья 7. Заголовок](007-statia-7.md): ст. 7 · p. 7 · ~300 tok, 1.0 KB" in text


def test_long_document_gets_a_page_per_chapter() -> None:
    pages = toc.render_subindexes(_meta(200, 10))
    top = pages["docs/laws/doc/subindex.md"]
    assert len(pages) == 11
    entries = [ln for ln in top.splitlines() if ln.startswith("- [")]
    assert len(entries) == 10 and entries[0].startswith(
        "- [Глава 1. Название](g01-glava-1-nazvanie/subindex.md): ст. 1–20"
    )
    chapter = pages["docs/laws/doc/g02-glava-2-nazvanie/subindex.md"]
    assert "[up](../subindex.md)" in chapter
    assert "- [Статья 21. Заголовок](../021-statia-21.md): ст. 21" in chapter
    assert all(len([ln for ln in p.splitlines() if ln.startswith("- [")]) <= toc.MAX_ENTRIES for p in pages.values())


def test_big_category_gets_its_own_page() -> None:
    metas = [replace(_meta(2, 0, doc_id=f"{i}-ФЗ", category="laws"), entry=f"docs/laws/d{i}.md") for i in range(70)]
    pages = toc.render_indexes("Полка", "x", metas)
    assert set(pages) == {"index.md", "docs/laws/subindex.md"}
    assert "- [laws: 70 documents](docs/laws/subindex.md)" in pages["index.md"]
    assert "[up](../../index.md)" in pages["docs/laws/subindex.md"]
    assert "- [Закон](d5.md): 5-ФЗ" in pages["docs/laws/subindex.md"]


def test_long_generated_law_is_balanced_and_healthy(tmp_path: Path, gen_dir: Path) -> None:
    pdf = pdfgen.make_long_regulation_pdf(gen_dir / "long.pdf", pages=100)
    root = shelf.init(tmp_path / "s")
    (doc,) = shelf.add(root, [pdf], DocOptions(source="", category="laws", id="888-ФЗ"), progress=lambda _m: None)
    assert len(doc.meta["sections"]) > toc.MAX_ENTRIES
    for rel, text in toc.render_subindexes(doc.meta).items():
        assert (root / rel).read_text(encoding="utf-8") == text
        assert len([ln for ln in text.splitlines() if ln.startswith("- [")]) <= toc.MAX_ENTRIES
    assert check.check(root) == []
    assert shelf.rebuild(root, progress=lambda _m: None) is False
