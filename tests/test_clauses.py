"""Clause tables and citation resolution: the addresses verify_quote and fetch rely on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docshelf.build.pipeline import DocOptions
from docshelf.errors import CitationError, PathOutsideShelfError
from docshelf.law.clauses import section_clauses
from docshelf.shelf import gitrepo
from docshelf.shelf import store as shelf
from docshelf.text.citations import canonical_clause, resolve

ARTICLE = """# Статья 12. Трансграничная передача персональных данных

> 152-ФЗ · ст. 12

1. Трансграничная передача осуществляется в соответствии с законом.

2. Оператор обязан:

1) убедиться в защите прав;

а) в том;

б) в другом;

2) уведомить орган.

> (в ред. Федерального закона от 14.07.2022 N 266-ФЗ)

3. Третья часть.
"""


def _ids(md: str, clause: str, **kw: str) -> dict[str, str]:
    return {c.id: md[c.start : c.end] for c in section_clauses(md, clause, **kw)}  # type: ignore[arg-type]


def test_article_parts_items_subitems() -> None:
    ids = _ids(ARTICLE, "ст. 12")
    assert list(ids) == [
        "ст. 12",
        "ст. 12 ч. 1",
        "ст. 12 ч. 2",
        "ст. 12 ч. 2 п. 1",
        "ст. 12 ч. 2 п. 1 подп. «а»",
        "ст. 12 ч. 2 п. 1 подп. «б»",
        "ст. 12 ч. 2 п. 2",
        "ст. 12 ч. 3",
    ]
    assert ids["ст. 12 ч. 2 п. 1 подп. «б»"] == "б) в другом;"
    assert ids["ст. 12 ч. 2"].startswith("2. Оператор обязан:") and ids["ст. 12 ч. 2"].endswith("N 266-ФЗ)")
    assert ids["ст. 12 ч. 3"] == "3. Третья часть."


def test_points_of_an_approved_document_and_headings_inside() -> None:
    md = "# Требования\n\n1. Первый.\n\n1.1. Подпункт.\n\nа) буква.\n\n2. Второй.\n"
    assert list(_ids(md, "", approved="Требования")) == [
        "Требования п. 1",
        "Требования п. 1.1",
        "Требования п. 1.1 подп. «а»",
        "Требования п. 2",
    ]
    whole = "# Положение\n\n## 1. Общие\n\n1.1. Текст.\n\n## 2. Доступ\n\n2.1. Доступ.\n"
    assert list(_ids(whole, "")) == ["п. 1", "п. 1.1", "п. 2", "п. 2.1"]


def test_annex_measure_rows_and_rfc_sections() -> None:
    md = (
        "# Состав мер\n\n| Код | Мера | К1 |\n|---|---|---|\n"
        "| УПД.1 | Управление учетными записями | + |\n| УПД.2 | Модель | + |\n"
    )
    ids = _ids(md, "", annex="прил. 2")
    assert ids["прил. 2 УПД.1"] == "| УПД.1 | Управление учетными записями | + |"
    rfc = "# 4. Message Formats\n\nText.\n\n## 4.1. Message Header Format\n\nMore.\n"
    assert list(_ids(rfc, "§4", english="yes")) == ["§4", "§4.1"]


@pytest.mark.parametrize(
    ("ref", "clause"),
    [
        ("ст. 12 ч. 3", "ст. 12 ч. 3"),
        ("п. 1 ч. 2 ст. 12", "ст. 12 ч. 2 п. 1"),
        ("статья 19 часть 1", "ст. 19 ч. 1"),
        ("Требования п. 29 подп. «а»", "Требования п. 29 подп. «а»"),
        ("прил. 2 УПД.1", "прил. 2 УПД.1"),
        ("§4.2", "§4.2"),
        ("section 4.2", "§4.2"),
        ("п. 5 пп. 1", "п. 5 пп. 1"),
    ],
)
def test_canonical_clause(ref: str, clause: str) -> None:
    assert canonical_clause(ref, {"Требования"}) == clause


@pytest.fixture(scope="module")
def law_shelf(tmp_path_factory: pytest.TempPathFactory, regulation_pdf: Path) -> tuple[Path, str]:
    root = shelf.init(tmp_path_factory.mktemp("clauses") / "s")
    shelf.add(root, [regulation_pdf], DocOptions(source="", category="laws", id="999-ФЗ"), progress=lambda _m: None)
    return root, gitrepo.resolve(root)


@pytest.mark.parametrize(
    ("ref", "clause"),
    [
        ("999-ФЗ ст. 5 ч. 2 п. 1 подп. «б»", "ст. 5 ч. 2 п. 1 подп. «б»"),
        ("ст. 4 ч. 3 999-ФЗ", "ст. 4 ч. 3"),
        ("Федеральный закон № 999-ФЗ, статья 5.1, часть 1", "ст. 5.1 ч. 1"),
        ("ФЗ-999 ст. 9", "ст. 9"),
        ("999-ФЗ прил. 1 п. 1.2.1", "прил. 1 п. 1.2.1"),
    ],
)
def test_citations_resolve_on_a_built_shelf(law_shelf: tuple[Path, str], ref: str, clause: str) -> None:
    root, commit = law_shelf
    targets = resolve(root, ref, commit)
    assert {t.clause for t in targets} == {clause}
    text = gitrepo.read(root, targets[0].path, commit).decode("utf-8")
    assert text[targets[0].start : targets[0].end].strip()


def test_path_refs_and_errors(law_shelf: tuple[Path, str]) -> None:
    root, commit = law_shelf
    target = resolve(root, "999-ФЗ ст. 4 ч. 3", commit)[0]
    narrowed = resolve(root, f"{target.path}#ч. 3", commit)
    assert narrowed[0].clause == "ст. 4 ч. 3" and narrowed[0].start == target.start
    with pytest.raises(CitationError, match=r"Closest: ст\. 9"):
        resolve(root, "999-ФЗ ст. 99", commit)
    with pytest.raises(CitationError, match="No document on the shelf matches"):
        resolve(root, "123-ФЗ ст. 1", commit)
    with pytest.raises(CitationError, match="Empty reference"):
        resolve(root, "  ", commit)
    with pytest.raises(PathOutsideShelfError):
        resolve(root, "docs/../../etc/passwd.md", commit)


def test_list_items_under_an_unnumbered_heading_take_its_title_once() -> None:
    """A manual's numbered steps under a heading without a number are «‹heading› item N» — but only where
    the heading heads one place, and a list restarting under it gets no second «item 1»."""
    steps = "1. Unpack the archive into the server directory.\n\n2. Run the installer as the service user."
    text = f"# Install guide\n\n## Installing\n\n{steps}\n\nAfter a reboot:\n\n{steps}\n\n## Notes\n\n{steps}"
    text += f"\n\n## Notes\n\n{steps}\n"
    ids = [c.id for c in section_clauses(text, "", english=True, title="Install guide")]
    # «Installing», printed once, is a clause of its own around its items; «Notes», printed twice, is none.
    assert ids == ["«Installing»", "«Installing» item 1", "«Installing» item 2"]
    # The section's own heading, when no other section is headed so, qualifies items before any inner heading.
    alone = [c.id for c in section_clauses(f"# Upgrading\n\n{steps}\n", "", english=True, title="Upgrading")]
    assert alone == ["«Upgrading» item 1", "«Upgrading» item 2"]
    # A numbered section's items keep its number; a Russian text's points are points, not titled items.
    assert [c.id for c in section_clauses(f"# 4.2 Steps\n\n{steps}\n", "§4.2", english=True, title="")][1:] == [
        "§4.2 item 1",
        "§4.2 item 2",
    ]
    russian = "# Порядок\n\n1. Распаковать архив в каталог сервера.\n\n2. Запустить установку от имени службы.\n"
    assert not any(c.id.startswith("«") for c in section_clauses(russian, "", title="Порядок"))


_ISO_ANNEX = """# Information security management systems — Requirements

