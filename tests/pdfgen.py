"""Deterministic generators of test-input PDFs for DocShelf.

Every public ``make_*`` function writes one PDF to the given path and returns that path. The
documents imitate what the converter meets in the wild (Russian regulations typeset in Word and
exported to PDF, an English manual, scans, broken files) but every word of them is invented here.

Layout is done by hand instead of with reportlab's platypus so that we control each line break:
the converter's de-hyphenation has to be tested on *known* line ends («госу-»/«дарственной» must
be joined, «152-»/«ФЗ» must keep its hyphen), and the page furniture (header, «Страница N из M»)
must be exactly predictable. The pipeline is two-pass: ``_Flow`` lays out pure data (pages of
draw operations), then ``_render`` paints them, which is how the total page count M is known
before the first footer is drawn.
"""

from __future__ import annotations

import io
import itertools
import os
import random
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

__all__ = [
    "DOC_TITLE",
    "MANUAL_TITLE",
    "FontNotFound",
    "find_dejavu_fonts",
    "iter_hyphenated_line_ends",
    "make_empty_pdf",
    "make_encrypted_pdf",
    "make_english_manual_pdf",
    "make_long_regulation_pdf",
    "make_regulation_pdf",
    "make_scanned_pdf",
    "make_truncated_pdf",
    "register_fonts",
    "wrap_text",
]

NBSP = "\u00a0"
#: Running header of the regulation (and its PDF /Title). Note the NBSP after «№».
DOC_TITLE = f"Федеральный закон от 01.02.2024 №{NBSP}999-ФЗ «О защите тестовых данных»"

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"

# Markers understood by the line wrapper (never reach the PDF):
SOFT = "\u00ad"  # optional hyphenation point: used only if the word falls at a line end
# The two MUST markers are ordinary break opportunities for the wrapper, but the wording around
# them has been tuned so that the line boundary naturally falls inside that word (lines stay
# full, as a word processor would set them); ``wrap_text`` raises if that ever stops being true.
MUST_SOFT = "\x1e"  # hyphen is *added* at the break: «госу-»/«дарственной» (joined without «-»)
MUST_HARD = "\x1f"  # break right after a real hyphen: «152-»/«ФЗ» (the «-» must be kept)

# Words that Word would hyphenate; applied to the whole body text so that natural line ends
# produce soft hyphenation too, not just the forced cases.
_HYPHENATION = {
    "государственн": f"госу{SOFT}дарственн",
    "информационн": f"информаци{SOFT}онн",
    "персональных": f"персо{SOFT}нальных",
    "предусмотренн": f"предусмот{SOFT}ренн",
    "идентификаци": f"идентифи{SOFT}каци",
    "конфиденциальност": f"конфиденци{SOFT}альност",
    "обезличивани": f"обезли{SOFT}чивани",
}


# --------------------------------------------------------------------------------------------
# Fonts
# --------------------------------------------------------------------------------------------


class FontNotFound(FileNotFoundError):
    """DejaVu fonts are missing; tests should ``pytest.skip`` on this instead of failing."""


_DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


def find_dejavu_fonts() -> tuple[Path, Path]:
    """Return (regular, bold) DejaVu Sans paths.

    Looks in ``$DOCSHELF_FONT_DIR`` (escape hatch for non-Debian machines), the Debian/Ubuntu
    location, then anywhere under /usr/share/fonts (Fedora and Arch use other sub-folders).
    """
    candidates: list[Path] = []
    if env := os.environ.get("DOCSHELF_FONT_DIR"):
        candidates.append(Path(env))
    candidates.append(_DEJAVU_DIR)
    for folder in candidates:
        paths = tuple(folder / name for name in _FONT_FILES)
        if all(p.is_file() for p in paths):
            return paths[0], paths[1]
    root = Path("/usr/share/fonts")
    found = {p.name: p for p in sorted(root.rglob("DejaVuSans*.ttf"))} if root.is_dir() else {}
    if all(name in found for name in _FONT_FILES):
        return found[_FONT_FILES[0]], found[_FONT_FILES[1]]
    raise FontNotFound(
        "DejaVuSans.ttf / DejaVuSans-Bold.ttf not found: install fonts-dejavu-core "
        "or point DOCSHELF_FONT_DIR at a folder containing them"
    )


def register_fonts() -> None:
    """Register DejaVu Sans (regular, bold) with reportlab; raises ``FontNotFound``."""
    # reportlab's font registry is process-global; registering twice is harmless but slow.
    if FONT in pdfmetrics.getRegisteredFontNames():
        return
    for name, file in zip((FONT, FONT_BOLD), find_dejavu_fonts(), strict=True):
        font = TTFont(name, str(file))
        # A private-use alias of the NBSP glyph, see _keep_nbsp().
        font.face.charToGlyph[ord(_NBSP_ALIAS)] = font.face.charToGlyph[0xA0]
        font.face.charWidths[ord(_NBSP_ALIAS)] = font.face.charWidths[0xA0]
        pdfmetrics.registerFont(font)


# reportlab encodes U+00A0 as a plain space (ttfonts maps 0xA0 to 32 so that word spacing works),
# which would erase every NBSP from the text layer. Word-exported PDFs do carry U+00A0, and the
# converter has to normalise it, so we draw NBSP as a private-use alias of the same glyph and
# map the alias back to U+00A0 in the font's ToUnicode CMap while the file is written.
_NBSP_ALIAS = "\ue0a0"


def _pdf_text(text: str) -> str:
    return text.replace(NBSP, _NBSP_ALIAS)


