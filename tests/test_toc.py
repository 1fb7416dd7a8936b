"""Tables of contents: llms.txt-shaped root index, subindexes, and a tree balanced for a small model."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pdfgen

from docshelf.build import toc
from docshelf.build.gist import gist
from docshelf.build.pipeline import DocOptions
from docshelf.records import Clause, DocMeta, SectionMeta
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
    assert "- [Статья 7. Заголовок](/docs/laws/doc/007-statia-7.md): ст. 7 · p. 7 · ~300 tok, 1.0 KB" in text


def test_long_document_gets_a_page_per_chapter() -> None:
    pages = toc.render_subindexes(_meta(200, 10))
    top = pages["docs/laws/doc/subindex.md"]
    assert len(pages) == 11
    entries = [ln for ln in top.splitlines() if ln.startswith("- [")]
    assert len(entries) == 10 and entries[0].startswith(
        "- [Глава 1. Название](/docs/laws/doc/g01-glava-1-nazvanie/subindex.md): ст. 1–20"
    )
    chapter = pages["docs/laws/doc/g02-glava-2-nazvanie/subindex.md"]
    assert "[up](/docs/laws/doc/subindex.md)" in chapter  # shelf-absolute: the same path from every page
    assert "- [Статья 21. Заголовок](/docs/laws/doc/021-statia-21.md): ст. 21" in chapter
    assert all(len([ln for ln in p.splitlines() if ln.startswith("- [")]) <= toc.MAX_ENTRIES for p in pages.values())


def test_big_category_gets_its_own_page() -> None:
    metas = [replace(_meta(2, 0, doc_id=f"{i}-ФЗ", category="laws"), entry=f"docs/laws/d{i}.md") for i in range(70)]
    pages = toc.render_indexes("Полка", "x", metas)
    assert set(pages) == {"index.md", "docs/laws/subindex.md"}
    assert "- [laws: 70 documents](docs/laws/subindex.md)" in pages["index.md"]
    assert "[up](/index.md)" in pages["docs/laws/subindex.md"]
    assert "- [Закон](/docs/laws/d5.md): 5-ФЗ" in pages["docs/laws/subindex.md"]


def test_long_generated_law_is_balanced_and_healthy(tmp_path: Path, gen_dir: Path) -> None:
    pdf = pdfgen.make_long_regulation_pdf(gen_dir / "long.pdf", pages=100)
    root = shelf.init(tmp_path / "s")
    (doc,) = shelf.add(root, [pdf], DocOptions(source="", category="laws", id="888-ФЗ"), progress=lambda _m: None)
    assert len(doc.meta.sections) > toc.MAX_ENTRIES
    for rel, text in toc.render_subindexes(doc.meta).items():
        assert (root / rel).read_text(encoding="utf-8") == text
        assert len([ln for ln in text.splitlines() if ln.startswith("- [")]) <= toc.MAX_ENTRIES
    assert check.check(root) == []
    assert shelf.rebuild(root, progress=lambda _m: None) is False


def _piece(n: int, title: str, gist: str = "", clause: str = "ст. 8") -> SectionMeta:
    return SectionMeta(
        f"docs/laws/doc/{n:03d}.md", title, clause=clause, pages=(n, n), bytes=2048, tokens=600, gist=gist
    )


def test_a_split_article_prints_its_title_once_and_its_pieces_under_it() -> None:
    title = "Статья 8. Право на доступ к информации"
    sections = (
        _piece(1, "Статья 7. Общедоступная информация", "ч. 1: К общедоступной информации относятся…", "ст. 7"),
        _piece(2, f"{title} (ч. 1–8)", "ч. 1: Граждане (физические лица)… · ч. 2: Гражданин имеет право…"),
        _piece(3, f"{title} (ч. 9–10)", "ч. 9: Установление платы…"),
    )
    meta = replace(_meta(0, 0), section_data=sections)
    lines = toc.render_subindex(meta).splitlines()
    assert lines[4:] == [
        "- [Статья 7. Общедоступная информация](/docs/laws/doc/001.md): ст. 7 · p. 1 · ~600 tok, 2.0 KB"
        " — ч. 1: К общедоступной информации относятся…",
        f"- {title}: ст. 8 · p. 2–3 · 2 parts · ~1200 tok, 4.0 KB",
        "  - [ч. 1–8](/docs/laws/doc/002.md): ~600 tok, 2.0 KB — ч. 1: Граждане (физические лица)… · ч. 2: Гражданин"
        " имеет право…",
        "  - [ч. 9–10](/docs/laws/doc/003.md): ~600 tok, 2.0 KB — ч. 9: Установление платы…",
    ]
    assert sum(title in ln for ln in lines) == 1


def test_gists_shrink_to_the_page_budget_at_a_part_boundary() -> None:
    gist = " · ".join(f"п. {i}: Слово{i} слово слово…" for i in range(1, 6))  # 24 characters a part
    sections = tuple(_piece(i, f"Пункт {i}", gist, clause=f"п. {i}") for i in range(1, 60))
    text = toc.render_subindex(replace(_meta(0, 0), section_data=sections))
    entry = next(ln for ln in text.splitlines() if "(/docs/laws/doc/001.md)" in ln)
    shown = entry.split(" — ", 1)[1]
    assert toc.GIST_PAGE_CHARS // 59 == 81  # each of 59 entries gets 81 characters: three parts fit, not four
    assert shown == "п. 1: Слово1 слово слово… · п. 2: Слово2 слово слово… · п. 3: Слово3 слово слово…"


ARTICLE = """# Статья 8. Право на доступ к информации

