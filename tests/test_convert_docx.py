"""DOCX converter: documents built with python-docx in memory, then the 152-ФЗ export from the corpus."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from lxml import etree

from docshelf.build.options import ShelfConfig
from docshelf.build.pipeline import DocOptions, build_document
from docshelf.convert.docx import convert_docx
from docshelf.errors import ConversionError, UnsupportedSourceError
from docshelf.model import Converted

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "ru-regulations"


def _save(document: object) -> bytes:
    out = io.BytesIO()
    document.save(out)  # type: ignore[attr-defined]
    return out.getvalue()


def _sample() -> bytes:
    d = docx.Document()
    d.core_properties.title = "Тестовый приказ"
    d.sections[0].header.paragraphs[0].text = "Документ предоставлен КонсультантПлюс"
    d.sections[0].footer.paragraphs[0].text = "Страница 1 из 1"
    d.add_heading("Глава 1. Общие положения", level=1)
    d.add_paragraph("Статья 1. Сфера действия", style=d.styles.add_style("Заголовок 2", WD_STYLE_TYPE.PARAGRAPH))
    d.add_paragraph().add_run("Жирный абзац целиком").bold = True
    partly = d.add_paragraph("Частично ")
    partly.add_run("жирный").bold = True
    for item in ("первый пункт", "второй пункт"):
        d.add_paragraph(item, style="List Number")
    table = d.add_table(rows=4, cols=3)
    for i, text in enumerate(("Код", "Мера", "Класс")):
        table.cell(0, i).text = text
    table.cell(1, 0).merge(table.cell(1, 2)).text = "I. Раздел | первый"
    table.cell(2, 0).merge(table.cell(3, 0)).text = "УПД.1"
    table.cell(2, 1).text = "Управление\nучетными записями"
    table.cell(2, 2).text = "+"
    table.cell(3, 1).text = "Вторая строка"
    note = d.add_table(rows=1, cols=3)
    note.cell(0, 1).text = "КонсультантПлюс: примечание."
    d.add_paragraph("Документ предоставлен КонсультантПлюс")
    inserted = d.add_paragraph("Статья 7")
    inserted.add_run("1").font.superscript = True
    inserted.add_run(". Водохозяйственные\tмероприятия")
    return _save(d)


@pytest.fixture(scope="module")
def sample() -> Converted:
    return convert_docx(_sample(), name="sample.docx")


def texts(result: Converted) -> list[str]:
    return [b.text for b in result.blocks]


def test_body_order_with_tables_interleaved(sample: Converted) -> None:
    assert [b.kind for b in sample.blocks] == [
        "heading", "heading", "para", "para", "para", "para", "table", "para", "para", "para",
    ]  # fmt: skip


def test_heading_styles_english_and_russian(sample: Converted) -> None:
    assert [(b.text, b.level) for b in sample.blocks if b.kind == "heading"] == [
        ("Глава 1. Общие положения", 1),
        ("Статья 1. Сфера действия", 2),
    ]


def test_bold_only_when_every_run_is_bold(sample: Converted) -> None:
    assert next(b for b in sample.blocks if b.text == "Жирный абзац целиком").bold
    assert not next(b for b in sample.blocks if b.text == "Частично жирный").bold


def test_automatic_numbers_are_written_out(sample: Converted) -> None:
    assert ["1. первый пункт", "2. второй пункт"] == texts(sample)[4:6]


def test_merged_cells_once_and_line_breaks(sample: Converted) -> None:
    table = next(b.text for b in sample.blocks if b.kind == "table")
    assert table == (
        "| Код | Мера | Класс |\n"
        "|---|---|---|\n"
        "| I. Раздел \\| первый |  |  |\n"
        "| УПД.1 | Управление<br>учетными записями | + |\n"
        "|  | Вторая строка |  |"
    )


def test_layout_table_and_body_notice_are_kept_as_paragraphs(sample: Converted) -> None:
    assert "КонсультантПлюс: примечание." in texts(sample)
    assert "Документ предоставлен КонсультантПлюс" in texts(sample)  # body text: a later pass decides


def test_header_and_footer_are_ignored(sample: Converted) -> None:
    assert texts(sample).count("Документ предоставлен КонсультантПлюс") == 1
    assert "Страница 1 из 1" not in texts(sample)


def test_superscript_after_a_digit_and_tabs(sample: Converted) -> None:
    assert texts(sample)[-1] == "Статья 7.1. Водохозяйственные мероприятия"


def test_title_and_metadata(sample: Converted) -> None:
    assert sample.title == "Тестовый приказ"
    assert sample.converter == "docshelf-docx"
    assert {b.page for b in sample.blocks} == {0}


_NUMBERING = """<w:abstractNum xmlns:w="{w}" w:abstractNumId="90">
<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2."/></w:lvl>
<w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="russianLower"/><w:lvlText w:val="%3)"/></w:lvl>
</w:abstractNum>"""


def test_multilevel_numbering_restarts_deeper_levels() -> None:
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    d = docx.Document()
    numbering = d.part.numbering_part.element
    numbering.insert(0, etree.fromstring(_NUMBERING.format(w=w)))
    numbering.append(etree.fromstring(f'<w:num xmlns:w="{w}" w:numId="77"><w:abstractNumId w:val="90"/></w:num>'))
    items = [
        ("Общие", 0),
        ("Термин", 1),
        ("Еще", 1),
        ("первый", 2),
        ("второй", 2),
        ("Раздел", 0),
        ("Термин", 1),
    ]
    for text, level in items:
        p = d.add_paragraph(text)
        p._p.get_or_add_pPr().append(
            etree.fromstring(f'<w:numPr xmlns:w="{w}"><w:ilvl w:val="{level}"/><w:numId w:val="77"/></w:numPr>')
        )
    assert texts(convert_docx(_save(d), name="n.docx")) == [
        "1. Общие", "1.1. Термин", "1.2. Еще", "а) первый", "б) второй", "2. Раздел", "2.1. Термин",
    ]  # fmt: skip


def test_a_list_that_names_a_list_style_is_numbered_by_the_styles_levels() -> None:
    """A template's lists name a list style («GSACtrlList») instead of levels of their own (``w:numStyleLink``);
    the levels are those of the abstract list linked to the style (``w:styleLink``): «(a)», «(1)», «(b)»."""
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    d = docx.Document()
    numbering = d.part.numbering_part.element
    styled = f"""<w:abstractNum xmlns:w="{w}" w:abstractNumId="91"><w:styleLink w:val="CtrlList"/>