@contextmanager
def _keep_nbsp() -> Iterator[None]:
    original = ttfonts.makeToUnicodeCMap

    def to_unicode(fontname: str, subset: list[int]) -> str:
        return str(original(fontname, [0xA0 if code == ord(_NBSP_ALIAS) else code for code in subset]))

    ttfonts.makeToUnicodeCMap = to_unicode
    try:
        yield
    finally:
        ttfonts.makeToUnicodeCMap = original


def _width(text: str, font: str, size: float) -> float:
    return float(pdfmetrics.stringWidth(text, font, size))


# --------------------------------------------------------------------------------------------
# Line wrapping
# --------------------------------------------------------------------------------------------


_BREAKS = {SOFT: "-", MUST_SOFT: "-", MUST_HARD: ""}  # break marker -> what the line end shows


def _clean(word: str) -> str:
    for marker in _BREAKS:
        word = word.replace(marker, "")
    return word


def _soft_split(word: str, room: float, font: str, size: float) -> tuple[str, str, str] | None:
    """Split ``word`` at its rightmost break marker whose left part (plus «-») fits in ``room``.

    Returns (line-end piece, rest of the word, marker used).
    """
    for i in reversed([i for i, ch in enumerate(word) if ch in _BREAKS]):
        head = _clean(word[:i]) + _BREAKS[word[i]]
        if _width(head, font, size) <= room:
            return head, word[i + 1 :], word[i]
    return None


def wrap_text(text: str, font: str, size: float, width: float, first_width: float | None = None) -> list[str]:
    """Greedy wrapper: split on spaces (NBSP keeps words together), break words only at markers.

    Lines ending in «-» are exactly the hyphenated line ends the PDF will contain. Raises
    ``ValueError`` if a ``MUST_*`` break point did not land at a line end, so an edit of the text
    cannot silently lose one of the line-end cases the converter tests rely on.
    """
    lines: list[str] = []
    line = ""
    limit = width if first_width is None else first_width
    queue = text.split(" ")

    def join(a: str, b: str) -> str:
        return f"{a} {b}" if a else b

    must_used = 0
    while queue:
        word = queue.pop(0)
        candidate = join(line, _clean(word))
        if _width(candidate, font, size) <= limit:
            line = candidate
            continue
        room = limit - _width(join(line, "x"), font, size) + _width("x", font, size)
        split = _soft_split(word, room, font, size)
        if split:
            must_used += split[2] != SOFT
            lines.append(join(line, split[0]))
            line, limit = "", width
            queue.insert(0, split[1])
        elif line:
            lines.append(line)
            line, limit = "", width
            queue.insert(0, word)
        else:  # a single word wider than the column: let it overflow rather than loop
            line = candidate
    if line:
        lines.append(line)
    if must_used != text.count(MUST_SOFT) + text.count(MUST_HARD):
        raise ValueError(f"a MUST break point is not at a line end, retune the wording: {_clean(text)!r}")
    return lines


def _hyphenate(text: str) -> str:
    for plain, marked in _HYPHENATION.items():
        text = text.replace(plain, marked)
    return text


# --------------------------------------------------------------------------------------------
# Layout (pass 1): pure data
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Text:
    x: float
    y: float
    text: str
    font: str
    size: float


@dataclass(frozen=True)
class _Rule:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class _Mark:
    key: str
    title: str
    level: int
    y: float


_Op = _Text | _Rule | _Mark
#: (text, font, size, rise) — a run drawn before the first wrapped line (e.g. «Статья 5¹.»).
_Span = tuple[str, str, float, float]


@dataclass
class _Flow:
    """A cursor running down A4 pages; produces ``pages`` (lists of draw ops)."""

    left: float = 85.0  # 3 cm, the usual left margin of Russian official documents
    right: float = 42.5
    top: float = 57.0
    bottom: float = 57.0
    pages: list[list[_Op]] = field(default_factory=list)
    y: float = 0.0

    def __post_init__(self) -> None:
        self.new_page()

    @property
    def width(self) -> float:
        return float(A4[0]) - self.left - self.right

    def new_page(self) -> None:
        self.pages.append([])
        self.y = A4[1] - self.top

    def ensure(self, height: float) -> None:
        if self.y - height < self.bottom:
            self.new_page()

    def space(self, height: float) -> None:
        self.y -= height

    def add(self, op: _Op) -> None:
        self.pages[-1].append(op)

    def paragraph(
        self,
        text: str,
        *,
        font: str = FONT,
        size: float = 11.0,
        leading: float | None = None,
        indent: float = 35.0,
        align: str = "left",
        prefix: Iterable[_Span] = (),
        after: float = 3.0,
        keep: int = 1,
    ) -> None:
        """Lay out one paragraph. ``keep`` lines must fit before the first is placed."""
        leading = leading or size * 1.23
        spans = list(prefix)
        pre_w = sum(_width(t, f, s) for t, f, s, _ in spans)
        gap = _width(" ", font, size) if spans and text else 0.0
        first = self.width - indent - pre_w - gap
        lines = wrap_text(text, font, size, self.width, first) if text else [""]
        self.ensure(leading * min(keep, len(lines)))
        for n, line in enumerate(lines):
            self.ensure(leading)
            self.y -= leading
            x = self.left + (indent if n == 0 else 0.0)
            if n == 0:
                for t, f, s, rise in spans:
                    self.add(_Text(x, self.y + rise, t, f, s))
                    x += _width(t, f, s)
                x += gap
            x = self._align(x, line, font, size, align)
            self.add(_Text(x, self.y, line, font, size))
        self.y -= after

    def _align(self, x: float, line: str, font: str, size: float, align: str) -> float:
        if align == "center":
            return self.left + (self.width - _width(line, font, size)) / 2
        if align == "right":
            return self.left + self.width - _width(line, font, size)
        return x

    def mark(self, key: str, title: str, level: int) -> None:
        """Bookmark the current position (top of the next thing laid out)."""
        self.add(_Mark(key, title, level, self.y + 12))

    def table(self, widths: list[float], header: list[str], rows: list[list[str]], size: float = 9.5) -> None:
        """A ruled grid; rows never split, the grid simply continues on the next page."""
        self._row(widths, header, FONT_BOLD, size, top_rule=True)
        for row in rows:
            self._row(widths, row, FONT, size, top_rule=False)
        self.y -= 6

    def _row(self, widths: list[float], cells: list[str], font: str, size: float, *, top_rule: bool) -> None:
        pad, leading = 3.0, size * 1.25
        wrapped = [wrap_text(_hyphenate(c), font, size, w - 2 * pad) for c, w in zip(cells, widths, strict=True)]
        height = max(len(w) for w in wrapped) * leading + 2 * pad
        top_before = self.y
        self.ensure(height)
        # A row that moved to a new page needs its own top rule; so does the header row.
        if top_rule or self.y != top_before:
            self.add(_Rule(self.left, self.y, self.left + sum(widths), self.y))
        x = self.left
        for lines, w in zip(wrapped, widths, strict=True):
            for i, line in enumerate(lines):
                # Level columns («+») are centred, the measure column is left-aligned.
                lx = x + pad if w > 100 else x + (w - _width(line, font, size)) / 2
                self.add(_Text(lx, self.y - pad - (i + 1) * leading + 2.5, line, font, size))
            self.add(_Rule(x, self.y, x, self.y - height))
            x += w
        self.add(_Rule(x, self.y, x, self.y - height))
        self.y -= height
        self.add(_Rule(self.left, self.y, x, self.y))


