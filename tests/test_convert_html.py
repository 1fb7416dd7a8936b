"""HTML converter: unit tests on inline snippets, then the real pages of the corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.convert.html import convert_html
from docshelf.errors import ConversionError
from docshelf.model import Block, Converted

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "ru-regulations"

JOOMLA = """<!DOCTYPE html>
<html lang="ru-ru"><head>
<meta name='csrf-token-value' content='175f0d5c'/>
<meta charset="utf-8"><title>Приказ ФСТЭК России N 1 - ФСТЭК России</title>
<script>var menu = "Главное меню скрипта";</script><style>.x { color: red }</style>
</head><body>
<header><div>Версия для слабовидящих</div>
<nav><ul><li><a href="/">Главная</a></li><li><a href="/str">Структура ведомства</a></li></ul></nav></header>
<nav class="mod-breadcrumbs__wrapper"><ol class="breadcrumb"><li>Документы</li><li>Приказы</li></ol></nav>
<main><div class="com-content-article item-page">
<div class="page-header"><h1 itemprop="headline">Приказ ФСТЭК России от 1 января 2020 г. N 1</h1></div>
<dl class="article-info"><dd>Просмотры: 2318</dd></dl>
<div itemprop="articleBody" class="com-content-article__body">
<p><div class="dropfiles-content"><h3><a href="/f/1.pdf">Приказ N 1</a></h3>
<div class="file-size">Размер: 486.47 КБ</div><div class="file-hits">Скачивания: 255</div></div></p>
<h1>ПРИКАЗ</h1>
<h2>I. Общие&nbsp;положения</h2>
<p>1. Утвердить&nbsp;прилагаемые   Требования
   о защите информации.</p>
<p><strong>Жирный абзац целиком</strong></p>
<p>Частично <b>жирный</b> абзац.</p>
<p>Ссылка на <a href="javascript:void(0)">текст</a> и <a href="http://example.org/x">сайт</a>.</p>
<p>УПД.1 Управление учетными записями пользователей; ёлка осталась с ё.</p>
<form><input name="q"><button>Найти на сайте</button></form>
</div></div></main>
<footer><p>Карта сайта</p><p>Противодействие коррупции</p></footer>
<div id="popup" style="display:none">Подпишитесь на рассылку</div>
</body></html>"""

PRE = """<html><body><pre id="bdoc"><font class="ed">                       РОССИЙСКАЯ ФЕДЕРАЦИЯ
</font>
     С т а т ь я  1. Основные понятия

     В настоящем Кодексе используются   следующие  основные
понятия:
     вода -   химическое   соединение   водорода    и    кислорода,
существующее в жидком, твердом и газообразном состояниях;
     воды - вся вода, находящаяся в <a href="http://pravo.gov.ru/x">водных объектах</a>;

     С т а т ь я  2. Водное законодательство
                     Российской Федерации

     1. Водное законодательство состоит из настоящего Кодекса.
     Г л а в а  2. Права
