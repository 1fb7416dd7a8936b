"""Generated documents of the families DocShelf meets beyond Russian laws (every word invented here).

* ``make_sp_pdf``: a NIST-like Special Publication without an outline: a printed table of contents
  with dot leaders, a three-line running header, a page number and a DOI line in small print on
  every page, a chapter heading split over two lines («2» / «Requirements»), a section whose number
  is missing from the text layer («General Requirements» for 2.1), numbered list items that look
  like short titles («3. Verification»), and security controls «AC-2 ACCOUNT MANAGEMENT» with
  enhancements «(1)».
* ``make_asvs_pdf``: an ASVS-like requirement table ruled only under its header row, one segment
  per column, continued on the next page; wrapped descriptions, level marks «✓» and CWE numbers.

Built on the page model of ``pdfgen`` (``_Flow`` lays out, ``_render`` paints).
"""

from __future__ import annotations

from pathlib import Path

from pdfgen import FONT, FONT_BOLD, _Flow, _render, _Rule, _Text, _width, register_fonts
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

SP_TITLE = "NIST Special Publication 800-999 Sample Guidelines for Testing Shelves"
SP_DOI = "This publication is available free of charge from: https://doi.org/10.6028/NIST.SP.800-999"
SP_CONTENTS = [
    ("1 Purpose", 1),
    ("1.1 Scope", 1),
    ("2 Requirements", 2),
    ("2.1 General Requirements", 2),
    ("2.2 Identity Resolution", 3),
    ("3 Security Controls", 4),
    ("3.1 Account Management", 4),
    ("4 References", 5),
]
_FILLER = (
    "The organization documents the procedure, reviews it at least annually and keeps the record of each "
    "review with the system documentation so that an assessor can follow every decision later."
)


def _sp_chrome(c: Canvas, number: int, total: int) -> None:
    width, height = A4
    c.setFont(FONT, 8)
    for n, line in enumerate(("NIST SP 800-999", "SAMPLE GUIDELINES:", "TESTING & VERIFICATION")):
        c.drawRightString(width - 60, height - 30 - 9 * n, line)
    if number > 2:  # the body's pages are numbered from 1
        c.setFont(FONT, 10)
        c.drawCentredString(width / 2, 40, str(number - 2))
    c.setFont(FONT, 6.5)
    c.drawCentredString(width / 2, 28, SP_DOI)


def _leader(flow: _Flow, title: str, page: int) -> None:
    size = 10.0
    room = flow.width - _width(title, FONT, size) - _width(f" {page}", FONT, size)
    dots = "." * int(room / _width(".", FONT, size))
    flow.paragraph(f"{title}{dots}{page}", size=size, indent=0, after=2)


def _heading(flow: _Flow, text: str, size: float = 12.0) -> None:
    flow.space(6)
    flow.paragraph(text, font=FONT_BOLD, size=size, indent=0, after=4, keep=2)


def _body(flow: _Flow, text: str) -> None:
    flow.paragraph(text, size=10, indent=0, after=6)


def _lay_sp() -> _Flow:
    flow = _Flow(left=72.0, right=60.0, top=80.0, bottom=70.0)
    flow.paragraph(SP_TITLE, font=FONT_BOLD, size=18, indent=0, after=12)
    _body(flow, "Joint Task Force of the Sample Institute. Published for the tests of DocShelf.")
    flow.new_page()
    _heading(flow, "Table of Contents")
    for title, page in SP_CONTENTS:
        _leader(flow, title, page)
    flow.new_page()
    _heading(flow, "1", 14)  # the number on its own line, the title below it
    _heading(flow, "Purpose", 14)
    _body(flow, "This publication gives sample guidelines. " + _FILLER)
    _heading(flow, "1.1 Scope")
    _body(flow, "The guidelines apply to every shelf of the sample agency. " + _FILLER)
    flow.new_page()
    _heading(flow, "2 Requirements", 14)
    _body(flow, "This section is normative.")
    _heading(flow, "General Requirements")  # «2.1» is not in the text layer
    _body(flow, "The following steps are performed in order:")
    for item in ("1. Resolution", "2. Validation", "3. Verification"):
        flow.paragraph(item, size=10, indent=18, after=2)
    _body(flow, "4. The CSP SHALL record every step in the audit log of the enrollment.")
    flow.new_page()
    _heading(flow, "2.2 Identity Resolution")
    _body(flow, "The CSP SHALL resolve the claimed identity to a single person. " + _FILLER)
    flow.new_page()
    _heading(flow, "3 Security Controls", 14)
    _body(flow, "The controls of this chapter are selected by the system owner. " + _FILLER)
    _heading(flow, "3.1 Account Management")
    _heading(flow, "AC-2 ACCOUNT MANAGEMENT", 10)
    _body(flow, "Control: The organization manages information system accounts. " + _FILLER)
    _body(flow, "Control Enhancements:")
    _body(flow, "(1) The organization employs automated mechanisms to support account management.")
    _body(flow, "(2) The information system automatically removes temporary accounts after a set period.")
    flow.new_page()
    _heading(flow, "4 References", 14)
    _body(flow, "Sample Institute, Guide to Sample Shelves, 2026. " + _FILLER)
    return flow