# --------------------------------------------------------------------------------------------
# Rendering (pass 2)
# --------------------------------------------------------------------------------------------

_Chrome = Callable[[Canvas, int, int], None]


def _render(pages: list[list[_Op]], chrome: _Chrome, meta: dict[str, str], *, outline: bool) -> bytes:
    """Paint laid-out pages. ``invariant=1`` fixes dates and /ID so the bytes are reproducible."""
    register_fonts()
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1, pageCompression=1, lang=meta.get("lang"))
    c.setTitle(meta["title"])
    c.setAuthor(meta["author"])
    c.setSubject(meta.get("subject", ""))
    c.setCreator("DocShelf tests/pdfgen.py")
    c.setLineWidth(0.5)
    total = len(pages)
    for number, ops in enumerate(pages, start=1):
        chrome(c, number, total)
        for op in ops:
            if isinstance(op, _Text):
                c.setFont(op.font, op.size)
                c.drawString(op.x, op.y, _pdf_text(op.text))
            elif isinstance(op, _Rule):
                c.line(op.x1, op.y1, op.x2, op.y2)
            elif outline:
                c.bookmarkPage(op.key, fit="XYZ", top=op.y)
                c.addOutlineEntry(op.title, op.key, level=op.level, closed=False)
        c.showPage()
    if outline:
        c.showOutline()
    with _keep_nbsp():  # fonts and their CMaps are written during save()
        c.save()
    return buf.getvalue()


def _regulation_chrome(c: Canvas, number: int, total: int) -> None:
    width, height = A4
    c.setFont(FONT, 8)
    c.drawCentredString(width / 2, height - 32, _pdf_text(DOC_TITLE))
    c.line(85, height - 37, width - 42.5, height - 37)
    c.drawCentredString(width / 2, 28, f"Страница {number} из {total}")


def _manual_chrome(c: Canvas, number: int, total: int) -> None:
    c.setFont(FONT, 8)
    c.drawCentredString(A4[0] / 2, 28, f"Page {number}")


# --------------------------------------------------------------------------------------------
# The regulation's content
# --------------------------------------------------------------------------------------------
#
# Written in a tiny markup so the prose stays readable and within the line-length limit:
#   «# title» starts a chapter, «## 5¹ | title» an article; blocks are separated by blank lines
#   and their lines are joined with spaces; «[таблица 1]» places the measure matrix;
#   «~» is a MUST_SOFT break, «-|» a MUST_HARD one; every «№ » becomes «№» + NBSP.

TABLE = "[таблица 1]"

