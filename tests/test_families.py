"""Document families beyond Russian laws, on generated PDFs: a NIST-like SP and an ASVS-like standard."""

from __future__ import annotations

from pathlib import Path

import familygen
import pytest

from docshelf.build.options import ShelfConfig, SplitOptions
from docshelf.build.pipeline import BuiltDoc, DocOptions, build_document


def _build(path: Path, *, split: bool = False) -> BuiltDoc:
    config = ShelfConfig(split=SplitOptions(max_section_chars=2000, min_split_chars=200)) if split else ShelfConfig()
    return build_document(path.read_bytes(), DocOptions(source=path.name), config)


@pytest.fixture(scope="module")
def sp_pdf(gen_dir: Path) -> Path:
    return familygen.make_sp_pdf(gen_dir / "sp-800-999.pdf")


@pytest.fixture(scope="module")
def asvs_pdf(gen_dir: Path) -> Path:
    return familygen.make_asvs_pdf(gen_dir / "asvs-sample.pdf")


def test_sp_contents_entries_are_the_clauses_list_items_and_furniture_are_not(sp_pdf: Path) -> None:
    doc = _build(sp_pdf)
    (section,) = doc.meta.to_json()["sections"]
    ids = [c[0] for c in section["clauses"]]
    items = ["§2.1 item 1", "§2.1 item 2", "§2.1 item 3", "§2.1 item 4"]  # a list run into one paragraph
    assert ids == ["§1", "§1.1", "§2", "§2.1", *items, "§2.2", "§3", "§3.1", "AC-2", "AC-2(1)", "AC-2(2)", "§4"]
    q = doc.meta.to_json()["quality"]
    assert q["contents"] == {
        "source": "contents",
        "expected": 8,
        "found": 8,
        "share": 1.0,
        "missing": [],
        "unlisted": [],
    }
    assert (q["furniture_lines"], q["false_headings"], q["warnings"]) == (0, [], [])
    text = doc.files[section["path"]]
    assert "## 2.1 General Requirements" in text  # the number from the printed contents
    assert "3. Verification" in text and "# 3. Verification" not in text  # a list item stays text
    assert "doi.org" not in text and "TESTING & VERIFICATION" not in text


def test_sp_split_at_its_own_sections(sp_pdf: Path) -> None:
    doc = _build(sp_pdf, split=True)
    sections = doc.meta.to_json()["sections"]
    assert [s["clause"] for s in sections] == ["", "§1", "§2", "§3", "§4"]  # the title page, then the chapters
    assert [s["title"] for s in sections[1:]] == ["1 Purpose", "2 Requirements", "3 Security Controls", "4 References"]
    inner = {s["clause"]: [c[0] for c in s["clauses"]] for s in sections}
    assert inner["§2"] == ["§2", "§2.1", "§2.1 item 1", "§2.1 item 2", "§2.1 item 3", "§2.1 item 4", "§2.2"]
    assert inner["§3"] == ["§3", "§3.1", "AC-2", "AC-2(1)", "AC-2(2)"]


def test_asvs_requirement_rows_are_table_rows_and_clauses(asvs_pdf: Path) -> None:
    doc = _build(asvs_pdf)
    (section,) = doc.meta.to_json()["sections"]
    requirements = [c[0] for c in section["clauses"] if c[0].startswith("V")]
    # the chapters' headings «V2.1 Password Security», «V2.2 …» are addresses too, around their rows
    assert requirements == ["V2.1", "V2.1.1", "V2.1.2", "V2.1.3", "V2.1.4", "V2.2", "V2.2.1", "V2.2.2"]
    spans = {c[0]: (c[1], c[2]) for c in section["clauses"]}
    assert spans["V2.1"][0] < spans["V2.1.4"][0] < spans["V2.1"][1] <= spans["V2.2"][0]
    text = doc.files[section["path"]]
    assert text.count("| # | Description | L1 | L2 | L3 | CWE |") == 2  # one table per chapter
    assert (
        "| 2.1.1 | Verify that user set passwords are at least 12 characters in length after multiple spaces "
        "are combined. | ✓ | ✓ | ✓ | 521 |" in text
    )
    assert (
        "| 2.2.2 | Verify that the use of weak authenticators is limited to secondary verification. |  | ✓ | ✓ | 304 |"
        in text
    )
    assert doc.meta.to_json()["quality"]["unaligned_tables"] == 0


@pytest.fixture(scope="module")
def decree_pdf(gen_dir: Path) -> Path:
    return familygen.make_decree_pdf(gen_dir / "ukaz-763.pdf")


