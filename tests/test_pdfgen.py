"""Checks that the test-input generators produce what the converter tests rely on."""

from __future__ import annotations

import itertools
from pathlib import Path

import pymupdf
import pytest

try:
    import pdfgen
except ModuleNotFoundError:  # tests/ turned into a package: rootdir is on sys.path instead
    from tests import pdfgen

DEMO_PDF = Path(__file__).resolve().parents[1] / "docshelf" / "demo" / "zakon-o-testovyh-dannyh.pdf"
NBSP = "\u00a0"


@pytest.fixture(autouse=True, scope="module")
def _fonts() -> None:
    try:
        pdfgen.find_dejavu_fonts()
    except pdfgen.FontNotFound as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def regulation(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pdfgen.make_regulation_pdf(tmp_path_factory.mktemp("reg") / "law.pdf")


@pytest.fixture(scope="module")
def pages(regulation: Path) -> list[str]:
    with pymupdf.open(regulation) as doc:
        return [page.get_text() for page in doc]


def test_regulation_page_count_and_furniture(pages: list[str]) -> None:
    assert 6 <= len(pages) <= 8
    total = len(pages)
    for n, text in enumerate(pages, start=1):
        assert pdfgen.DOC_TITLE in text
        assert f"Страница {n} из {total}" in text
    assert "Статья 1." in pages[0]
    assert "Страница 1 из" in pages[0]


def test_regulation_structure(pages: list[str]) -> None:
    full = "\n".join(pages)
    for needle in ("Глава 1. Общие положения", "Статья 12.", "1)", "а)", "б)", "Приложение N 1", "1.2.1."):
        assert needle in full
    assert f"№{NBSP}999-ФЗ" in full
    assert all(word in full for word in ("учёт", "её", "защищённости"))


def test_regulation_superscript_article(regulation: Path) -> None:
    with pymupdf.open(regulation) as doc:
        spans = [
            span
            for page in doc
            for block in page.get_text("dict")["blocks"]
            for line in block.get("lines", [])
            for span in line["spans"]
        ]
    for before, sup in itertools.pairwise(spans):
        if before["text"].endswith("Статья 5") and sup["text"] == "1":
            assert sup["size"] < before["size"]
            assert sup["origin"][1] < before["origin"][1]  # raised (y grows downwards)
            return
    pytest.fail("no raised «1» after «Статья 5»")


def test_regulation_hyphenated_line_ends(pages: list[str]) -> None:
    pairs = set(pdfgen.iter_hyphenated_line_ends(pages))
    assert ("госу-", "дарственной") in pairs
    assert ("информаци-", "онной") in pairs
    assert (f"№{NBSP}152-", "ФЗ") in pairs or ("152-", "ФЗ") in pairs
    assert any(head == "интернет-" and tail.startswith("ресурс") for head, tail in pairs)


def test_regulation_table_crosses_page_break(pages: list[str]) -> None:
    first = next(i for i, text in enumerate(pages) if "ИАФ.1" in text)
    last = next(i for i, text in enumerate(pages) if "ЗИС.4" in text)
    assert "УЗ 3" in pages[first]
    assert last > first


def test_regulation_outline(regulation: Path, tmp_path: Path) -> None:
    with pymupdf.open(regulation) as doc:
        toc = doc.get_toc()
    titles = {title: level for level, title, _page in toc}
    assert titles["Глава 1. Общие положения"] == 1
    assert any(t.startswith("Статья 5¹.") and lvl == 2 for t, lvl in titles.items())
    bare = pdfgen.make_regulation_pdf(tmp_path / "bare.pdf", articles=3, outline=False)
    with pymupdf.open(bare) as doc:
        assert doc.get_toc() == []
        assert "Статья 4." not in "".join(page.get_text() for page in doc)


def test_regulation_is_deterministic(regulation: Path, tmp_path: Path) -> None:
    again = pdfgen.make_regulation_pdf(tmp_path / "again.pdf")
    assert again.read_bytes() == regulation.read_bytes()


def test_demo_pdf_matches_generator(regulation: Path) -> None:
    assert DEMO_PDF.is_file()
    assert DEMO_PDF.read_bytes() == regulation.read_bytes(), "run: python tests/make_demo_pdf.py"


def test_wrapper_uses_soft_hyphens_only_at_line_ends() -> None:
    pdfgen.register_fonts()
    text = f"информаци{pdfgen.SOFT}онной системы"
    assert pdfgen.wrap_text(text, pdfgen.FONT, 11, 400) == ["информационной системы"]
    assert pdfgen.wrap_text(text, pdfgen.FONT, 11, 80) == ["информаци-", "онной", "системы"]
    with pytest.raises(ValueError, match="MUST break"):
        pdfgen.wrap_text(f"интернет-{pdfgen.MUST_HARD}ресурс", pdfgen.FONT, 11, 400)


def test_english_manual(tmp_path: Path) -> None:
    path = pdfgen.make_english_manual_pdf(tmp_path / "manual.pdf")
    with pymupdf.open(path) as doc:
        texts = [page.get_text() for page in doc]
        sizes = {
            span["text"]: span["size"]
            for block in doc[0].get_text("dict")["blocks"]
            for line in block.get("lines", [])
            for span in line["spans"]
        }
    assert len(texts) == 2
    assert "1. Introduction" in texts[0] and "2.1 Installation" in texts[0]
    assert all(f"Page {n}" in text for n, text in enumerate(texts, start=1))
    assert sizes["1. Introduction"] > sizes["2.1 Installation"] > 11


def test_scanned_has_no_text_layer(tmp_path: Path) -> None:
    path = pdfgen.make_scanned_pdf(tmp_path / "scan.pdf")
    with pymupdf.open(path) as doc:
        assert doc.page_count == 2
        for page in doc:
            assert page.get_text().strip() == ""
            assert len(page.get_images()) == 1


def test_encrypted_needs_password(tmp_path: Path) -> None:
    path = pdfgen.make_encrypted_pdf(tmp_path / "locked.pdf")
    with pymupdf.open(path) as doc:
        assert doc.needs_pass
        assert doc.authenticate("secret")
        assert "Статья 1." in doc[0].get_text()


def test_truncated_is_forty_percent(tmp_path: Path) -> None:
    path = pdfgen.make_truncated_pdf(tmp_path / "cut.pdf")
    data = path.read_bytes()
    full = pdfgen._regulation_bytes(3, outline=False)
    assert data == full[: len(full) * 2 // 5]
    assert data.startswith(b"%PDF-") and b"%%EOF" not in data


def test_empty_pdf_has_one_blank_page(tmp_path: Path) -> None:
    path = pdfgen.make_empty_pdf(tmp_path / "empty.pdf")
    with pymupdf.open(path) as doc:
        assert doc.page_count == 1
        assert doc[0].get_text() == ""
        assert doc[0].get_images() == []


def test_long_regulation_100_pages_slow(tmp_path: Path) -> None:
    """The only test that builds the ~100-page benchmark document (about 2 s)."""
    path = pdfgen.make_long_regulation_pdf(tmp_path / "long.pdf")
    with pymupdf.open(path) as doc:
        assert doc.page_count >= 95