_LAW = """
# Общие положения

## 1 | Предмет регулирования и сфера действия настоящего Федерального закона

1. Настоящий Федеральный закон регулирует отношения, возникающие при создании, обработке, хранении
и уничтожении тестовых данных, используемых при разработке, испытаниях и вводе в эксплуатацию
информационных систем, в том числе государственных информационных систем и муниципальных
информационных систем.

2. Действие настоящего Федерального закона распространяется на отношения, связанные с обработкой
тестовых данных, сформированных на основе персональных данных, с учётом особенностей, установленных
в отношении таких данных Федеральным законом от 27 июля 2006 года № 152-|ФЗ «О персональных данных».

3. Действие настоящего Федерального закона не распространяется на отношения, возникающие при:

1) обработке тестовых данных физическими лицами исключительно для личных и семейных нужд;

2) использовании синтетических тестовых данных, не содержащих сведений, позволяющих прямо или
косвенно определить физическое или юридическое лицо;

3) формировании, хранении и использовании сведений, отнесённых в установленном порядке
к государственной тайне.

## 2 | Основные понятия, используемые в настоящем Федеральном законе

Для целей настоящего Федерального закона используются следующие основные понятия:

1) тестовые данные — любая информация, используемая для проверки функционирования информационной
системы, программы для электронных вычислительных машин или базы данных до её ввода в эксплуатацию
либо при её модернизации;

2) синтетические тестовые данные — тестовые данные, полученные путём генерации без использования
сведений о конкретных физических или юридических лицах;

3) оператор тестовых данных (далее — оператор) — государственный орган, муниципальный орган,
юридическое или физическое лицо, самостоятельно или совместно с другими лицами организующие и (или)
осуществляющие обработку тестовых данных, а также определяющие цели и состав такой обработки;

4) обезличивание тестовых данных — действия, в результате которых становится невозможным без
использования дополнительной информации определить принадлежность тестовых данных конкретному
субъекту;

5) стенд — совокупность программных и технических средств, предназначенная для проведения испытаний
информационной системы и изолированная от её промышленной эксплуатации;

6) учёт тестовых данных — систематизированная фиксация сведений о составе, источниках, местах
хранения и сроках использования тестовых данных.

## 3 | Принципы обработки тестовых данных

1. Обработка тестовых данных осуществляется на основе следующих принципов:

1) законность целей и способов обработки тестовых данных;

2) соответствие объёма и содержания тестовых данных заявленным целям испытаний;

3) приоритет использования синтетических тестовых данных перед данными, сформированными на основе
сведений о реальных субъектах;

4) недопустимость объединения баз тестовых данных, созданных для несовместимых между собой целей;

5) ограниченность срока хранения тестовых данных сроком проведения испытаний, если иное не
предусмотрено федеральным законом.

2. Оператор обязан обеспечивать соблюдение принципов, указанных в части 1 настоящей статьи, на всех
этапах жизненного цикла информационной системы.

# Порядок обработки тестовых данных

## 4 | Условия создания и использования тестовых данных

1. Создание тестовых данных на основе сведений, содержащихся в информационной системе, находящейся
в промышленной эксплуатации, допускается при одновременном соблюдении следующих условий:

1) наличие утверждённой оператором программы и методики испытаний, определяющей состав необходимых
тестовых данных;

2) проведение обезличивания тестовых данных до их передачи на стенд;

3) назначение лица, ответственного за учёт тестовых данных.

2. Передача тестовых данных третьим лицам допускается только на основании договора, существенным
условием которого является обязанность третьего лица обеспечивать конфиденциальность и безопасность
таких данных.

3. Оператор вправе создать отдельный специализированный интернет-|ресурс, предназначенный для
размещения синтетических тестовых данных, доступных неограниченному кругу лиц. Порядок ведения
такого ресурса определяется оператором с учётом требований, установленных Правительством
Российской Федерации.

## 5 | Обезличивание тестовых данных

1. Обезличивание тестовых данных осуществляется одним из следующих методов:

1) метод замены идентификаторов, при котором сведения, позволяющие определить субъекта, заменяются
условными обозначениями;

2) метод изменения состава или семантики, при котором сведения обобщаются, исключаются или
изменяются;

3) метод декомпозиции, при котором множество данных разделяется на несколько подмножеств
с раздельным хранением;

4) метод перемешивания, при котором отдельные значения атрибутов переставляются между записями.

2. Выбор метода обезличивания осуществляется оператором с учётом:

1) характеристик тестовых данных, в том числе:

а) объёма и структуры тестовых данных;

б) требований к сохранению статистических свойств исходных сведений;

в) возможности повторного установления принадлежности тестовых данных;

2) условий проведения испытаний, включая состав лиц, допущенных к работе на стенде.

3. Требования к методам обезличивания тестовых данных устанавливаются федеральным органом
исполнительной власти, уполномоченным в области обеспечения безопасности информации.

## 5¹ | Особенности обработки тестовых данных в государственных информационных системах
и муниципальных информационных системах

1. Тестовые данные, сформированные на основе сведений, содержащихся в государственных
информационных системах, подлежат обязательному обезличиванию до начала предварительных испытаний
госу~дарственной информационной системы и не могут использоваться для иных целей, кроме проведения
таких испытаний.

2. Государственные органы и органы местного самоуправления ежегодно, не позднее 1 марта,
представляют в уполномоченный орган сведения о созданных ими тестовых данных, а также об их
уничтожении.

3. Использование тестовых данных, указанных в части 1 настоящей статьи, на стендах, размещённых
за пределами территории Российской Федерации, не допускается.

## 6 | Учёт тестовых данных

1. Оператор осуществляет учёт тестовых данных в журнале, который ведётся в электронной форме либо
на бумажном носителе.

2. В журнале учёта тестовых данных указываются:

1) наименование информационной системы, для испытаний которой созданы тестовые данные;

2) источник тестовых данных и применённый метод обезличивания;

3) место хранения тестовых данных, включая сведения о стенде;

4) сроки использования тестовых данных и дата их уничтожения;

5) фамилия, имя, отчество (при наличии) лица, ответственного за учёт.

3. Журнал учёта тестовых данных хранится не менее трёх лет со дня внесения в него последней записи.
Оператор обеспечивает неизменность внесённых в него сведений и её подтверждение при проверке.

## 7 | Хранение и уничтожение тестовых данных

1. Тестовые данные хранятся на стендах, доступ к которым предоставляется только лицам, включённым
в утверждённый оператором перечень.

2. По завершении испытаний тестовые данные подлежат уничтожению в срок, не превышающий тридцати
календарных дней, если иное не предусмотрено договором, стороной которого является оператор.

3. Уничтожение тестовых данных подтверждается актом, требования к содержанию которого установлены
приложением N 1 к настоящему Федеральному закону. Акт хранится вместе с журналом учёта тестовых
данных.

# Обеспечение безопасности тестовых данных

## 8 | Меры по обеспечению безопасности тестовых данных при их обработке в информационных системах

1. Оператор при обработке тестовых данных обязан принимать необходимые правовые, организационные
и технические меры для защиты тестовых данных от неправомерного или случайного доступа к ним,
уничтожения, изменения, блокирования, копирования, предоставления, распространения, а также от иных
неправомерных действий.

2. Обеспечение безопасности тестовых данных достигается, в частности:

1) определением угроз безопасности тестовых данных при их обработке, включая угрозы, связанные
с действиями работников оператора и третьих лиц, допущенных к работе со стендом и испытываемой
информаци~онной системе;

2) применением средств защиты информации, прошедших в установленном порядке процедуру оценки
соответствия;

3) обнаружением фактов несанкционированного доступа к тестовым данным и принятием мер по их
устранению;

4) контролем за принимаемыми мерами по обеспечению безопасности тестовых данных.

3. Состав мер по обеспечению безопасности тестовых данных для каждого из уровней защищённости (УЗ)
приведён в таблице 1. Знак «+» означает, что мера подлежит обязательной реализации для
соответствующего уровня защищённости.

[таблица 1]

## 9 | Уровни защищённости тестовых данных

1. Устанавливаются три уровня защищённости тестовых данных. Первый уровень является наивысшим.

2. Первый уровень защищённости (УЗ 1) устанавливается в отношении тестовых данных, сформированных
на основе специальных категорий персональных данных или сведений, содержащихся в государственных
информационных системах.

3. Второй уровень защищённости (УЗ 2) устанавливается в отношении тестовых данных, сформированных
на основе иных сведений о субъектах и не прошедших обезличивание в полном объёме.

4. Третий уровень защищённости (УЗ 3) устанавливается в отношении обезличенных тестовых данных
и синтетических тестовых данных, предоставляемых ограниченному кругу лиц.

5. Уровень защищённости определяется оператором в акте, утверждаемом до начала испытаний,
и пересматривается при изменении состава тестовых данных.

## 10 | Государственный контроль (надзор) за обработкой тестовых данных

1. Государственный контроль (надзор) за соблюдением требований настоящего Федерального закона
осуществляется уполномоченным федеральным органом исполнительной власти.

2. Предметом государственного контроля (надзора) является соблюдение оператором:

1) требований к созданию, учёту и уничтожению тестовых данных;

2) мер по обеспечению безопасности тестовых данных, предусмотренных статьёй 8 настоящего
Федерального закона;

3) требований к обезличиванию тестовых данных, установленных в соответствии с частью 3 статьи 5
настоящего Федерального закона.

# Заключительные положения

## 11 | Ответственность за нарушение требований настоящего Федерального закона

Лица, виновные в нарушении требований настоящего Федерального закона, несут предусмотренную
законодательством Российской Федерации ответственность.

## 12 | Вступление в силу настоящего Федерального закона

1. Настоящий Федеральный закон вступает в силу с 1 сентября 2024 года.

2. Операторы, осуществлявшие обработку тестовых данных до дня вступления в силу настоящего
Федерального закона, обязаны привести её в соответствие с его требованиями до 1 марта 2025 года.
"""