</pre></body></html>"""

TABLE = """<html><body><p>Класс определяется по таблице:</p>
<table>
<thead><tr><th rowspan="2">Код</th><th colspan="2">Классы</th></tr><tr><th>3</th><th>2</th></tr></thead>
<tbody>
<tr><td colspan="3"><h1>I. Идентификация (ИАФ)</h1></td></tr>
<tr><td><p>ИАФ.1</p></td><td>+<br>да</td><td>a|b</td></tr>
</tbody></table>
<table><tr><td><p>Текст в рамке</p><p>Второй абзац рамки</p></td></tr></table>
</body></html>"""

PRAVO = """<html><head><title>Complex</title><style>
<!-- p.T { text-align: center; font-weight: bold; } .W9{vertical-align:top; font-weight:normal} -->
</style></head><body>
<p class="T">Статья 7<span class="W9">1</span>. Водохозяйственные мероприятия</p>
<p><span class="mark">(В редакции Федерального закона от&nbsp;01.05.2022&nbsp;№&nbsp;122-ФЗ)</span></p>
<p>12<sup>1</sup>)&nbsp;донный грунт; объём 5 м<sup>3</sup>; <span class="mark">(В редакции …)</span></p>
<p>Первая строка<br>вторая строка</p>
<ol><li>первый пункт</li><li>второй пункт<ul><li>вложенный</li></ul></li></ol>
</body></html>"""


def texts(result: Converted) -> list[str]:
    return [b.text for b in result.blocks]


def block(result: Converted, text: str) -> Block:
    return next(b for b in result.blocks if b.text == text)


@pytest.fixture(scope="module")
def joomla() -> Converted:
    return convert_html(JOOMLA.encode("utf-8"), name="order.html")


def test_keeps_the_article(joomla: Converted) -> None:
    assert texts(joomla)[:2] == ["ПРИКАЗ", "I. Общие положения"]
    assert "1. Утвердить прилагаемые Требования о защите информации." in texts(joomla)
    assert "УПД.1 Управление учетными записями пользователей; ёлка осталась с ё." in texts(joomla)


@pytest.mark.parametrize(
    "chrome",
    ["Главная", "Структура", "Версия для слабовидящих", "Документы", "Просмотры", "Размер", "Скачивания",
     "Карта сайта", "Противодействие коррупции", "Найти", "Подпишитесь", "скрипта", "color"],
)  # fmt: skip
def test_drops_site_chrome(joomla: Converted, chrome: str) -> None:
    assert not [t for t in texts(joomla) if chrome in t]


def test_headings_and_levels(joomla: Converted) -> None:
    assert [(b.kind, b.level) for b in joomla.blocks[:2]] == [("heading", 1), ("heading", 2)]


def test_bold_only_when_the_whole_paragraph_is_bold(joomla: Converted) -> None:
    assert block(joomla, "Жирный абзац целиком").bold
    assert not block(joomla, "Частично жирный абзац.").bold


def test_links_keep_text_only(joomla: Converted) -> None:
    assert "Ссылка на текст и сайт." in texts(joomla)
    assert not [t for t in texts(joomla) if "javascript" in t or "example.org" in t]


def test_title_is_the_headline_without_site_suffix(joomla: Converted) -> None:
    assert joomla.title == "Приказ ФСТЭК России от 1 января 2020 г. N 1"


def test_no_pages(joomla: Converted) -> None:
    assert {b.page for b in joomla.blocks} == {0}
    assert joomla.pages == 0


def test_density_fallback_without_known_container() -> None:
    para = "Текст документа, достаточно длинный, чтобы перевесить меню сайта. " * 4
    html = f"""<html><body><div class="top-menu"><ul><li>Меню раз</li><li>Меню два</li></ul></div>
    <div id="wrap"><div><p>{para}</p><p>{para}</p></div></div><div>Подвал сайта</div></body></html>"""
    result = convert_html(html.encode("utf-8"), name="page.html")
    assert texts(result) == [para.strip(), para.strip()]


def test_layout_table_page_keeps_the_text_cell() -> None:
    para = "Статья 1. Текст закона, который занимает почти всю страницу сайта. " * 4
    html = f"""<html><body><table><tr><td><a href="/">Главная</a><br><a href="/laws">Законы</a></td>
    <td><p>{para}</p><p>{para}</p></td></tr></table></body></html>"""
    assert texts(convert_html(html.encode("utf-8"), name="old.html")) == [para.strip(), para.strip()]


def test_pre_rejoins_hard_wrapped_lines_and_keeps_letter_spacing() -> None:
    result = convert_html(PRE.encode("utf-8"), name="102038209.html")
    assert texts(result) == [
        "РОССИЙСКАЯ ФЕДЕРАЦИЯ",
        "С т а т ь я  1. Основные понятия",
        "В настоящем Кодексе используются следующие основные понятия:",
        "вода - химическое соединение водорода и кислорода, существующее в жидком, твердом и газообразном состояниях;",
        "воды - вся вода, находящаяся в водных объектах;",
        "С т а т ь я  2. Водное законодательство Российской Федерации",
        "1. Водное законодательство состоит из настоящего Кодекса.",
        "Г л а в а  2. Права",
    ]


def test_pre_with_code_is_fenced() -> None:
    html = "<html><body><pre>def f(x):\n    return {x: [x + 1]}\n</pre></body></html>"
    assert texts(convert_html(html.encode("utf-8"), name="code.html")) == [
        "```\ndef f(x):\n    return {x: [x + 1]}\n```"
    ]


def test_table_with_spans_writes_each_text_once() -> None:
    result = convert_html(TABLE.encode("utf-8"), name="table.html")
    table = [b for b in result.blocks if b.kind == "table"]
    assert len(table) == 1
    assert table[0].text == (
        "| Код | Классы |  |\n"
        "|---|---|---|\n"
        "|  | 3 | 2 |\n"
        "| I. Идентификация (ИАФ) |  |  |\n"
        "| ИАФ.1 | +<br>да | a\\|b |"
    )


def test_one_cell_table_is_a_layout_box() -> None:
    result = convert_html(TABLE.encode("utf-8"), name="table.html")
    assert texts(result)[-2:] == ["Текст в рамке", "Второй абзац рамки"]
    assert result.blocks[-1].kind == "para"


@pytest.fixture(scope="module")
def pravo() -> Converted:
    return convert_html(PRAVO.encode("utf-8"), name="102107048.html")


def test_css_bold_class_and_superscript_article_number(pravo: Converted) -> None:
    heading = pravo.blocks[0]
    assert heading.text == "Статья 7.1. Водохозяйственные мероприятия"
    assert heading.bold


def test_edition_note_is_editorial(pravo: Converted) -> None:
    note = block(pravo, "(В редакции Федерального закона от 01.05.2022 № 122-ФЗ)")
    assert note.editorial and not note.bold


def test_inline_note_stays_in_the_paragraph(pravo: Converted) -> None:
    item = block(pravo, "12.1) донный грунт; объём 5 м³; (В редакции …)")
    assert not item.editorial


def test_br_starts_a_new_paragraph(pravo: Converted) -> None:
    assert ["Первая строка", "вторая строка"] == texts(pravo)[3:5]


def test_lists_get_markers(pravo: Converted) -> None:
    assert texts(pravo)[5:] == ["1. первый пункт", "2. второй пункт", "- вложенный"]


def test_generic_title_is_replaced(pravo: Converted) -> None:
    assert pravo.title == "Статья 7.1. Водохозяйственные мероприятия"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ('<html><head><meta charset="windows-1251"></head><body><p>Статья ё</p></body></html>', "Статья ё"),
        ("<html><body><p>Без объявления: Статья</p></body></html>", "Без объявления: Статья"),
    ],
)
def test_cp1251_is_decoded(data: str, expected: str) -> None:
    assert texts(convert_html(data.encode("cp1251"), name="old.html")) == [expected]


def test_wrong_declared_charset_falls_back_with_a_warning() -> None:
    data = '<html><head><meta charset="utf-8"></head><body><p>Статья</p></body></html>'.encode("cp1251")
    result = convert_html(data, name="liar.html")
    assert texts(result) == ["Статья"]
    assert result.warnings


def test_utf8_bytes_win_over_a_stale_cp1251_declaration() -> None:
    data = '<html><head><meta charset="windows-1251"></head><body><p>Статья ё</p></body></html>'
    result = convert_html(data.encode("utf-8"), name="resaved.html")
    assert texts(result) == ["Статья ё"]
    assert "windows-1251" in result.warnings[0]


def test_page_without_text_is_refused() -> None:
    with pytest.raises(ConversionError, match="no document text"):
        convert_html(b"<html><body><nav>Menu</nav><script>x()</script></body></html>", name="empty.html")


# --------------------------------------------------------------------------- the real corpus


def _corpus(path: str) -> Converted:
    file = CORPUS / path
    if not file.exists():
        pytest.skip(f"corpus file {file} is not available")
    return convert_html(file.read_bytes(), name=file.name)


@pytest.fixture(scope="module")
def order() -> Converted:
    return _corpus("KonstantinElfimow__information_security_requirements/index_order.html")


@pytest.fixture(scope="module")
def rd() -> Converted:
    return _corpus("KonstantinElfimow__information_security_requirements/index_document.html")


@pytest.fixture(scope="module")
def constitution() -> Converted:
    return _corpus("deep-foundation__russian-laws/102027595.html")


@pytest.fixture(scope="module")
def water_2006() -> Converted:
    return _corpus("deep-foundation__russian-laws/102107048.html")


@pytest.fixture(scope="module")
def water_1995() -> Converted:
    return _corpus("deep-foundation__russian-laws/102038209.html")


def test_fstec_order_has_text_and_the_measure_table(order: Converted) -> None:
    assert order.title == "Приказ ФСТЭК России от 11 февраля 2013 г. N 17"
    tables = [b for b in order.blocks if b.kind == "table"]
    assert len(tables) == 2
    assert "| УПД.1 |" in tables[1].text and "| ЗИС.30 |" in tables[1].text
    assert ("heading", "I. Общие положения") in [(b.kind, b.text) for b in order.blocks]


@pytest.mark.parametrize(
    "chrome", ["Версия для слабовидящих", "Банковские реквизиты", "Карта сайта", "Противодействие коррупции",
               "Скачивания", "Просмотры"],
)  # fmt: skip
def test_fstec_pages_have_no_site_chrome(order: Converted, rd: Converted, chrome: str) -> None:
    assert not [b.text for b in (*order.blocks, *rd.blocks) if chrome in b.text]


def test_fstec_guidance_document(rd: Converted) -> None:
    assert rd.blocks[0].text == "Руководящий документ"
    assert len([b for b in rd.blocks if b.kind == "table"]) == 3
    assert any(b.text.startswith("2.18. При разработке АС") for b in rd.blocks)


def test_constitution_articles(constitution: Converted) -> None:
    articles = [b for b in constitution.blocks if b.text.startswith("Статья ")]
    assert articles[0].text == "Статья 1" and articles[0].bold
    assert "Статья 137" in [b.text for b in articles]
    assert constitution.title == "КОНСТИТУЦИЯ РОССИЙСКОЙ ФЕДЕРАЦИИ"
    assert any(b.editorial for b in constitution.blocks)


def test_water_code_2006_inserted_articles(water_2006: Converted) -> None:
    assert "Статья 7.1. Водохозяйственные мероприятия" in texts(water_2006)
    assert any(t.startswith("12.1) донный грунт") for t in texts(water_2006))


def test_water_code_1995_letter_spaced_articles(water_1995: Converted) -> None:
    starts = [b.text for b in water_1995.blocks if b.text.startswith("С т а т ь я  ")]
    assert starts[0] == "С т а т ь я  1. Основные понятия"
    assert "С т а т ь я  2. Водное законодательство Российской Федерации" in starts
    assert starts[-1] == "С т а т ь я  148. О признании утратившим силу Водного кодекса РСФСР"
    # hard-wrapped lines were rejoined: no block ends mid-sentence on a wrapped word
    assert "Ввести в действие настоящий Кодекс со дня его официального опубликования." in texts(water_1995)


def test_an_ordered_list_prints_its_numbers_as_its_type_says_and_nested_items_are_cited_by_them(
    tmp_path: Path,
) -> None:
    """A bill published as HTML nests «<ol type="a">» › «<ol>» › «<ol type="A">» › «<ol type="i">»: the browser
    prints «a.», «1.», «A.», «i.» (or what ``list-style-type`` says), and «Section 3(a)(1)(A)» names that item — each
    was «1.» at every level, so no nested item could be cited."""
    from docshelf.build.pipeline import DocOptions
    from docshelf.shelf import store as shelf
    from docshelf.text.verify import verify_quote

    html = (
        "<html><body><h1>Westland Data Security Act</h1><h2>Section 3. Definitions.</h2><p>In this Act:</p>"
        '<ol type="a"><li>"Breach" means the unauthorized acquisition of computerized data. It does not include:'
        "<ol><li>good faith acquisition of personal information by an employee, provided that:"
        '<ol type="A"><li>the information is not used for a purpose unrelated to the business; and</li>'
        "<li>the information is not subject to further unauthorized disclosure.</li></ol></li></ol></li>"
        '<li value="3">"Entity" means a business that holds data of residents of this state.</li></ol>'
        '<ol style="list-style-type: lower-roman"><li>first roman item of the list</li><li>second item</li></ol>'
        "</body></html>"
    )
    got = texts(convert_html(html.encode("utf-8"), name="bill.html"))
    assert [t.split(" ", 1)[0] for t in got if t[:2] in ("a.", "1.", "A.", "B.", "c.", "i.", "ii")] == [
        "a.", "1.", "A.", "B.", "c.", "i.", "ii.",
    ]  # fmt: skip
    source = tmp_path / "bill.html"
    source.write_text(html, encoding="utf-8")
    root = shelf.init(tmp_path / "shelf")
    shelf.add(root, [source], DocOptions("", "bills", "WDSA"), progress=lambda _m: None)
    check = verify_quote(
        root, "the information is not used for a purpose unrelated to the business", "WDSA Section 3(a)(1)(A)"
    )
    assert (check.verdict, check.level, check.clause) == ("ok", "clause", "§3 item a.1.A"), check.message