def test_decree_unruled_table_keeps_its_rows_across_the_page_break(decree_pdf: Path) -> None:
    doc = _build(decree_pdf)
    assert doc.meta.to_json()["id"] == "Указ № 763"  # from the signature block «1 февраля 2024 года № 763»
    (section,) = doc.meta.to_json()["sections"]
    text = doc.files[section["path"]]
    header = "| № п/п | Наименование должности | Оклад (рублей) | Коэффициент |"
    rows = [f"| {n} | {name} | {salary} | {k} |" for n, name, salary, k in familygen.DECREE_ROWS]
    table = "\n".join([header, "|---|---|---|---|", *rows])
    assert table in text  # one table, every figure in its row, the wrapped name whole
    assert section["pages"] == [1, 3]  # the table ran over onto the third page
    ids = [c[0] for c in section["clauses"]]
    assert ids[:2] == ["п. 1", "п. 2"] and not any(i.startswith(("п. 3", "п. 4", "п. 8")) for i in ids)


def test_bulleted_lists_laid_out_in_two_columns_are_not_tables() -> None:
    from docshelf.convert.columns import Cell, VisualRow, find_tables

    rows = [VisualRow((Cell(72, 76, "•"), Cell(90, 400, f"Item number {n} of the list."))) for n in range(5)]
    assert find_tables(rows) == []
    numbered = [
        VisualRow((Cell(72, 80, str(n)), Cell(90, 300, f"Row {n}"), Cell(320, 360, f"{n}00"))) for n in range(1, 5)
    ]
    (table,) = find_tables(numbered)
    assert table.rows[2] == ["3", "Row 3", "300"]


def test_methodical_recommendations_follow_their_outline(gen_dir: Path) -> None:
    doc = _build(familygen.make_methodical_pdf(gen_dir / "metod.pdf"), split=True)
    sections = doc.meta.to_json()["sections"]
    assert [s["title"] for s in sections[1:]] == familygen.METHODICAL_OUTLINE  # the wrapped heading joined
    assert [s["clause"] for s in sections[1:]] == ["разд. I", "разд. II", "разд. III", "прил. 1"]
    assert [c[0] for c in sections[3]["clauses"]] == ["разд. III", "п. 1", "п. 2", "п. 3"]
    assert doc.meta.to_json()["quality"]["contents"]["share"] == 1.0


def test_a_bold_heading_wrapped_onto_a_second_line_is_joined_without_an_outline() -> None:
    from docshelf.build.clean import clean
    from docshelf.build.structure import find_headings
    from docshelf.model import Block

    blocks = (
        Block("III. Работы и услуги по содержанию иного общего имущества", bold=True),
        Block("в многоквартирном доме", bold=True),
        Block("1. Работы выполняются ежемесячно."),
    )
    (heading,) = find_headings(clean(blocks))
    assert heading.text == "III. Работы и услуги по содержанию иного общего имущества в многоквартирном доме"


def test_requirements_numbered_in_three_levels_are_paragraphs_and_clauses(tmp_path: Path) -> None:
    """NIST SP 800-171 sets its requirements line after line with no gap between them («3.1.1 Limit …»
    «3.1.2 Limit …»): each is its own paragraph and clause («§3.1.2»), and a short one in sentence case
    («3.1.3 Limit unsuccessful logon attempts.») is not a heading."""
    familygen.register_fonts()
    flow = familygen._Flow(left=72.0, right=60.0, top=80.0, bottom=70.0)
    familygen._heading(flow, "3 The Requirements", 14)
    familygen._body(flow, "This chapter lists the security requirements. " * 3)
    familygen._heading(flow, "3.1 Access Control")
    familygen._body(flow, "Basic Security Requirements:")
    requirements = [
        "3.1.1 Limit system access to authorized users, processes acting on behalf of authorized users, or "
        "devices (including other systems).",
        "3.1.2 Limit system access to the types of transactions and functions that authorized users are "
        "permitted to execute.",
        "3.1.3 Limit unsuccessful logon attempts.",
        "3.1.4 Separate the duties of individuals to reduce the risk of malevolent activity without collusion.",
    ]
    for text in requirements:
        flow.paragraph(text, size=10, indent=0, after=0)
    familygen._heading(flow, "3.2 Awareness and Training")
    familygen._body(flow, "Ensure that managers are made aware of the security risks. " * 3)
    meta = {"title": "", "author": "DocShelf test suite", "lang": "en-US"}
    source = tmp_path / "requirements.pdf"
    source.write_bytes(familygen._render(flow.pages, familygen._sp_chrome, meta, outline=False))
    doc = build_document(source.read_bytes(), DocOptions(source=source.name), ShelfConfig())
    ids = [c.id for s in doc.meta.sections for c in s.clauses]
    assert [i for i in ids if i.startswith("§3.1")] == ["§3.1", "§3.1.1", "§3.1.2", "§3.1.3", "§3.1.4"]
    text = "".join(doc.files[s.path] for s in doc.meta.sections)
    assert "\n\n3.1.3 Limit unsuccessful logon attempts.\n\n" in text and "# 3.1.3" not in text