# Measure × protection-level matrix (invented wording in the style of security orders):
# «CODE | measure; measure; …» — rows are numbered CODE.1, CODE.2, … in order.
_MEASURES = """
ИАФ | идентификация и аутентификация пользователей, являющихся работниками оператора;
идентификация и аутентификация устройств, подключаемых к стенду; управление учётными записями
внешних пользователей; управление средствами аутентификации, включая хранение и смену паролей;
защита обратной связи при вводе аутентификационной информации
УПД | управление учётными записями пользователей; реализация ролевого метода разграничения доступа;
разделение полномочий администраторов стенда; ограничение неуспешных попыток входа; блокирование
сеанса после установленного периода бездействия; управление удалённым доступом к стенду;
контроль использования съёмных машинных носителей
ОПС | установка только разрешённого к использованию программного обеспечения; управление запуском
компонентов программного обеспечения
ЗНИ | учёт машинных носителей тестовых данных; уничтожение тестовых данных на носителях при их
передаче между пользователями; контроль подключения машинных носителей к стенду
РСБ | определение событий безопасности, подлежащих регистрации; сбор и хранение записей журнала
событий не менее трёх месяцев; реагирование на сбои при регистрации событий безопасности; защита
журнала событий от несанкционированного изменения; мониторинг результатов регистрации событий
АВЗ | применение средств антивирусной защиты; обновление баз признаков вредоносных программ
АНЗ | выявление и анализ уязвимостей стенда; контроль установки обновлений программного
обеспечения; контроль работоспособности средств защиты информации
ОЦЛ | контроль целостности программного обеспечения стенда; резервное копирование конфигурации
средств защиты информации
ЗИС | изоляция стенда от сетей промышленной эксплуатации; защита тестовых данных при их передаче
по каналам связи; разделение стенда на сегменты; запрет удалённой активации периферийных устройств
"""


@dataclass
class _Article:
    number: str  # «5» or «5¹» (a trailing ¹ is drawn as a raised small «1»)
    title: str
    blocks: list[str]


@dataclass
class _Chapter:
    title: str
    articles: list[_Article]


def _blocks(text: str) -> list[str]:
    """Blank-line separated blocks, lines joined, markup turned into wrapper markers."""
    out = []
    for chunk in text.strip().split("\n\n"):
        block = " ".join(line.strip() for line in chunk.splitlines())
        block = block.replace("~", MUST_SOFT).replace("-|", "-" + MUST_HARD).replace("№ ", "№" + NBSP)
        out.append(block)
    return out


def _parse_law(text: str) -> list[_Chapter]:
    chapters: list[_Chapter] = []
    for block in _blocks(text):
        if block.startswith("# "):
            chapters.append(_Chapter(block[2:], []))
        elif block.startswith("## "):
            number, title = block[3:].split(" | ", 1)
            chapters[-1].articles.append(_Article(number, title, []))
        else:
            chapters[-1].articles[-1].blocks.append(block)
    return chapters


