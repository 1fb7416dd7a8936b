"""DocShelf's PDF extractor + cleaning on generated Russian regulations, and refused bad PDFs."""

from __future__ import annotations

import importlib.util
from itertools import pairwise
from pathlib import Path

import pdfgen
import pymupdf
import pytest

from docshelf.build.clean import clean
from docshelf.build.structure import find_headings
from docshelf.convert import convert, detect_format, ocr
from docshelf.convert.pdf import convert_pdf, garbled_share
from docshelf.errors import ConversionError, MissingDependencyError, NoTextLayerError, UnsupportedSourceError
from docshelf.model import Block


@pytest.fixture(scope="module")
def blocks(regulation_pdf: Path) -> tuple[Block, ...]:
    return clean(convert_pdf(regulation_pdf.read_bytes(), name="regulation.pdf").blocks)


@pytest.fixture(scope="module")
def text(blocks: tuple[Block, ...]) -> str:
    return "\n".join(b.text for b in blocks)


def test_every_article_is_a_heading(blocks: tuple[Block, ...]) -> None:
    numbers = [h.number for h in find_headings(blocks) if h.kind == "statya"]
    assert numbers == ["1", "2", "3", "4", "5", "5.1", "6", "7", "8", "9", "10", "11", "12"]
    glavy = [h.text for h in find_headings(blocks) if h.kind == "glava"]
    assert glavy[0] == "Глава 1. Общие положения" and len(glavy) == 4


def test_wrapped_article_heading_is_one_block(blocks: tuple[Block, ...]) -> None:
    titles = [h.text for h in find_headings(blocks)]
    assert "Статья 1. Предмет регулирования и сфера действия настоящего Федерального закона" in titles


def test_running_header_and_footer_removed(text: str) -> None:
    assert "Страница" not in text
    assert text.count("«О защите тестовых данных»") == 1  # the title stays, the running header goes


def test_hyphenation_repaired_real_hyphens_kept(text: str) -> None:
    assert "№ 152-ФЗ" in text
    assert "интернет-ресурс" in text
    assert "государственной" in text and "госу-" not in text
    assert "информационной" in text and "информаци-" not in text
    assert "персональных" in text


def test_superscript_article_number(text: str) -> None:
    assert "Статья 5.1. Особенности обработки" in text
    assert "Статья 51" not in text


def test_yo_and_nbsp(text: str) -> None:
    assert "учёт" in text.lower()
    assert "\u00a0" not in text


def test_table_across_page_break_is_one_table_with_one_header(blocks: tuple[Block, ...]) -> None:
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1
    rows = tables[0].text.split("\n")
    assert rows[0] == "| Мера | УЗ 1 | УЗ 2 | УЗ 3 |"
    assert sum(1 for r in rows if r.startswith("| Мера")) == 1
    assert rows[2].startswith("| ИАФ.1 ") and rows[-1].startswith("| ЗИС.4 ")
    assert len(rows) == 2 + 33


def test_english_manual_headings(manual_pdf: Path) -> None:
    bl = clean(convert_pdf(manual_pdf.read_bytes(), name="manual.pdf").blocks)
    heads = [h.text for h in find_headings(bl)]
    assert "1. Introduction" in heads and "2.1 Installation" in heads and "3.2 Backups" in heads
    assert not any(b.text.startswith("Page ") for b in bl)