> 149-ФЗ · ст. 8 · стр. 5

1. Граждане (физические лица) и организации (юридические лица) вправе осуществлять поиск и получение информации.

2. Гражданин (физическое лицо) имеет право на получение от государственных органов сведений.

3. Организация имеет право на получение информации.
"""


def test_a_gist_is_the_opening_words_of_each_part_taken_from_the_text() -> None:
    spans = [("ст. 8", 0, len(ARTICLE))]
    for n in (1, 2, 3):
        start = ARTICLE.index(f"\n{n}. ") + 1
        end = ARTICLE.find("\n\n", start)
        spans.append((f"ст. 8 ч. {n}", start, end if end > 0 else len(ARTICLE)))
    clauses = [Clause(*c) for c in spans]
    first = "ч. 1: Граждане (физические лица) и организации (юридические лица)…"
    second = "ч. 2: Гражданин (физическое лицо) имеет право на получение…"
    third = "ч. 3: Организация имеет право на получение информации."
    assert gist(ARTICLE, "ст. 8", clauses) == f"{first} · {second}"  # with ч. 3 it would pass 160 characters
    assert gist(ARTICLE, "ст. 8", clauses, budget=300) == f"{first} · {second} · {third}"
    assert gist(ARTICLE, "ст. 8", clauses, budget=70) == first
    # Without sub-clauses: the body's opening words; the heading and the editorial breadcrumb are not text.
    assert gist(ARTICLE, "ст. 8", clauses[:1]) == (
        "Граждане (физические лица) и организации (юридические лица) вправе осуществлять поиск и получение информации."
    )
    assert gist("# Заголовок\n\n> только служебная строка\n", "", []) == ""


def test_a_chapter_entry_names_what_it_holds_in_its_own_words() -> None:
    meta = _meta(200, 10)
    titles = {21: "Статья 21. Служебное время", 22: "С т а т ь я 22. Отпуска на службе"}
    titles[23] = "Статья 23. Отпуска на службе"  # said once
    data = [dict(s, title=titles.get(n, s["title"])) for n, s in enumerate(meta.section_data, start=1)]
    top = toc.render_subindexes(replace(meta, section_data=data))["docs/laws/doc/subindex.md"]
    chapter = next(ln for ln in top.splitlines() if ln.startswith("- [Глава 2."))
    gist = "Служебное время · Отпуска на службе · Заголовок"
    assert chapter.endswith(f"ст. 21–40 · 20 sections · ~6000 tok, 19.5 KB — {gist}")
