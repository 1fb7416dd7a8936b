"""Tables of contents: llms.txt-shaped root index, subindexes, and a tree balanced for a small model."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pdfgen
import pytest
from slugify import slugify

from docshelf.build import toc, tocpages
from docshelf.build.gist import fit, gist
from docshelf.build.pipeline import DocOptions
from docshelf.records import Clause, DocMeta, SectionMeta
from docshelf.shelf import check, gitrepo
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
    assert all(sum(ln.startswith("- [") for ln in p.splitlines()) <= tocpages.MAX_ENTRIES for p in pages.values())


def test_big_category_gets_its_own_page() -> None:
    metas = [replace(_meta(2, 0, doc_id=f"{i}-ФЗ", category="laws"), entry=f"docs/laws/d{i}.md") for i in range(70)]
    pages = toc.render_indexes("Полка", "x", metas)
    # 70 entries are more than a page lists: the category's page links two range pages (60 + 10 documents, ids
    # sorted as text).
    ranges = ["docs/laws/_pages/1-1/subindex.md", "docs/laws/_pages/1-2/subindex.md"]
    assert set(pages) == {"index.md", "docs/laws/subindex.md", *ranges}
    assert "- [laws: 70 documents](docs/laws/subindex.md)" in pages["index.md"]
    assert "[up](/index.md)" in pages["docs/laws/subindex.md"]
    assert (
        "- [0-ФЗ … 62-ФЗ](/docs/laws/_pages/1-1/subindex.md): 60 documents" in pages["docs/laws/subindex.md"]
    )  # ids sorted as text
    assert "- [Закон](/docs/laws/d5.md): 5-ФЗ" in pages[ranges[0]]


def test_a_category_over_a_pages_budget_is_listed_by_ranges_of_ids_on_pages_of_their_own() -> None:
    metas = [
        replace(_meta(2, 0, doc_id=f"{i:04d}-ФЗ", category="laws"), entry=f"docs/laws/d{i}.md") for i in range(4000)
    ]
    pages = toc.render_indexes("Полка", "x", metas)
    ranges = {p for p in pages if "/_pages/" in p}
    listed = [ln for p in ranges for ln in pages[p].splitlines() if "](/docs/laws/d" in ln]
    assert sorted(listed) == sorted({ln for ln in listed}) and len(listed) == 4000  # every document once
    assert all(sum(ln.startswith("- [") for ln in t.splitlines()) <= tocpages.MAX_ENTRIES for t in pages.values())
    assert all(len(t.encode("utf-8")) <= tocpages.PAGE_BYTES for t in pages.values())
    top = pages["docs/laws/subindex.md"]  # 4000 documents: ranges of ranges, the top page still one screen
    assert "> 4000 documents of Полка" in top and "](/docs/laws/_pages/2-" in top
    first = next(p for p in sorted(ranges) if p.startswith("docs/laws/_pages/1-"))
    assert pages[first].splitlines()[2].startswith("> 0000-ФЗ … 00")
    assert "[up](/docs/laws/subindex.md)" in pages[first]


def test_long_generated_law_is_balanced_and_healthy(tmp_path: Path, gen_dir: Path) -> None:
    pdf = pdfgen.make_long_regulation_pdf(gen_dir / "long.pdf", pages=100)
    root = shelf.init(tmp_path / "s")
    (doc,) = shelf.add(root, [pdf], DocOptions(source="", category="laws", id="888-ФЗ"), progress=lambda _m: None)
    assert len(doc.meta.sections) > tocpages.MAX_ENTRIES
    for rel, text in toc.render_subindexes(doc.meta).items():
        assert (root / rel).read_text(encoding="utf-8") == text
        assert len([ln for ln in text.splitlines() if ln.startswith("- [")]) <= tocpages.MAX_ENTRIES
    assert check.check(root) == []
    assert shelf.rebuild(root, progress=lambda _m: None) is False


def _docs_tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in (root / "docs").rglob("*") if p.is_file()}


@pytest.mark.parametrize("commit", [True, False], ids=["commit", "no-commit"])
def test_a_rebuild_removes_the_table_pages_an_older_build_left(tmp_path: Path, gen_dir: Path, commit: bool) -> None:
    pdf = pdfgen.make_long_regulation_pdf(gen_dir / "long.pdf", pages=100)
    root = shelf.init(tmp_path / "s")
    (doc,) = shelf.add(root, [pdf], DocOptions(source="", category="laws", id="888-ФЗ"), progress=lambda _m: None)
    fresh = _docs_tree(root)
    folder = root / doc.meta.entry.removesuffix("/subindex.md")
    group = sorted(folder.glob("g*/subindex.md"))[0].parent
    # What an older paging left: a group page today's paging does not make, and a nested folder of tables.
    stale = [folder / "g99-glava-99-staraia/subindex.md", group / "p01-st-1-5/subindex.md"]
    kept = group / "notes.txt"  # not a table page: a rebuild leaves it alone
    for path in [*stale, kept]:
        path.parent.mkdir(exist_ok=True)
        path.write_text("# Глава 99\n", encoding="utf-8")
    if commit:
        gitrepo.commit(root, "Pages of an older build")
    orphans = {p.path for p in check.check(root) if p.kind == "orphan"}
    assert orphans == {p.relative_to(root).as_posix() for p in stale}

    assert shelf.rebuild(root, commit=commit, progress=lambda _m: None) is True
    assert not any(p.parent.exists() for p in stale)
    assert _docs_tree(root) == {**fresh, kept.relative_to(root).as_posix(): "# Глава 99\n".encode()}
    assert check.check(root) == []
    assert shelf.rebuild(root, commit=commit, progress=lambda _m: None) is False


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
    parts = [f"п. {i}: Слово{i} слово слово…" for i in range(1, 6)]  # 43 bytes a part
    sections = tuple(_piece(i, f"Пункт {i}", " · ".join(parts), clause=f"п. {i}") for i in range(1, 60))
    text = toc.render_subindex(replace(_meta(0, 0), section_data=sections))
    shown = [ln.split(" — ", 1)[1] for ln in text.splitlines() if ln.startswith("- [")]
    # 59 entries share what the bare page leaves of its 8 KB: one part each fits, two do not; how many
    # are left out is said where it fits.
    assert len(text.encode("utf-8")) <= tocpages.PAGE_BYTES
    assert shown == [parts[0] + " · +4"] * 59
    # With room to spare every gist is whole: the budget cuts only what does not fit.
    few = toc.render_subindex(replace(_meta(0, 0), section_data=sections[:10]))
    assert all(ln.endswith(" — " + " · ".join(parts)) for ln in few.splitlines() if ln.startswith("- ["))


def test_fitting_shows_short_gists_whole_and_shares_the_rest() -> None:
    # 100 bytes for three gists (« — » costs 5 each): the short one whole (19 bytes), the others split
    # what is left, 40 each, cut at a word with «…» (3 bytes).
    assert fit(["коротко", "a" * 200, "b " * 19 + "b"], 100, " — ") == [
        "коротко",
        "",  # no word boundary within its share: nothing rather than half a word
        "b " * 15 + "b…",
    ]
    assert fit(["a · b", ""], 0, " — ") == ["", ""]


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
    data = tuple(replace(s, title=titles.get(n, s.title)) for n, s in enumerate(meta.sections, start=1))
    top = toc.render_subindexes(replace(meta, section_data=data))["docs/laws/doc/subindex.md"]
    chapter = next(ln for ln in top.splitlines() if ln.startswith("- [Глава 2."))
    gist = "Служебное время · Отпуска на службе · Заголовок"
    assert chapter.endswith(f"ст. 21–40 · 20 sections · ~6000 tok, 19.5 KB — {gist}")


_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _reachable(pages: Mapping[str, str], start: str = "index.md") -> set[str]:
    """Every path reached from ``start`` by following the links of the pages (shelf-absolute or root-relative)."""
    seen, todo = {start}, [start]
    while todo:
        for target in _LINK.findall(pages.get(todo.pop(), "")):
            path = target.removeprefix("/")
            if path not in seen:
                seen.add(path)
                todo.append(path)
    return seen


def _law(sections: list[dict[str, Any]], doc_id: str = "2-ФЗ") -> DocMeta:
    for n, s in enumerate(sections, start=1):
        s.setdefault("path", f"docs/laws/big/{n:03d}-{slugify(s['title'], max_length=30)}.md")
        s.setdefault("pages", [n, n])
        s.setdefault("bytes", 4000)
        s.setdefault("tokens", 700)
    raw = {"id": doc_id, "title": "О большом законе", "category": "laws", "entry": "docs/laws/big/subindex.md"}
    return DocMeta.from_json({**raw, "source": {"file": "sources/big.pdf"}, "edition": {}, "sections": sections})


def _article(n: str, groups: list[str], title: str = "") -> dict[str, Any]:
    words = "Оператор обязан обеспечить защиту сведений о гражданине от неправомерного доступа и уничтожения"
    return {
        "title": title or f"Статья {n}. Обязанности держателя реестра сведений номер {n}",
        "clause": f"ст. {n}",
        "groups": groups,
        "gist": " · ".join(f"ч. {p}: {words}…" for p in (1, 2)),
    }


def _check_tree(meta: DocMeta) -> dict[str, str]:
    pages = toc.render_subindexes(meta)
    assert pages == toc.render_subindexes(meta)  # byte-stable
    assert max(len(text.encode("utf-8")) for text in pages.values()) <= tocpages.PAGE_BYTES
    index = toc.render_indexes("Полка", "x", [meta])
    reached = _reachable({**index, **pages})
    assert {s.path for s in meta.sections} <= reached and set(pages) <= reached
    return pages


def test_a_big_law_is_paged_by_its_own_groups_within_the_byte_budget() -> None:
    sections: list[dict[str, Any]] = [{"title": "О большом законе", "gist": "Принят Государственной Думой"}]
    n = 0
    for r, razdel in enumerate(("Раздел I. Общие положения", "Раздел II. Реестры", "Раздел III. Надзор"), 1):
        for g in range(1, 6):
            glava = f"Глава {r}.{g}. Порядок ведения реестра {g}"
            for _ in range(12 if g > 1 else 1):  # the first chapter of each part holds one article
                n += 1
                sections.append(_article(str(n), [razdel, glava]))
    meta = _law(sections)
    pages = _check_tree(meta)
    top = pages[meta.entry]
    # One page per part, one per chapter below it; a chapter of one article stays on its part's page.
    assert len(pages) == 1 + 3 + 3 * 4
    razdel = "docs/laws/big/g01-razdel-i-obshchie-polozheniia/subindex.md"
    assert f"- [Раздел I. Общие положения](/{razdel}): ст. 1–49 · 49 sections · " in top
    part = pages[razdel]
    lines = part.splitlines()
    at = lines.index("- Глава 1.1. Порядок ведения реестра 1: ст. 1")  # listed in place, under its name
    assert lines[at + 1].startswith("  - [Статья 1. Обязанности держателя реестра сведений номер 1](/docs/laws/big/0")
    assert not any(ln.startswith("#") for ln in lines[1:])  # no heading that would seem to hold the next links
    glava = f"{razdel.removesuffix('/subindex.md')}/g01-glava-1-2-poriadok-vedeniia-reestra-2/subindex.md"
    assert f"- [Глава 1.2. Порядок ведения реестра 2](/{glava}): ст. 2–13 · 12 sections · " in part
    assert f"[up](/{razdel})" in pages[glava]
    # A chapter's entry still says what it holds: its articles' titles, numbers cut, each once.
    assert " — Обязанности держателя реестра сведений номер 2 · Обязанности держателя" in part


def test_a_long_law_without_chapters_is_packed_into_pages_of_whole_article_families() -> None:
    sections = [_article(str(a), []) for a in range(1, 9)]
    sections += [_article(f"9.{b}", []) for b in range(1, 12)]  # ст. 9 and its 9.1–9.11 belong together
    sections += [_article(str(a), []) for a in range(10, 40)]
    meta = _law(sections)
    pages = _check_tree(meta)
    assert len(pages) > 2 and all("/p0" in path for path in list(pages)[1:])
    packed = [{m for m in re.findall(r"\): ст\. ([\d.]+) ·", text)} for text in list(pages.values())[1:]]
    holding = [n for n, page in enumerate(packed) if any(c.startswith("9.") for c in page)]
    assert len(holding) == 1  # the 9.x family is not cut across pages
    top = [ln for ln in pages[meta.entry].splitlines() if ln.startswith("- [")]
    assert top[0].startswith("- [ст. 1–") and "/docs/laws/big/p01-st-1-" in top[0]


def test_a_lone_part_becomes_a_heading_and_a_chapters_heading_joins_its_page() -> None:
    # The Constitution: «РАЗДЕЛ ПЕРВЫЙ» around every chapter; «ГЛАВА 1» a section of its own (its name
    # as its text) just before the chapter; articles titled by number only.
    sections: list[dict[str, Any]] = [{"title": "О большом законе", "gist": "Принят всенародным голосованием"}]
    for g, name in enumerate(("ОСНОВЫ СТРОЯ", "ПРАВА И СВОБОДЫ", "ФЕДЕРАТИВНОЕ УСТРОЙСТВО"), start=1):
        sections.append({"title": f"ГЛАВА {g}", "clause": f"гл. {g}", "groups": ["РАЗДЕЛ ПЕРВЫЙ"], "gist": name})
        for a in range(1, 40):
            n = f"{g}{a:02d}"
            sections.append(_article(n, ["РАЗДЕЛ ПЕРВЫЙ", f"ГЛАВА {g}"], title=f"Статья {n}"))
    sections.append({"title": "РАЗДЕЛ ВТОРОЙ", "clause": "разд. ВТОРОЙ", "gist": "Заключительные положения"})
    meta = _law(sections)
    pages = _check_tree(meta)
    lines = pages[meta.entry].splitlines()
    entries = [ln for ln in lines if ln.startswith("- [")]
    assert "## РАЗДЕЛ ПЕРВЫЙ" in lines and "## Outside РАЗДЕЛ ПЕРВЫЙ" in lines
    assert entries[1].startswith("- [ГЛАВА 1](/docs/laws/big/g01-glava-1/subindex.md): ст. 101–139 · 40 sections")
    assert " — ОСНОВЫ СТРОЯ · Оператор обязан обеспечить" in entries[1]  # the heading's text names the chapter
    assert not any(ln.startswith("- [ГЛАВА 1](/docs/laws/big/002-") for ln in lines)  # not listed twice
    assert "](/docs/laws/big/002-glava-1.md)" in pages["docs/laws/big/g01-glava-1/subindex.md"]


def test_the_corpus_tables_stay_within_the_budget_and_reach_every_section(corpus_shelf: Path) -> None:
    files = {
        str(p.relative_to(corpus_shelf)): p.read_text(encoding="utf-8")
        for p in corpus_shelf.rglob("*index.md")
        if ".git" not in p.parts
    }
    sizes = {path: len(text.encode("utf-8")) for path, text in files.items() if path != "index.md"}
    assert max(sizes.values()) <= tocpages.PAGE_BYTES, max(sizes, key=sizes.__getitem__)
    metas = shelf.metas(corpus_shelf)
    assert len(files) - 1 == sum(len(toc.render_subindexes(m)) for m in metas if m.entry.endswith("subindex.md"))
    reached = _reachable(files)
    assert {s.path for m in metas for s in m.sections} | {m.entry for m in metas} <= reached


def test_a_lead_in_or_a_note_on_the_sections_standing_is_not_its_gist() -> None:
    from docshelf.build.gist import gist

    text = "# 3.1 ACCESS CONTROL\n\nBasic Security Requirements:\n\n3.1.1 Limit system access to authorized users.\n"
    assert gist(text, "", ()) == "3.1.1 Limit system access to authorized users."
    assert gist("This section is normative.\n\nThe verifier SHALL reject the request.\n", "", ()) == (
        "The verifier SHALL reject the request."
    )
    assert gist("Requirements:\n", "", ()) == "Requirements:"  # nothing else: the lead-in is all there is


def test_parts_with_the_same_gist_are_one_line_and_the_title_is_printed_once() -> None:
    head = "SECURITY REQUIREMENTS NIST SP 800-53 ISO/IEC 27001"
    title = "Appendix D Mapping Tables"
    parts = tuple(
        _piece(i, f"{title} ({i}/4)", head if i > 1 else "Table D-1 maps the access control family")
        for i in range(1, 5)
    )
    text = toc.render_subindex(replace(_meta(0, 0), section_data=parts))
    lines = [ln for ln in text.splitlines() if head in ln]
    assert len(lines) == 1 and "[2/4]" in lines[0] and "[4/4]" in lines[0]
    doc = replace(_meta(0, 0), title=title, section_data=parts)
    page = toc.render_subindex(doc)
    assert sum(title in ln for ln in page.splitlines()) == 1  # the heading; the parts' line does not repeat it


def test_consecutive_sections_with_the_same_title_and_gist_are_one_line() -> None:
    head = "SECURITY REQUIREMENTS NIST SP 800-53 ISO/IEC 27001"
    gists = ["Table D-1: Mapping Access Control Requirements", head, head, head, "Table D-2: Mapping Awareness"]
    sections = tuple(_piece(n, "APPENDIX D", g, clause="Appendix D") for n, g in enumerate(gists, start=1))
    lines = toc.render_subindex(replace(_meta(0, 0), section_data=sections)).splitlines()
    (alike,) = [ln for ln in lines if head in ln]
    links = ", ".join(f"[{i}](/docs/laws/doc/{n:03d}.md)" for i, n in enumerate(range(2, 5), start=1))
    assert alike.startswith(f"- APPENDIX D ({links}): Appendix D · p. 2–4 · ") and alike.endswith(f" — {head}")
    assert sum(ln.startswith("- [APPENDIX D]") for ln in lines) == 2  # the two tables' own first pages