def _table_rows() -> list[list[str]]:
    """One row per measure (33); the «+» pattern gets sparser from УЗ 1 (highest) to УЗ 3."""
    rows: list[list[str]] = []
    flat = " ".join(_MEASURES.split())
    for code, body in re.findall(r"([А-Я]{3}) \| (.*?)(?= [А-Я]{3} \||$)", flat):
        for i, name in enumerate(body.split("; "), start=1):
            n = len(rows)
            uz2 = "" if n % 4 == 3 else "+"
            uz3 = "+" if n % 3 == 0 else ""
            rows.append([f"{code}.{i} {name[0].upper()}{name[1:]}", "+", uz2, uz3])
    return rows


# Pools for the generated chapters of the long regulation: varied but deterministic text.
# Every sector is in the genitive plural so that it fits all the templates below.
_SECTORS = [
    "медицинских организаций",
    "кредитных организаций",
    "операторов связи",
    "образовательных организаций",
    "разработчиков программного обеспечения",
    "операторов облачных платформ",
    "страховых организаций",
    "организаций транспортного комплекса",
    "органов местного самоуправления",
    "научных организаций",
    "организаций топливно-энергетического комплекса",
    "операторов платёжных систем",
]
_TITLES = [
    "Особенности обработки тестовых данных в информационных системах {s}",
    "Требования к стендам {s}",
    "Порядок учёта тестовых данных {s}",
    "Обезличивание тестовых данных {s}",
    "Передача тестовых данных {s} третьим лицам",
    "Сроки хранения тестовых данных {s}",
    "Контроль за обработкой тестовых данных {s}",
]
_PARTS = _blocks("""
Тестовые данные {s} обрабатываются с соблюдением требований, установленных статьями 4–7 настоящего
Федерального закона, с учётом особенностей, предусмотренных настоящей статьёй.

Руководители {s} обеспечивают назначение лиц, ответственных за учёт тестовых данных, и утверждают
перечень стендов, на которых допускается их обработка.

Сведения о тестовых данных {s}, сформированных на основе персональных данных, включаются в журнал
учёта в течение пяти рабочих дней со дня их создания.

Передача тестовых данных {s} в государственные информационные системы допускается только после их
обезличивания и при наличии согласования с уполномоченным органом.

Порядок уничтожения тестовых данных {s} и форма акта об их уничтожении могут быть уточнены
нормативными правовыми актами федеральных органов исполнительной власти.

Проверка соблюдения требований настоящей статьи в отношении {s} осуществляется в рамках
государственного контроля (надзора), при этом её результаты отражаются в акте проверки.
""")
_ITEMS = [
    "определяют состав тестовых данных, необходимых для проведения испытаний",
    "обеспечивают изоляцию стендов от информационных систем, находящихся в эксплуатации",
    "ведут учёт лиц, допущенных к работе с тестовыми данными",
    "уведомляют уполномоченный орган о фактах неправомерного доступа к тестовым данным",
    "проводят не реже одного раза в год оценку эффективности принятых мер защиты",
    "обеспечивают уничтожение тестовых данных по завершении испытаний",
    "утверждают порядок резервного копирования тестовых данных",
]


def _generated_article(number: int) -> _Article:
    rng = random.Random(number)  # seeded per article: its text does not depend on the total count
    sector = rng.choice(_SECTORS)
    parts = [p.format(s=sector) for p in rng.sample(_PARTS, 3)]
    items = rng.sample(_ITEMS, rng.randint(2, 4))
    blocks = [f"1. {parts[0]}", f"2. Для целей настоящей статьи операторы из числа {sector}:"]
    blocks += [f"{i}) {text}{';' if i < len(items) else '.'}" for i, text in enumerate(items, start=1)]
    blocks += [f"3. {parts[1]}", f"4. {parts[2]}"]
    return _Article(str(number), rng.choice(_TITLES).format(s=sector), blocks)


def _counted(art: _Article) -> bool:
    # Not str.isdigit(): it is True for «5¹» too, and inserted articles must not count.
    return art.number.isascii()


def _truncated(chapters: list[_Chapter], articles: int) -> list[_Chapter]:
    """The first ``articles`` plainly numbered articles (a «5¹» rides along with its chapter)."""
    out: list[_Chapter] = []
    left = articles
    for chapter in chapters:
        taken: list[_Article] = []
        for art in chapter.articles:
            if left == 0:
                break
            taken.append(art)
            left -= _counted(art)
        if taken:
            out.append(_Chapter(chapter.title, taken))
    return out


def _chapters(articles: int) -> list[_Chapter]:
    """Chapters for ``articles`` plainly numbered articles; beyond 12, generated chapters are
    inserted before «Заключительные положения», whose articles are renumbered to stay last."""
    law = _parse_law(_LAW)
    fixed = sum(_counted(art) for ch in law for art in ch.articles)
    if articles <= fixed:
        return _truncated(law, articles)
    *core, final = law
    first = fixed - len(final.articles) + 1
    extra = [_generated_article(n) for n in range(first, first + articles - fixed)]
    for i, start in enumerate(range(0, len(extra), 6)):
        title = f"Особенности деятельности {_SECTORS[i % len(_SECTORS)]}"
        core.append(_Chapter(title, extra[start : start + 6]))
    last = first + len(extra)
    renumbered = [_Article(str(last + i), a.title, a.blocks) for i, a in enumerate(final.articles)]
    return [*core, _Chapter(final.title, renumbered)]


# --------------------------------------------------------------------------------------------
# The regulation's layout
# --------------------------------------------------------------------------------------------