## 1 Scope

This document specifies the requirements for establishing an information security management system.

## Annex A (normative) Reference control objectives and controls

| A.5 | Information security policies | |
|---|---|---|
| A.5.1 | Management direction for information security | Objective: To provide management direction. |
| A.5.1.1 | Policies | Control: A set of policies for information security shall be defined, approved by management. |
| A.5.1.2 | Review of the policies | Control: The policies shall be reviewed at planned intervals. |
| A.6 | Organization of information security | |
| A.6.1 | Internal organization | Objective: To establish a management framework. |
| A.6.1.1 | Information security roles | Control: All responsibilities shall be defined and allocated. |

## Annex B (informative) Correspondence with other standards

| A.9.2.3 | Management of privileged access rights | AC-6, AC-2 |
|---|---|---|
"""


def test_an_annexs_table_of_controls_is_its_clauses_and_a_mapping_tables_ids_are_not(new_shelf: Path) -> None:
    """ISO/IEC 27001 prints Annex A as a table: «| A.5.1.1 | Policies … | Control: … |». Each row is the
    control's clause (nested A.5 ⊃ A.5.1 ⊃ A.5.1.1), cited with or without its annex, in English or Russian;
    a row of another annex listing «A.9.2.3» maps a control and is none of this document's."""
    from docshelf.text.verify import verify_quote

    src = new_shelf.parent / "iso.md"
    src.write_text(_ISO_ANNEX, encoding="utf-8")
    shelf.add(new_shelf, [src], DocOptions("", "iso", "ISO/IEC 27001:2013"), progress=lambda _m: None)
    quote = "A set of policies for information security shall be defined, approved by management"
    for ref in ("A.5.1.1", "Annex A A.5.1.1", "Annex A, control A.5.1.1", "прил. A п. A.5.1.1", "A.5.1", "A.5"):
        got = verify_quote(new_shelf, quote, f"ISO/IEC 27001:2013 {ref}")
        assert (got.verdict, got.level, got.fetch_ref) == ("ok", "clause", "ISO/IEC 27001:2013 §A.5.1.1"), ref
    assert verify_quote(new_shelf, quote, "ISO/IEC 27001:2013 A.5.1.2").verdict == "wrong_clause"
    assert verify_quote(new_shelf, quote, "ISO/IEC 27001:2013 A.6").verdict == "wrong_clause"
    assert verify_quote(new_shelf, quote, "ISO/IEC 27001:2013 Annex B A.5.1.1").verdict == "unknown_ref"
    with pytest.raises(CitationError):
        resolve(new_shelf, "ISO/IEC 27001:2013 A.9.2.3", gitrepo.resolve(new_shelf))
    # The address measure reads the table's rows: seven controls printed and addressed; the mapping row is none.
    meta = json.loads((new_shelf / "docs/iso/iso-iec-27001-2013.meta.json").read_text(encoding="utf-8"))
    addresses = meta["quality"]["addresses"]
    assert (addresses["printed"], addresses["addressed"]) == (8, 8)  # and the heading «1 Scope»