<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="(%1)"/></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="(%2)"/></w:lvl>
</w:abstractNum>"""
    linked = f'<w:abstractNum xmlns:w="{w}" w:abstractNumId="92"><w:numStyleLink w:val="CtrlList"/></w:abstractNum>'
    numbering.insert(0, etree.fromstring(linked))
    numbering.insert(0, etree.fromstring(styled))
    numbering.append(etree.fromstring(f'<w:num xmlns:w="{w}" w:numId="78"><w:abstractNumId w:val="92"/></w:num>'))
    for text, level in (("Develops a policy;", 0), ("A policy that addresses purpose;", 1), ("Reviews it.", 0)):
        p = d.add_paragraph(text)
        p._p.get_or_add_pPr().append(
            etree.fromstring(f'<w:numPr xmlns:w="{w}"><w:ilvl w:val="{level}"/><w:numId w:val="78"/></w:numPr>')
        )
    assert texts(convert_docx(_save(d), name="n.docx")) == [
        "(a) Develops a policy;", "(1) A policy that addresses purpose;", "(b) Reviews it.",
    ]  # fmt: skip


def test_instances_of_one_list_go_on_with_its_count_unless_they_restart_it() -> None:
    """Word counts a list on its abstract definition: a second instance (numId) of it goes on («3.» after «2.»), an
    instance with a start override restarts where it first numbers the level («1.» again)."""
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    d = docx.Document()
    numbering = d.part.numbering_part.element
    numbering.insert(0, etree.fromstring(_NUMBERING.format(w=w)))
    numbering.append(etree.fromstring(f'<w:num xmlns:w="{w}" w:numId="81"><w:abstractNumId w:val="90"/></w:num>'))
    numbering.append(etree.fromstring(f'<w:num xmlns:w="{w}" w:numId="82"><w:abstractNumId w:val="90"/></w:num>'))
    restart = '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride>'
    numbering.append(
        etree.fromstring(f'<w:num xmlns:w="{w}" w:numId="83"><w:abstractNumId w:val="90"/>{restart}</w:num>')
    )
    for text, num in (("Один", 81), ("Два", 81), ("Три", 82), ("Снова", 83), ("Дальше", 83)):
        p = d.add_paragraph(text)
        p._p.get_or_add_pPr().append(
            etree.fromstring(f'<w:numPr xmlns:w="{w}"><w:ilvl w:val="0"/><w:numId w:val="{num}"/></w:numPr>')
        )
    assert texts(convert_docx(_save(d), name="n.docx")) == ["1. Один", "2. Два", "3. Три", "1. Снова", "2. Дальше"]


def test_without_a_title_property_the_title_is_the_first_title_like_line_else_the_file_name() -> None:
    d = docx.Document()
    d.add_paragraph("")
    d.add_paragraph("ПРИКАЗ о порядке")
    d.add_paragraph("Настоящий приказ устанавливает порядок приёма обращений.")
    assert convert_docx(_save(d), name="a.docx").title is None  # Word's property is empty
    built = build_document(_save(d), DocOptions(source="a.docx"), ShelfConfig())
    assert (built.title, built.meta.quality["title_source"]) == ("ПРИКАЗ о порядке", "document")
    assert not any(w.startswith("title:") for w in built.meta.quality["warnings"])

    untitled = docx.Document()
    untitled.core_properties.title = "Microsoft Word - prikaz_12.doc"  # what Word writes, not the title
    untitled.add_paragraph("Настоящий приказ устанавливает порядок приёма обращений.")
    untitled.add_paragraph("Обращения принимаются в письменной форме.")
    assert convert_docx(_save(untitled), name="prikaz_12.docx").title is None
    built = build_document(_save(untitled), DocOptions(source="prikaz_12.docx"), ShelfConfig())
    assert (built.title, built.meta.quality["title_source"]) == ("prikaz_12", "file name")
    assert any(w.startswith("title: ") and "--title" in w for w in built.meta.quality["warnings"])


def test_legacy_doc_is_unsupported() -> None:
    with pytest.raises(UnsupportedSourceError, match="save it as"):
        convert_docx(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512, name="old.docx")


def test_broken_files_are_refused() -> None:
    with pytest.raises(ConversionError, match=r"not a readable \.docx"):
        convert_docx(b"this is not a zip", name="bad.docx")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(ConversionError, match=r"not a readable \.docx"):
        convert_docx(buf.getvalue(), name="zip.docx")


def test_empty_body_is_refused() -> None:
    d = docx.Document()
    d.sections[0].header.paragraphs[0].text = "Только колонтитул"
    with pytest.raises(ConversionError, match="no text"):
        convert_docx(_save(d), name="empty.docx")


# --------------------------------------------------------------------------- the real corpus


@pytest.fixture(scope="module")
def law152() -> Converted:
    folder = CORPUS / "vladimir-chernikin__normative-docs-qa"
    files = sorted(folder.glob("*152-ФЗ*.docx")) if folder.exists() else []
    if not files:
        pytest.skip(f"corpus folder {folder} has no 152-ФЗ .docx")
    return convert_docx(files[0].read_bytes(), name=files[0].name)


def test_152_fz_articles(law152: Converted) -> None:
    articles = [b for b in law152.blocks if b.text.startswith("Статья ")]
    numbers = [b.text.split(".")[0] for b in articles]
    assert "Статья 19" in numbers and "Статья 25" in numbers
    assert len(articles) == 29  # 1…25 plus 10.1, 18.1, 22.1, 23.1
    assert all(b.kind == "heading" and b.level == 2 and b.bold for b in articles)
    assert any(t.startswith("Статья 19. Меры по обеспечению безопасности") for t in texts(law152))


def test_152_fz_title_and_editorial_text_left_for_later(law152: Converted) -> None:
    assert law152.title == 'Федеральный закон от 27.07.2006 N 152-ФЗ (ред. от 08.08.2024) "О персональных данных"'
    assert any("КонсультантПлюс: примечание." == t for t in texts(law152))
    assert not [t for t in texts(law152) if t.startswith("Страница ")]  # footer «Страница 5 из 5»