@pytest.mark.parametrize(
    ("maker", "error", "words"),
    [
        (pdfgen.make_scanned_pdf, NoTextLayerError, "tesseract-ocr-rus"),
        (pdfgen.make_empty_pdf, NoTextLayerError, "no text layer"),
        (pdfgen.make_encrypted_pdf, ConversionError, "encrypted"),
        (pdfgen.make_truncated_pdf, ConversionError, "corrupt or truncated"),
    ],
)
def test_bad_pdfs_refused_with_advice(gen_dir: Path, maker, error, words, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(ocr, "ocr_languages", lambda: "")  # as on a machine without Tesseract
    path = maker(gen_dir / f"{maker.__name__}.pdf")
    with pytest.raises(error) as info:
        convert(path.read_bytes(), name=path.name)
    assert words in str(info.value)


@pytest.mark.skipif(not ocr.ocr_languages().startswith("rus"), reason="Tesseract with Russian is not installed")
def test_scanned_pages_are_read_by_ocr_when_tesseract_is_installed(gen_dir: Path) -> None:
    path = pdfgen.make_scanned_pdf(gen_dir / "scan-ocr.pdf")
    converted = convert(path.read_bytes(), name=path.name)
    text = "\n".join(b.text for b in clean(converted.blocks))
    assert "Статья 1" in text and "тестовых данных" in text
    assert converted.warnings and "OCR" in converted.warnings[0]


def test_garbled_text_layer_detected() -> None:
    assert garbled_share("На8<5=>ва=85 ABа=4а@Bа " * 30) > 0.5
    assert garbled_share("Оператор обязан принимать меры по защите персональных данных " * 10) == 0
    assert garbled_share('<xsd:element name="af" type="xsd:integer"/> struct { opaque x<0..255>; } ' * 10) < 0.2


def test_format_detection() -> None:
    assert detect_format("x.bin", b"%PDF-1.7 ...") == "pdf"
    assert detect_format("law.html", b"<html>") == "html"
    with pytest.raises(UnsupportedSourceError, match="not a PDF"):
        detect_format("law.pdf", b"<html>error page</html>")
    with pytest.raises(UnsupportedSourceError, match="unsupported file type"):
        detect_format("image.png", b"\x89PNG")


def test_stdout_stays_clean(regulation_pdf: Path, capfd: pytest.CaptureFixture[str]) -> None:
    convert_pdf(regulation_pdf.read_bytes(), name="regulation.pdf")
    assert capfd.readouterr().out == ""


def test_quality_high_without_marker_names_the_extra(regulation_pdf: Path) -> None:
    import importlib.util

    from docshelf.errors import MissingDependencyError

    if importlib.util.find_spec("marker") is not None:
        pytest.skip("marker-pdf is installed here")
    with pytest.raises(MissingDependencyError, match=r"docshelf\[marker\]"):
        convert(regulation_pdf.read_bytes(), name="regulation.pdf", quality="high")


def test_layout_engine_is_selectable(regulation_pdf: Path) -> None:
    if importlib.util.find_spec("pymupdf4llm") is None:
        with pytest.raises(MissingDependencyError, match=r"docshelf\[layout\]"):  # the extra's own clear error
            convert(regulation_pdf.read_bytes(), name="regulation.pdf", pdf_engine="layout")
        pytest.skip("the layout engine is the docshelf[layout] extra; not installed here")
    bl = clean(convert(regulation_pdf.read_bytes(), name="regulation.pdf", pdf_engine="layout").blocks)
    numbers = [h.number for h in find_headings(bl) if h.kind == "statya"]
    assert {"1", "2", "12"} <= set(numbers)
    assert "Страница" not in "\n".join(b.text for b in bl)


def test_a_metadata_title_with_a_line_break_is_one_line_on_the_shelf() -> None:
    """A PDF whose metadata title breaks its line («…оформления"\\n(введен в действие …)», a ConsultantPlus
    export) and whose first page sets no title: the line break would cut the entry in index.md in two."""
    import pymupdf

    from docshelf.build.options import ShelfConfig
    from docshelf.build.pipeline import DocOptions, build_document

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "The standard sets out the general requirements for reports.", fontsize=11)
    page.insert_text((72, 90), "It applies to every research report.", fontsize=11)
    doc.set_metadata({"title": 'GOST 7.32-2017. Research report"\n(in force from 01.07.2018)'})
    built = build_document(doc.tobytes(), DocOptions(source="gost.pdf"), ShelfConfig())
    assert built.title == 'GOST 7.32-2017. Research report" (in force from 01.07.2018)'