def make_sp_pdf(path: Path) -> Path:
    """A NIST-like SP (see the module docstring); no outline, the printed contents are its map."""
    register_fonts()
    meta = {"title": "", "author": "DocShelf test suite", "lang": "en-US"}
    path.write_bytes(_render(_lay_sp().pages, _sp_chrome, meta, outline=False))
    return path


ASVS_COLUMNS = (("#", 34.0), ("Description", 300.0), ("L1", 24.0), ("L2", 24.0), ("L3", 24.0), ("CWE", 34.0))
ASVS_ROWS = [
    ("2.1.1", "Verify that user set passwords are at least 12 characters in length after multiple spaces "
     "are combined.", "✓✓✓", "521"),
    ("2.1.2", "Verify that passwords of at least 64 characters are permitted, and that passwords of more "
     "than 128 characters are denied.", "✓✓✓", "521"),
    ("2.1.3", "Verify that password truncation is not performed.", "✓✓✓", "521"),
    ("2.1.4", "Verify that any printable Unicode character, including language neutral characters such as "
     "spaces and Emojis, is permitted in passwords.", "✓✓✓", "521"),
    ("2.2.1", "Verify that anti-automation controls are effective at mitigating breached credential "
     "testing, brute force, and account lockout attacks.", "✓✓✓", "307"),
    ("2.2.2", "Verify that the use of weak authenticators is limited to secondary verification.", " ✓✓", "304"),
]  # fmt: skip


def _asvs_header(flow: _Flow) -> None:
    x = flow.left
    flow.y -= 12
    for name, width in ASVS_COLUMNS:
        flow.add(_Text(x + 3, flow.y, name, FONT_BOLD, 9))
        x += width
    flow.y -= 4
    x = flow.left
    for _name, width in ASVS_COLUMNS:  # one rule segment per column, nothing else ruled
        flow.add(_Rule(x, flow.y, x + width, flow.y))
        x += width


def _asvs_row(flow: _Flow, number: str, text: str, marks: str, cwe: str) -> None:
    from pdfgen import wrap_text

    lines = wrap_text(text, FONT, 9, ASVS_COLUMNS[1][1] - 6)
    flow.y -= 4  # padding between rows
    top = flow.y
    x_marks = flow.left + sum(w for _n, w in ASVS_COLUMNS[:2])
    for n, line in enumerate(lines):
        flow.y -= 11
        if n == 0:
            flow.add(_Text(flow.left + 3, flow.y, number, FONT, 9))
            for k, mark in enumerate(marks):  # one character per level: «✓» or « » (not required)
                if mark.strip():
                    flow.add(_Text(x_marks + 24 * k + 8, flow.y, mark, FONT, 9))
            flow.add(_Text(x_marks + 72 + 6, flow.y, cwe, FONT, 9))
        flow.add(_Text(flow.left + ASVS_COLUMNS[0][1] + 3, flow.y, line, FONT, 9))
    flow.y = min(flow.y, top - 11) - 4


def make_asvs_pdf(path: Path) -> Path:
    """Two chapters of an ASVS-like standard; the second table starts on the next page under a repeated header."""
    register_fonts()
    flow = _Flow(left=60.0, right=60.0)
    _heading(flow, "V2 Authentication", 16)
    _body(flow, "Authentication is the act of establishing the authenticity of someone or something.")
    _heading(flow, "V2.1 Password Security", 13)
    _asvs_header(flow)
    for row in ASVS_ROWS[:4]:
        _asvs_row(flow, *row)
    flow.space(14)
    _body(flow, "Passwords are the most common authenticator of this standard.")
    flow.new_page()
    _heading(flow, "V2.2 General Authenticator Security", 13)
    _asvs_header(flow)
    for row in ASVS_ROWS[4:]:
        _asvs_row(flow, *row)
    flow.space(14)
    _body(flow, "References: the sample guidelines of the test suite.")
    meta = {"title": "Sample Verification Standard", "author": "DocShelf test suite", "lang": "en-US"}
    path.write_bytes(_render(flow.pages, lambda _c, _n, _t: None, meta, outline=False))
    return path


DECREE_ROWS = [
    ("1", "Руководитель департамента", "5500", "3,0"),
    ("2", "Заместитель руководителя департамента", "5200", "2,8"),
    ("3", "Консультант", "4150", "2,5"),
    ("4", "Главный специалист-эксперт отдела тестовых данных и их обезличивания", "4000", "2,3"),
    ("5", "Ведущий специалист-эксперт", "3700", "2,1"),
    ("6", "Специалист-эксперт", "3500", "1,9"),
    ("7", "Специалист 1 разряда", "3100", "1,6"),
    ("8", "Специалист 2 разряда", "2900", "1,4"),
]
_DECREE_COLUMNS = (0.0, 50.0, 280.0, 390.0)  # «№ п/п», position, salary, coefficient: x offsets, no rules