def _lay_title(flow: _Flow) -> None:
    for line in (f"Федеральный закон от 01.02.2024 №{NBSP}999-ФЗ", "«О защите тестовых данных»"):
        flow.paragraph(line, font=FONT_BOLD, size=14, indent=0, align="center", after=2)
    flow.space(10)
    for line in (
        "Принят Государственной Думой 17 января 2024 года",
        "Одобрен Советом Федерации 24 января 2024 года",
    ):
        flow.paragraph(line, size=10, indent=0, align="right", after=0)
    flow.space(14)


def _article_label(number: str) -> list[_Span]:
    """«Статья 5¹.» as real laws draw it: the «1» is a separate, smaller, raised string."""
    if number.endswith("¹"):
        return [(f"Статья {number[:-1]}", FONT_BOLD, 11, 0), ("1", FONT_BOLD, 7, 4), (".", FONT_BOLD, 11, 0)]
    return [(f"Статья {number}.", FONT_BOLD, 11, 0)]


def _lay_article(flow: _Flow, art: _Article) -> None:
    flow.space(6)
    flow.ensure(14 * 3)  # keep the heading with at least two body lines
    flow.mark(f"art-{art.number.replace('¹', '.1')}", f"Статья {art.number}. {art.title}", 1)
    flow.paragraph(art.title, font=FONT_BOLD, prefix=_article_label(art.number), after=4, keep=2)
    for block in art.blocks:
        if block == TABLE:
            flow.paragraph("Таблица 1", size=10, indent=0, align="right", after=2, keep=3)
            flow.table([288.0, 60.0, 60.0, 59.5], ["Мера", "УЗ 1", "УЗ 2", "УЗ 3"], _table_rows())
        else:
            flow.paragraph(_hyphenate(block))


def _lay_signature(flow: _Flow) -> None:
    flow.space(14)
    flow.ensure(14 * 5)
    # Office + name share one baseline, the name pushed to the right margin, as in signed laws.
    flow.y -= 14
    flow.add(_Text(flow.left, flow.y, "Президент Российской Федерации", FONT, 11))
    name = "А. Б. ТЕСТОВ"
    flow.add(_Text(flow.left + flow.width - _width(name, FONT, 11), flow.y, name, FONT, 11))
    flow.space(14)
    for line in ("Москва, Кремль", "1 февраля 2024 года", f"№{NBSP}999-ФЗ"):
        flow.paragraph(line, size=10, indent=0, after=0)


_ANNEX = """
# 1. Общие требования

1.1. Акт об уничтожении тестовых данных (далее — акт) составляется комиссией, состав которой
утверждается оператором, в день уничтожения тестовых данных.

1.2. Акт должен содержать:

1.2.1. наименование оператора и информационной системы, для испытаний которой создавались тестовые
данные;

1.2.2. сведения об уничтоженных тестовых данных, включая их объём и место хранения;

1.2.3. способ уничтожения тестовых данных и сведения о применённых средствах гарантированного
удаления информации;

1.2.4. дату уничтожения и подписи членов комиссии.

1.3. Акт составляется в электронной форме либо на бумажном носителе.

# 2. Порядок хранения акта

2.1. Акт хранится оператором вместе с журналом учёта тестовых данных в течение срока, установленного
частью 3 статьи 6 настоящего Федерального закона.

2.2. Копия акта представляется в уполномоченный орган по его запросу в течение десяти рабочих дней.
"""


def _lay_annex(flow: _Flow) -> None:
    flow.new_page()  # annexes traditionally start on a fresh page
    flow.mark("annex-1", "Приложение N 1", 0)
    for line in ("Приложение N 1", "к Федеральному закону", f"от 01.02.2024 №{NBSP}999-ФЗ"):
        flow.paragraph(line, size=10, indent=0, align="right", after=0)
    flow.space(16)
    for line in ("ТРЕБОВАНИЯ", "К СОДЕРЖАНИЮ АКТА ОБ УНИЧТОЖЕНИИ ТЕСТОВЫХ ДАННЫХ"):
        flow.paragraph(line, font=FONT_BOLD, size=12, indent=0, align="center", after=2)
    flow.space(8)
    for block in _blocks(_ANNEX):
        if block.startswith("# "):
            flow.space(4)
            flow.paragraph(block[2:], font=FONT_BOLD, after=4, keep=3)
        else:
            flow.paragraph(_hyphenate(block))


def _lay_regulation(articles: int) -> list[list[_Op]]:
    flow = _Flow()
    _lay_title(flow)
    for n, chapter in enumerate(_chapters(articles), start=1):
        flow.space(10)
        flow.ensure(16 * 4)
        flow.mark(f"ch-{n}", f"Глава {n}. {chapter.title}", 0)
        flow.paragraph(f"Глава {n}. {chapter.title}", font=FONT_BOLD, size=12, indent=35, after=4)
        for art in chapter.articles:
            _lay_article(flow, art)
    _lay_signature(flow)
    _lay_annex(flow)
    return flow.pages


def _articles_for_pages(articles: int, pages: int) -> int:
    """Smallest article count ≥ ``articles`` whose layout reaches ``pages`` pages."""
    base = len(_lay_regulation(articles))
    if base >= pages:
        return articles
    probe = articles + 40
    per_page = 40 / max(len(_lay_regulation(probe)) - base, 1)
    n = articles + int((pages - base) * per_page)
    while len(_lay_regulation(n)) < pages:
        n += 2
    while n > articles and len(_lay_regulation(n - 1)) >= pages:
        n -= 1
    return n


def _regulation_bytes(articles: int = 12, *, pages_hint: int | None = None, outline: bool = True) -> bytes:
    if pages_hint is not None:
        articles = _articles_for_pages(articles, pages_hint)
    register_fonts()  # layout measures strings, so the fonts must exist already
    meta = {
        "title": DOC_TITLE,
        "author": "DocShelf test suite",
        "subject": "Вымышленный закон",
        "lang": "ru-RU",
    }
    return _render(_lay_regulation(articles), _regulation_chrome, meta, outline=outline)