@pytest.mark.parametrize("placeholder", ["Microsoft Word - 152-fz.doc", "Untitled-1", "prikaz.pdf", "Документ1"])
def test_a_placeholder_metadata_title_is_not_the_title_and_the_file_name_says_so(placeholder: str) -> None:
    import pymupdf

    from docshelf.build.options import ShelfConfig
    from docshelf.build.pipeline import DocOptions, build_document

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "The standard sets out the general requirements for reports.", fontsize=11)
    doc.set_metadata({"title": placeholder})
    assert convert(doc.tobytes(), name="scan-0041.pdf").title is None
    built = build_document(doc.tobytes(), DocOptions(source="scan-0041.pdf"), ShelfConfig())
    assert (built.title, built.meta.quality["title_source"]) == ("scan-0041", "file name")
    assert [w for w in built.meta.quality["warnings"] if w.startswith("title: ")]


def _boxed_page_pdf(paragraphs: list[str]) -> bytes:
    """A page printed from a web page with its layout boxes: a ruled 3×2 grid whose one cell holds the text."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    xs, ys = (40.0, 480.0, 555.0), (40.0, 70.0, 760.0, 800.0)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]))
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    page.insert_text((46, 60), "Text", fontsize=10)
    page.insert_textbox(pymupdf.Rect(46, 76, 474, 754), "\n\n".join(paragraphs), fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


def test_a_page_printed_inside_its_layout_boxes_is_read_as_text_not_as_a_table() -> None:
    """EUR-Lex printed from a browser draws the page's layout boxes: one «cell» holds the whole page. It is
    running text (articles, paragraphs), not a one-cell table; a real table keeps its cells."""
    from docshelf.convert.tables import _frame

    sentence = "The provider shall keep the technical documentation at the disposal of the national authorities"
    paragraphs = ["Article 1", "Subject matter", *(f"{n}. {sentence} for {n} years." for n in range(1, 9))]
    converted = convert(_boxed_page_pdf(paragraphs), name="boxed.pdf")
    texts = [b.text for b in converted.blocks]
    assert not any(b.kind == "table" for b in converted.blocks), texts[:3]
    assert "Article 1" in texts and any(t.startswith("3. The provider shall keep") for t in texts)
    assert not _frame([["Control", "Statement"], ["AC-2", " ".join([sentence] * 3)], ["AC-3", sentence]])


def test_a_running_title_on_the_page_numbers_row_is_furniture_even_on_its_one_page() -> None:
    """A Sphinx manual prints the section's title beside the page number in its footer («1.4. The Domain
    Name System (DNS)   3»): a section of two pages has it once, so no repetition gives it away; its place
    on the folio's row does. A body line that starts the same way stays."""
    doc = pymupdf.open()
    footers = [("1.4. The Domain Name System (DNS)", "3"), ("4", "Chapter 1. Introduction"), ("3.3. Operations", "5")]
    for n, (left, right) in enumerate(footers):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 100), f"1.4. The Domain Name System (DNS) is described on page {n + 3} in full.")
        page.insert_text((72, 120), "The name server answers queries for the zones it is authoritative for.")
        page.insert_text((72, 750), left, fontsize=9)
        page.insert_text((500, 750), right, fontsize=9)
    texts = [b.text for b in convert(doc.tobytes(), name="manual.pdf").blocks]
    assert not any(
        t in texts for t in ("1.4. The Domain Name System (DNS)", "Chapter 1. Introduction", "3.3. Operations")
    )
    assert sum(t.startswith("1.4. The Domain Name System (DNS) is described") for t in texts) == 3


