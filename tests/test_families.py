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
    (section,) = doc.meta["sections"]
    ids = [c[0] for c in section["clauses"]]
    assert ids == ["§1", "§1.1", "§2", "§2.1", "§2.2", "§3", "§3.1", "AC-2", "AC-2(1)", "AC-2(2)", "§4"]
    q = doc.meta["quality"]
    assert q["contents"] == {"source": "contents", "expected": 8, "found": 8, "share": 1.0, "missing": []}
    assert (q["furniture_lines"], q["false_headings"], q["warnings"]) == (0, [], [])
    text = doc.files[section["path"]]
    assert "## 2.1 General Requirements" in text  # the number from the printed contents
    assert "3. Verification" in text and "# 3. Verification" not in text  # a list item stays text
    assert "doi.org" not in text and "TESTING & VERIFICATION" not in text


def test_sp_split_at_its_own_sections(sp_pdf: Path) -> None:
    doc = _build(sp_pdf, split=True)
    sections = doc.meta["sections"]
    assert [s["clause"] for s in sections] == ["", "§1", "§2", "§3", "§4"]  # the title page, then the chapters
    assert [s["title"] for s in sections[1:]] == ["1 Purpose", "2 Requirements", "3 Security Controls", "4 References"]
    inner = {s["clause"]: [c[0] for c in s["clauses"]] for s in sections}
    assert inner["§2"] == ["§2", "§2.1", "§2.2"]
    assert inner["§3"] == ["§3", "§3.1", "AC-2", "AC-2(1)", "AC-2(2)"]


def test_asvs_requirement_rows_are_table_rows_and_clauses(asvs_pdf: Path) -> None:
    doc = _build(asvs_pdf)
    (section,) = doc.meta["sections"]
    requirements = [c[0] for c in section["clauses"] if c[0].startswith("V")]
    assert requirements == ["V2.1.1", "V2.1.2", "V2.1.3", "V2.1.4", "V2.2.1", "V2.2.2"]
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
    assert doc.meta["quality"]["unaligned_tables"] == 0