def _decree_row(flow: _Flow, cells: tuple[str, ...], font: str = FONT) -> None:
    from pdfgen import wrap_text

    wrapped = [wrap_text(c, font, 11, 200) if k == 1 else [c] for k, c in enumerate(cells)]
    flow.ensure(13 * max(len(w) for w in wrapped))
    for n in range(max(len(w) for w in wrapped)):
        flow.y -= 14
        for k, lines in enumerate(wrapped):
            if n < len(lines):
                flow.add(_Text(flow.left + _DECREE_COLUMNS[k], flow.y, lines[n], font, 11))
    flow.y -= 4


def make_decree_pdf(path: Path) -> Path:
    """A presidential decree whose annex holds an unruled salary table (columns by x-position only) that
    runs over a page break; row numbers stand where clause numbers would."""
    register_fonts()
    flow = _Flow()
    flow.paragraph("УКАЗ", font=FONT_BOLD, size=13, indent=0, align="center", after=2)
    flow.paragraph("ПРЕЗИДЕНТА РОССИЙСКОЙ ФЕДЕРАЦИИ", font=FONT_BOLD, size=13, indent=0, align="center", after=12)
    flow.paragraph("О размерах должностных окладов тестовых служащих", font=FONT_BOLD, indent=0, align="center")
    flow.space(8)
    flow.paragraph("1. Установить размеры должностных окладов тестовых служащих согласно приложению.")
    flow.paragraph("2. Настоящий Указ вступает в силу со дня его подписания.")
    flow.space(12)
    for line in ("Президент Российской Федерации А.Б.ТЕСТОВ", "Москва, Кремль", "1 февраля 2024 года", "№ 763"):
        flow.paragraph(line, size=10, indent=0, after=0)
    flow.new_page()
    for line in ("Приложение", "к Указу Президента", "Российской Федерации", "от 1 февраля 2024 г. № 763"):
        flow.paragraph(line, size=10, indent=0, align="right", after=0)
    flow.space(12)
    flow.paragraph("РАЗМЕРЫ ДОЛЖНОСТНЫХ ОКЛАДОВ ТЕСТОВЫХ СЛУЖАЩИХ", font=FONT_BOLD, indent=0, align="center")
    flow.space(8)
    flow.y = min(flow.y, 180.0)  # the table starts low, so its rows run over onto the next page
    _decree_row(flow, ("№ п/п", "Наименование должности", "Оклад (рублей)", "Коэффициент"), FONT_BOLD)
    for row in DECREE_ROWS:
        _decree_row(flow, row)
    flow.space(10)
    flow.paragraph("Оклады индексируются в порядке, установленном законодательством Российской Федерации.")
    meta = {"title": "", "author": "DocShelf test suite", "lang": "ru-RU"}
    path.write_bytes(_render(flow.pages, lambda _c, _n, _t: None, meta, outline=False))
    return path


METHODICAL_OUTLINE = [
    "I. Общие положения",
    "II. Порядок подготовки тестовых данных",
    "III. Работы и услуги по содержанию иного общего имущества в многоквартирном доме",
    "Приложение N 1",
]
_METHODICAL_TEXT = (
    "Настоящие методические рекомендации применяются при подготовке тестовых данных и описывают порядок "
    "действий оператора, состав документов и сроки их хранения."
)


def make_methodical_pdf(path: Path) -> Path:
    """Methodical recommendations: an outline, bold headings at body size, one of them over two lines
    («III. Работы и услуги по содержанию иного общего имущества» / «в многоквартирном доме»)."""
    register_fonts()
    flow = _Flow()
    flow.paragraph("МЕТОДИЧЕСКИЕ РЕКОМЕНДАЦИИ", font=FONT_BOLD, size=14, indent=0, align="center", after=2)
    flow.paragraph("по подготовке тестовых данных", font=FONT_BOLD, size=12, indent=0, align="center", after=12)
    for n, title in enumerate(METHODICAL_OUTLINE):
        if title.startswith("Приложение"):
            flow.new_page()
        flow.space(8)
        flow.mark(f"m-{n}", title, 0)
        if title.startswith("III."):  # the heading wraps: its second line is set apart like a new paragraph
            flow.paragraph("III. Работы и услуги по содержанию иного общего имущества", font=FONT_BOLD, indent=0)
            flow.paragraph("в многоквартирном доме", font=FONT_BOLD, indent=0, after=6)
        else:
            flow.paragraph(title, font=FONT_BOLD, indent=0, after=6)
        for k in range(1, 4):
            flow.paragraph(f"{k}. {_METHODICAL_TEXT} Раздел {n + 1}, пункт {k}.")
    meta = {"title": "", "author": "DocShelf test suite", "lang": "ru-RU"}
    path.write_bytes(_render(flow.pages, lambda _c, _n, _t: None, meta, outline=True))
    return path