def test_list_labels_drawn_apart_from_their_lines_are_put_back_at_their_starts() -> None:
    """A Word-made contract draws its list labels «A.» «B.» «C.» before the paragraphs they head: each label
    goes back to the start of the line on its row, so «C.» opens its item (and is no roman division 100)."""
    from docshelf.law.grammar import HEADING

    items = ["Licensee may analyze the licensed products.", "Licensee shall not copy the products.", "All"]
    items[2] = "All changes to this Agreement shall be in writing and signed by both parties."
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 90), "7. General", fontsize=11)
    for n in range(3):
        page.insert_text((72, 120 + 30 * n), f"{'ABC'[n]}.", fontsize=10)  # the labels first, all of them
    for n, text in enumerate(items):
        page.insert_text((90, 120 + 30 * n), text, fontsize=10)
    texts = [b.text for b in convert(doc.tobytes(), name="contract.pdf").blocks]
    assert [t for t in texts if t[:2] in {"A.", "B.", "C."}] == [f"{'ABC'[n]}. {items[n]}" for n in range(3)]
    assert "A." not in texts and HEADING["roman"].heading.match(f"C. {items[2]}") is None


def _shaded_table_pdf() -> bytes:
    """A Word table whose cells are shaded grey and whose paragraphs are shaded again line by line (Word
    draws both), with thin black rules between its rows."""
    doc = pymupdf.open()
    grey = (0.95, 0.95, 0.95)
    xs, ys = (40.0, 200.0, 380.0, 555.0), (60.0, 140.0, 220.0)
    lines = [
        [
            ["Define Security Requirements (PO.1): Ensure", "that requirements are known at all times."],
            ["PO.1.1: Identify and document all", "security requirements for the organization."],
            ["Example 1: Define policies for", "securing the development infrastructure."],
        ],
        [
            ["", ""],
            ["PO.1.2: Identify and document all", "requirements for the software it develops."],
            ["Example 2: Review the requirements", "at least annually or after an incident."],
        ],
    ]
    page = doc.new_page(width=595, height=842)
    page.insert_text((40, 40), "Table 1: The Secure Software Development Framework", fontsize=10)
    for r, (top, bottom) in enumerate(pairwise(ys)):
        for c, (left, right) in enumerate(pairwise(xs)):
            page.draw_rect(pymupdf.Rect(left, top, right, bottom), color=None, fill=grey)
            for k, text in enumerate(lines[r][c]):  # the paragraph's own shading, one box a line
                y = top + 12 * k  # from the cell's top rule down, one box touching the next
                page.draw_rect(pymupdf.Rect(left + 4, y, right - 4, y + 12), color=None, fill=grey)
                page.insert_text((left + 5, y + 9), text, fontsize=8)
    for y in ys:
        page.draw_rect(pymupdf.Rect(xs[0], y - 0.25, xs[-1], y + 0.25), color=None, fill=(0, 0, 0))
    for x in xs:
        page.draw_rect(pymupdf.Rect(x - 0.25, ys[0], x + 0.25, ys[-1]), color=None, fill=(0, 0, 0))
    data = doc.tobytes()
    doc.close()
    return data


def test_a_cells_line_by_line_shading_rules_nothing() -> None:
    """Boxes filled with a cell's own colour inside that cell are invisible: they cut no rows or columns."""
    converted = convert(_shaded_table_pdf(), name="ssdf.pdf")
    tables = [b.text for b in converted.blocks if b.kind == "table"]
    assert len(tables) == 1
    rows = [r for r in tables[0].splitlines() if not r.startswith("|---")]
    assert rows == [
        "| Define Security Requirements (PO.1): Ensure that requirements are known at all times. "
        "| PO.1.1: Identify and document all security requirements for the organization. "
        "| Example 1: Define policies for securing the development infrastructure. |",
        "|  | PO.1.2: Identify and document all requirements for the software it develops. "
        "| Example 2: Review the requirements at least annually or after an incident. |",
    ]