# --------------------------------------------------------------------------------------------
# Public generators
# --------------------------------------------------------------------------------------------


def make_regulation_pdf(path: Path, *, articles: int = 12, pages_hint: int | None = None, outline: bool = True) -> Path:
    """Write the fictional law «О защите тестовых данных» (7 pages with the defaults).

    ``articles`` counts plainly numbered articles (Статья 5¹ comes extra once there are ≥ 5);
    ``pages_hint`` adds generated chapters until the document has at least that many pages.
    """
    register_fonts()  # laying out the padding measures text before anything is drawn
    path.write_bytes(_regulation_bytes(articles, pages_hint=pages_hint, outline=outline))
    return path


def make_long_regulation_pdf(path: Path, pages: int = 100) -> Path:
    """The same law padded with generated chapters to ``pages`` pages (throughput benchmarks)."""
    return make_regulation_pdf(path, pages_hint=pages)


_MANUAL = """
# 1. Introduction

This manual describes the Shelfbox test appliance, a small network device that stores versioned
copies of technical documents and answers search queries over a local API. It is intended for
operators who install the appliance and keep it running.

## 1.1 Scope

The manual covers installation, first-time configuration, routine operation and basic
troubleshooting. Hardware servicing is described in a separate document.

# 2. Getting Started

## 2.1 Installation

Mount the appliance in a ventilated rack, connect the management port to a trusted network and power
the unit on. The status light turns green within two minutes. If it stays amber, check the network
cable and the DHCP server logs before contacting support.

The first boot creates an administrator account. Write down the one-time password shown on the front
display; it expires after 24 hours.

## 2.2 Configuration

Open the web console at the address shown on the display and sign in. Set the time zone, the NTP
servers and the storage quota. Configuration changes take effect after the service restarts, which
happens automatically and takes less than a minute.

# 3. Operation

## 3.1 Daily Checks

Review the dashboard once a day. The ingest queue should be empty outside business hours, and the
free space indicator should stay above twenty percent. Export the audit log weekly.

## 3.2 Backups

Snapshots are taken every night at 02:00 local time and kept for fourteen days. To restore a
snapshot, select it in the console and confirm twice; the appliance is read-only while restoring.

# 4. Troubleshooting

Most problems are caused by expired certificates or a full disk. The console lists active alerts
with a suggested action for each. Collect a diagnostic bundle before opening a ticket.
"""
MANUAL_TITLE = "Shelfbox Appliance Operator Manual"


def make_english_manual_pdf(path: Path) -> Path:
    """A 2-page English manual: title 20pt, «1. Introduction» 16pt bold, «2.1 Installation» 13pt
    bold, 10.5pt body, footer «Page N». Chapter 3 starts page 2 so the footer repeats."""
    register_fonts()
    flow = _Flow(left=72.0, right=72.0)
    flow.paragraph(MANUAL_TITLE, font=FONT_BOLD, size=20, indent=0, align="center", after=18)
    for n, block in enumerate(_blocks(_MANUAL)):
        if block.startswith("# "):
            if block.startswith("# 3."):
                flow.new_page()
            flow.space(10)
            flow.mark(f"h-{n}", block[2:], 0)
            flow.paragraph(block[2:], font=FONT_BOLD, size=16, indent=0, after=6, keep=3)
        elif block.startswith("## "):
            flow.space(4)
            flow.mark(f"h-{n}", block[3:], 1)
            flow.paragraph(block[3:], font=FONT_BOLD, size=13, indent=0, after=4, keep=3)
        else:
            flow.paragraph(block, size=10.5, indent=0, after=6)
    meta = {"title": MANUAL_TITLE, "author": "DocShelf test suite", "lang": "en-US"}
    path.write_bytes(_render(flow.pages, _manual_chrome, meta, outline=True))
    return path


def make_scanned_pdf(path: Path, *, dpi: int = 100) -> Path:
    """Two pages that are pictures of the regulation's first pages: no text layer at all."""
    source = pymupdf.open(stream=_regulation_bytes(3, outline=False), filetype="pdf")
    scan = pymupdf.open()
    for number in range(2):
        page = source[number]
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        target = scan.new_page(width=page.rect.width, height=page.rect.height)
        target.insert_image(target.rect, stream=pix.tobytes("png"))
    scan.save(path, garbage=3, deflate=True, no_new_id=True)  # no random /ID: reproducible bytes
    return path


def make_encrypted_pdf(path: Path) -> Path:
    """A small Russian PDF (the law cut to 2 articles) behind user password «secret»."""
    doc = pymupdf.open(stream=_regulation_bytes(2, outline=False), filetype="pdf")
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    return path


def make_truncated_pdf(path: Path) -> Path:
    """The first 40 % of the bytes of a valid PDF: no xref, no trailer, no %%EOF."""
    data = _regulation_bytes(3, outline=False)
    path.write_bytes(data[: len(data) * 2 // 5])
    return path


def make_empty_pdf(path: Path) -> Path:
    """A valid one-page A4 PDF with nothing drawn on it."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1)
    c.showPage()
    c.save()
    path.write_bytes(buf.getvalue())
    return path


def iter_hyphenated_line_ends(pages: Iterable[str]) -> Iterator[tuple[str, str]]:
    """(line ending in «-», next line's first word) pairs in extracted page texts — for reports/tests."""
    for text in pages:
        lines = text.splitlines()
        for line, nxt in itertools.pairwise(lines):
            if line.endswith("-") and nxt.strip():
                yield line.split(" ")[-1], nxt.split(" ")[0]