def _lines_pdf(lines: list[str], *, font: str = "", step: float = 14.0, gap_before: int = -1) -> bytes:
    """One page with ``lines`` set under each other at the margin, in DejaVu (``font`` «dejavu» or «dejavub») or
    the built-in Helvetica; ``gap_before``: the index of a line set after a blank line's worth of space."""
    files = dict(zip(("dejavu", "dejavub"), map(str, pdfgen.find_dejavu_fonts()), strict=True))
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for n, line in enumerate(lines):
        y = 100 + step * n + (20 if 0 <= gap_before <= n else 0)
        page.insert_text((72, y), line, fontsize=10, **({"fontname": font, "fontfile": files[font]} if font else {}))
    data: bytes = doc.tobytes()
    return data


def test_an_item_followed_by_the_next_of_its_list_ends_whatever_joins_them() -> None:
    """«1) … criteria; and» / «2) criteria for …» and «(1) …, and» / «(2) Will not …» set line under line with no gap
    or indent: each item is a paragraph of its own. A sentence enumerating inline whose next point a line break
    set at the margin («either (a) originated the route, or» / «(b) created …») stays one paragraph."""
    lines = [
        "The organization shall define and apply a risk assessment process that:",
        "1) establishes and maintains the risk acceptance criteria; and",
        "2) criteria for performing information security risk assessments.",
        "(1) Is not a significant regulatory action under Executive Order 12866, and",
        "(2) Will not affect intrastate aviation in Alaska, and",
        "If the other speaker either (a) originated the route, or",
        "(b) created the route by aggregation, it is the local AS.",
    ]
    texts = [b.text for b in convert(_lines_pdf(lines, gap_before=5), name="items.pdf").blocks]
    assert "1) establishes and maintains the risk acceptance criteria; and" in texts, texts
    assert "2) criteria for performing information security risk assessments." in texts
    assert "(2) Will not affect intrastate aviation in Alaska, and" in texts
    assert any(
        t.endswith("(a) originated the route, or (b) created the route by aggregation, it is the local AS.")
        for t in texts
    )


def test_a_point_glued_to_its_first_word_opens_its_paragraph_after_a_one_line_point() -> None:
    """«3.2.1.Анализ документации …» under a one-line «3.2. …», line under line with no gap or indent: the glued
    number opens a paragraph as «3.2.1. Анализ» does (it was run into the point before and no clause)."""
    lines = [
        "3.2. Оценка включает следующие этапы, выполняемые последовательно.",
        "3.2.1.Анализ документации, в ходе которого изучаются исходные данные.",
        "3.2.2.Проверка реализации мер защиты информации на объекте оценки.",
    ]
    texts = [b.text for b in convert(_lines_pdf(lines, font="dejavu"), name="metodika.pdf").blocks]
    assert texts == lines, texts


def test_a_bold_heading_and_its_first_child_set_line_under_line_are_two_headings() -> None:
    """«7 Требования к процессу управления доступом» and «7.1 Общие требования» in bold on consecutive lines: the
    child's number opens a heading of its own (they were one heading «7 … 7.1 Общие требования»); a bold title
    wrapped onto a second line stays one."""
    lines = ["7 Требования к процессу управления доступом", "7.1 Общие требования", "8 Требования к процессу"]
    lines += ["регистрации событий"]
    texts = [b.text for b in convert(_lines_pdf(lines, font="dejavub"), name="gost.pdf").blocks]
    assert texts[:3] == [lines[0], lines[1], "8 Требования к процессу регистрации событий"], texts
    # a contents page's bold entries end with their page: they are no headings, and stay as they were read
    toc = _lines_pdf(["2 Audience 9", "3 AI Risks and Trustworthiness 12"], font="dejavub")
    assert [b.text for b in convert(toc, name="toc.pdf").blocks] == ["2 Audience 9 3 AI Risks and Trustworthiness 12"]


def test_the_next_id_of_a_series_opens_its_paragraph_whatever_line_ended_the_one_before() -> None:
    """«REQ-SYS-020 The GCS shall …» / «Verification: T» / «REQ-SYS-021 The GCS shall …» set line under line: the next
    id of the series the paragraph opened with is a paragraph of its own (the line before ended no sentence, and
    requirement 021 was filed in 020: its text proven under the wrong id)."""
    lines = [
        "REQ-SYS-020 The GCS shall archive every telemetry frame it receives.",
        "Verification: T",
        "REQ-SYS-021 The GCS shall time-tag every frame with the station time.",
        "Verification: A",
    ]
    texts = [b.text for b in convert(_lines_pdf(lines, step=12), name="srs.pdf").blocks]
    assert texts == [f"{lines[0]} {lines[1]}", f"{lines[2]} {lines[3]}"], texts


def test_a_short_line_ending_a_sentence_and_the_next_back_at_the_margin_are_two_paragraphs() -> None:
    """«e) procedures for handling exemptions to the policy.» (an item indented, stopping short) and «Topic-specific
    policies can be issued …» back at the margin: the paragraph after a list is no longer the last item's text; a
    paragraph's indented first line that happens to end a sentence still goes on at the margin."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((70, 100), "e) procedures for handling exemptions and exceptions to the policy.", fontsize=10)
    wide = "Topic-specific policies can be issued for access control, physical security and the asset management."
    page.insert_text((60, 114), wide, fontsize=10)
    first = "1. The operator keeps the register of every processing operation in the organization."
    page.insert_text((85, 160), first, fontsize=10)
    page.insert_text(
        (60, 174), "It reviews the register every year and records each review in the same register.", fontsize=10
    )
    texts = [b.text for b in convert(doc.tobytes(), name="items.pdf").blocks]
    assert texts[:2] == ["e) procedures for handling exemptions and exceptions to the policy.", wide], texts
    assert texts[2].startswith(first) and texts[2].endswith("in the same register."), texts


def test_a_line_ending_inside_an_open_bracket_goes_on_on_the_next() -> None:
    """SP 800-53 rev. 5 wraps «3. [Assignment:» / «organization-defined time period] when …» with the continuation
    indented: the colon inside the bracket ends no sentence, and the item stays one paragraph (its halves were two,
    and the next item ran into the second)."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((80, 100), "3. Notify account managers within [Assignment:", fontsize=10)
    page.insert_text((95, 112), "organization-defined time period] when users are transferred; and", fontsize=10)
    page.insert_text(
        (80, 124), "4. Review the accounts for compliance with the account management requirements.", fontsize=10
    )
    texts = [b.text for b in convert(doc.tobytes(), name="catalog.pdf").blocks]
    assert texts[0] == (
        "3. Notify account managers within [Assignment: organization-defined time period] when users are "
        "transferred; and"
    ), texts
    assert texts[1].startswith("4. Review the accounts")


def test_an_items_line_stopping_a_little_short_before_a_paragraph_at_the_margin_ends_the_item() -> None:
    """ISO 27002 «d) all personnel who use the organization's information and other associated assets.» stops some
    five characters short of the line under it, «Individuals with an allocated information security role …», set back
    at the margin: the paragraph is not the item's (its hanging label tells an item's line from a first line)."""
    item = "d) all personnel who use the organization's information and other associated assets."
    after = "Individuals with an allocated information security role can assign security tasks to others, but they"
    width = pymupdf.get_text_length(after, fontsize=10) + 60 - (pymupdf.get_text_length(item, fontsize=10) + 70)
    assert 40 < width < 80  # shorter than the line under it by less than 8 font sizes
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((70, 100), item, fontsize=10)
    page.insert_text((60, 114), after, fontsize=10)
    page.insert_text((60, 128), "they remain accountable for the tasks they delegate.", fontsize=10)
    texts = [b.text for b in convert(doc.tobytes(), name="iso.pdf").blocks]
    assert texts[0] == item and texts[1].startswith("Individuals with an allocated"), texts
