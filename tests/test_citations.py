"""A reference is read completely or refused; editions of one act resolve to the one in force.

Two editions of a small Markdown law on a real Git shelf: the 2024 edition rewords ст. 2 ч. 1.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from docshelf.build.pipeline import DocOptions
from docshelf.errors import CitationError
from docshelf.records import DocMeta, SectionMeta
from docshelf.shelf import gitrepo
from docshelf.shelf import store as shelf
from docshelf.text.citations import _ambiguity, resolve_ref
from docshelf.text.verify import verify_quote

_LAW = """# О проверочных данных

## Глава 1. Общие положения

### Статья 1. Предмет

1. Настоящий закон регулирует отношения, связанные с обработкой проверочных данных.

Действие закона распространяется на всех операторов проверочных данных.

2. Оператор вправе поручить обработку проверочных данных другому лицу.

## Глава 2. Обязанности

### Статья 2. Обязанности оператора

1. Оператор обязан {duty} по требованию субъекта проверочных данных.

2. Оператор обязан уведомить уполномоченный орган о начале обработки данных.
{more}"""
# Enough articles that the law is split into sections (a short document stays one file).
_MORE = "".join(
    f"\n### Статья {n}. Порядок {n}\n\n1. Порядок номер {n} устанавливается уполномоченным органом "
    + "и применяется " * 40
    + "\n"
    for n in range(3, 12)
)
_OLD_DUTY = "сообщить сведения в течение тридцати дней"
_NEW_DUTY = "сообщить сведения в течение десяти рабочих дней"


@pytest.fixture(scope="module")
def editions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    base = tmp_path_factory.mktemp("citations")
    root = shelf.init(base / "shelf")
    quiet = lambda _m: None  # noqa: E731
    old, new = base / "law-2020.md", base / "law-2024.md"
    old.write_text(_LAW.format(duty=_OLD_DUTY, more=_MORE), encoding="utf-8")
    new.write_text(_LAW.format(duty=_NEW_DUTY, more=_MORE), encoding="utf-8")
    shelf.add(root, [old], DocOptions("", "laws", "999-ФЗ", edition={"valid_to": "2024-01-31"}), progress=quiet)
    new_id = "999-ФЗ (ред. 01.02.2024)"
    shelf.add(root, [new], DocOptions("", "laws", new_id, edition={"valid_from": "2024-02-01"}), progress=quiet)
    return root, gitrepo.resolve(root)


def test_the_edition_in_force_is_chosen_and_the_other_named(editions: tuple[Path, str]) -> None:
    root, commit = editions
    today = resolve_ref(root, "ФЗ-999 ст. 2 ч. 1", commit)
    assert (today.doc_id, today.clause, today.level) == ("999-ФЗ (ред. 01.02.2024)", "ст. 2 ч. 1", "clause")
    assert today.candidates == ["999-ФЗ"]
    assert "in force" in today.notes[0]
    back_then = resolve_ref(root, "ФЗ-999 ст. 2 ч. 1", commit, as_of=date(2023, 6, 1))
    assert (back_then.doc_id, back_then.candidates) == ("999-ФЗ", ["999-ФЗ (ред. 01.02.2024)"])


def test_an_edition_named_in_full_is_not_ambiguous(editions: tuple[Path, str]) -> None:
    root, commit = editions
    res = resolve_ref(root, "999-ФЗ (ред. 01.02.2024) ст. 1 ч. 2", commit)
    assert (res.doc_id, res.candidates, res.notes) == ("999-ФЗ (ред. 01.02.2024)", [], [])


@pytest.mark.parametrize(
    ("ref", "named"),
    [
        ("999-ФЗ ст. 1 nonsense", "«nonsense»"),
        ("999-ФЗ ст. 1 и 2", "«и 2»"),
        ("999-ФЗ ст. 1 ст. 2", "more than one place"),
        ("999-ФЗ раздел 2 what", "«what»"),
    ],
)
def test_a_reference_with_unread_parts_is_refused(editions: tuple[Path, str], ref: str, named: str) -> None:
    root, commit = editions
    with pytest.raises(CitationError, match=named):
        resolve_ref(root, ref, commit)
    check = verify_quote(root, "Настоящий закон регулирует отношения, связанные с обработкой", ref, at=commit)
    assert check.verdict == "unknown_ref"
    assert named.strip("«»") in check.message


def test_levels(editions: tuple[Path, str]) -> None:
    root, commit = editions
    assert resolve_ref(root, "999-ФЗ (ред. 01.02.2024)", commit).level == "document"
    chapter = resolve_ref(root, "999-ФЗ (ред. 01.02.2024) гл. 2", commit)
    assert (chapter.level, chapter.clause) == ("section", "гл. 2")
    assert [t.path.rsplit("/", 1)[1][:12] for t in chapter.targets][:2] == ["003-statia-2", "004-statia-3"]
    assert len(chapter.targets) == 10 and not any("statia-1-" in t.path for t in chapter.targets)
    path = resolve_ref(root, "999-ФЗ (ред. 01.02.2024) ст. 1", commit).targets[0].path
    assert resolve_ref(root, path, commit).level == "section"
    assert resolve_ref(root, f"{path}#ч. 2", commit).level == "clause"
    with pytest.raises(CitationError, match="not understood"):
        resolve_ref(root, f"{path}#ч. 2 bogus", commit)


def test_a_chapter_beside_an_article_must_hold_it(editions: tuple[Path, str]) -> None:
    root, commit = editions
    assert resolve_ref(root, "999-ФЗ (ред. 01.02.2024) гл. 1 ст. 1 ч. 1", commit).clause == "ст. 1 ч. 1"
    with pytest.raises(CitationError, match=re.escape("not inside «гл. 2»")):
        resolve_ref(root, "999-ФЗ (ред. 01.02.2024) гл. 2 ст. 1", commit)


def test_paragraphs_resolve(editions: tuple[Path, str]) -> None:
    root, commit = editions
    second = "Действие закона распространяется на всех операторов проверочных данных."
    check = verify_quote(root, second, "999-ФЗ (ред. 01.02.2024) абз. 2 ч. 1 ст. 1", at=commit)
    assert (check.verdict, check.level, check.clause) == ("ok", "clause", "ст. 1 ч. 1 абз. 2")
    first = verify_quote(root, second, "999-ФЗ (ред. 01.02.2024) ст. 1 ч. 1 абз. 1", at=commit)
    assert first.verdict == "wrong_clause"
    lone = resolve_ref(root, "999-ФЗ (ред. 01.02.2024) ст. 1 ч. 2 абз. 1", commit)  # a one-paragraph part
    assert lone.clause == "ст. 1 ч. 2"
    with pytest.raises(CitationError, match=re.escape("no clause «ст. 1 ч. 2 абз. 2»")):
        resolve_ref(root, "999-ФЗ (ред. 01.02.2024) ст. 1 ч. 2 абз. 2", commit)


def test_ok_says_what_was_proven(editions: tuple[Path, str]) -> None:
    root, commit = editions
    quote = "Оператор обязан уведомить уполномоченный орган о начале обработки данных."
    clause = verify_quote(root, quote, "999-ФЗ (ред. 01.02.2024) ст. 2 ч. 2", at=commit)
    assert (clause.verdict, clause.level, clause.message) == (
        "ok",
        "clause",
        "The quote is verbatim in the cited clause.",
    )
    document = verify_quote(root, quote, "999-ФЗ (ред. 01.02.2024)", at=commit)
    assert (document.verdict, document.level) == ("ok", "document")
    assert "document level only" in document.message and "ст. 2 ч. 2" in document.message
    assert "in the cited clause" not in document.message


def test_wrong_clause_across_editions_names_the_edition(editions: tuple[Path, str]) -> None:
    root, commit = editions
    quote = f"Оператор обязан {_NEW_DUTY} по требованию субъекта"
    check = verify_quote(root, quote, "999-ФЗ ст. 2 ч. 1", at=commit, as_of=date(2023, 6, 1))
    assert check.verdict == "wrong_clause"
    assert check.message.startswith("Verbatim in 999-ФЗ (ред. 01.02.2024), ст. 2 ч. 1 (another edition")
    assert "not in the cited 999-ФЗ ст. 2 ч. 1" in check.message


def test_a_label_used_in_scattered_sections_is_ambiguous() -> None:
    from docshelf.text.citations import Target

    sections = [("a.md", "§1"), ("b.md", "§4.1"), ("c.md", "§4.2"), ("d.md", "§4.2")]
    meta = DocMeta("NIST SP 800-00", "", section_data=tuple(SectionMeta(p, "", clause=c) for p, c in sections))
    scattered = [Target("x", "a.md", "§1", 0, 5), Target("x", "c.md", "§1", 0, 5)]
    assert "ambiguous" in _ambiguity(meta, scattered)
    pieces = [Target("x", "c.md", "§4.2", 0, 5), Target("x", "d.md", "§4.2", 0, 5)]  # one split section
    assert _ambiguity(meta, pieces) == ""


def test_the_cli_passes_as_of(editions: tuple[Path, str]) -> None:
    import json

    from click.testing import CliRunner

    from docshelf.cli import cli

    root, _commit = editions
    quote = f"Оператор обязан {_OLD_DUTY} по требованию субъекта"
    args = ["verify-quote", quote, "--ref", "ФЗ-999 ст. 2 ч. 1", "--shelf", str(root), "--json"]
    then = json.loads(CliRunner().invoke(cli, [*args, "--as-of", "2023-06-01"]).output)
    assert (then["verdict"], then["doc_id"], then["candidates"]) == ("ok", "999-ФЗ", ["999-ФЗ (ред. 01.02.2024)"])
    now = json.loads(CliRunner().invoke(cli, args).output)
    assert now["verdict"] == "wrong_clause" and now["message"].startswith("Verbatim in 999-ФЗ, ст. 2 ч. 1")


_CODE = """# {title}

### Статья 1. Предмет

1. Настоящий {name} регулирует отношения по использованию водных объектов.

### Статья 2. Права

1. Каждый вправе иметь доступ к водным объектам общего пользования.

2. Ширина береговой полосы составляет двадцать метров.
{more}"""


@pytest.mark.parametrize(
    ("title", "name", "doc_id", "refs"),
    [
        (
            "Водный кодекс Российской Федерации",
            "Кодекс",
            "ВК РФ",
            ["ВК РФ ст. 2 ч. 2", "ч. 2 ст. 2 Водного кодекса РФ", "ст. 2 Водного кодекса Российской Федерации",
             "Водный кодекс ст. 2 ч. 2"],
        ),
        ("КОНСТИТУЦИЯ РОССИЙСКОЙ ФЕДЕРАЦИИ", "Конституция", "Конституция РФ",
         ["Конституция РФ ст. 2", "ч. 2 ст. 2 Конституции", "статья 2 Конституции Российской Федерации"]),
        ("Кодекс Российской Федерации об административных правонарушениях", "Кодекс", "КоАП РФ",
         ["КоАП РФ ст. 2 ч. 2", "ст. 2 Кодекса Российской Федерации об административных правонарушениях"]),
    ],
)  # fmt: skip
def test_a_code_and_the_constitution_are_cited_the_way_lawyers_write(
    tmp_path: Path, title: str, name: str, doc_id: str, refs: list[str]
) -> None:
    """Their ids come from their titles («ВК РФ», «Конституция РФ»), and a citation may name them in any case,
    with or without «РФ»: a model that writes «ст. 2 Водного кодекса» is not told the document is absent."""
    root = shelf.init(tmp_path / "shelf")
    source = tmp_path / "code.md"
    source.write_text(_CODE.format(title=title, name=name, more=_MORE), encoding="utf-8")
    (doc,) = shelf.add(root, [source], DocOptions("", "laws"), progress=lambda _m: None)
    assert doc.id == doc_id
    for ref in refs:
        check = verify_quote(root, "Ширина береговой полосы составляет двадцать метров.", ref)
        assert check.verdict == "ok", (ref, check.message)
    elsewhere = verify_quote(root, "Ширина береговой полосы составляет двадцать метров.", f"{doc_id} ст. 1")
    assert elsewhere.verdict == "wrong_clause"


def test_the_acts_date_in_a_citation_is_checked_against_the_date_it_states(tmp_path: Path) -> None:
    root = shelf.init(tmp_path / "shelf")
    source = tmp_path / "law.md"
    preamble = "# О проверочных данных\n\n27 июля 2006 года N 999-ФЗ\n\n### Статья 1. Предмет\n\n"
    body = "1. Настоящий закон регулирует отношения, связанные с обработкой проверочных данных.\n"
    source.write_text(preamble + body + _MORE, encoding="utf-8")
    shelf.add(root, [source], DocOptions("", "laws", "999-ФЗ"), progress=lambda _m: None)
    quote = "Настоящий закон регулирует отношения, связанные с обработкой проверочных данных."
    for ref in ("Федеральный закон от 27.07.2006 N 999-ФЗ ст. 1 ч. 1", "ст. 1 ч. 1 999-ФЗ от 27 июля 2006 г."):
        assert verify_quote(root, quote, ref).verdict == "ok", ref
    wrong = verify_quote(root, quote, "Федеральный закон от 28.07.2006 № 999-ФЗ ст. 1 ч. 1")
    assert wrong.verdict == "unknown_ref" and "28.07.2006" in wrong.message and "27.07.2006 № 999-ФЗ" in wrong.message


@pytest.mark.parametrize(
    "ref",
    [
        "ч. 1 ст. 2 Закона о проверочных данных",
        "ст. 2 ч. 1 Федерального закона «О проверочных данных»",
        'ФЗ "О проверочных данных" ст. 2 ч. 1',
        "Федеральный закон № 999-ФЗ «О проверочных данных», ст. 2, ч. 1",
    ],
)
def test_a_federal_law_is_cited_by_its_title(editions: tuple[Path, str], ref: str) -> None:
    root, commit = editions
    res = resolve_ref(root, ref, commit)
    assert (res.doc_id, res.clause) == ("999-ФЗ (ред. 01.02.2024)", "ст. 2 ч. 1")  # the edition in force
    assert verify_quote(root, f"Оператор обязан {_NEW_DUTY}", ref, at=commit).verdict == "ok"


_SP = """# Sample Guidelines for Testing Shelves

## 3.1 Access Control

3.1.1 Limit system access to authorized users, processes acting on behalf of authorized users, or devices.

3.1.2 Limit system access to the types of transactions that authorized users are permitted to execute.

## 3.2 Awareness and Training

3.2.1 Ensure that managers and users are made aware of the security risks of their activities.
{more}"""


@pytest.mark.parametrize(
    "ref",
    ["NIST SP 800-999 Rev. 2 3.1.2", "SP 800-999 Rev 2, 3.1.2", "NIST 800-999 Revision 2 §3.1.2",
     "Section 3.1.2 of NIST SP 800-999r2", "NIST SP 800-999 3.1.2"],
)  # fmt: skip
def test_a_nist_requirement_is_cited_the_ways_engineers_write_it(tmp_path: Path, ref: str) -> None:
    root = shelf.init(tmp_path / "shelf")
    source = tmp_path / "sp.md"
    more = "".join(f"\n## 3.{n} Family {n}\n\n3.{n}.1 Apply the sample control number {n} to every system.\n"
                   for n in range(3, 15))  # fmt: skip
    source.write_text(_SP.format(more=more), encoding="utf-8")
    shelf.add(root, [source], DocOptions("", "standards", "NIST SP 800-999 Rev. 2"), progress=lambda _m: None)
    quote = "Limit system access to the types of transactions that authorized users are permitted to execute."
    check = verify_quote(root, quote, ref)
    assert (check.verdict, check.message) == ("ok", "The quote is verbatim in the cited clause."), ref


_ACT = """# Regulation of the testing shelves

## Article 1 Scope

1. This Regulation applies to the following shelves:

(a) the shelves of the first testing authority;

(b) the shelves of the second testing authority.

Where a shelf is shared, the following shall also apply:

(a) the shelves of the third testing authority are checked twice;

(b) the shelves of the fourth testing authority are checked once.

2. This Regulation applies from the day of its publication on every testing shelf.
{more}"""


def test_an_eu_point_cited_through_its_subparagraph_is_proven_only_where_it_is_one_place(tmp_path: Path) -> None:
    """«Article 1(2), first subparagraph, point (b)»: the clause table numbers points, not the unnumbered
    subparagraphs; the citation is read as the point when the paragraph has that point once, and refused
    when two subparagraphs both print it. A path the document lacks lists its tree first."""
    root = shelf.init(tmp_path / "shelf")
    source = tmp_path / "act.md"
    more = "".join(
        f"\n## Article {n} Rule {n}\n\n1. The rule number {n} applies to every shelf.\n" for n in range(2, 12)
    )
    source.write_text(_ACT.format(more=more), encoding="utf-8")
    shelf.add(root, [source], DocOptions("", "acts", "Regulation 2099/1"), progress=lambda _m: None)
    once = verify_quote(root, "The rule number 3 applies to every shelf.", "Regulation 2099/1 Article 3(1)")
    assert (once.verdict, once.level, once.clause) == ("ok", "clause", "Article 3(1)")
    twice = verify_quote(
        root,
        "the shelves of the second testing authority",
        "Regulation 2099/1 Article 1(1), first subparagraph, point (b)",
    )
    assert twice.verdict == "unknown_ref" and "Closest: Article 1(1)" in twice.message
    one = verify_quote(
        root,
        "This Regulation applies from the day of its publication",
        "Regulation 2099/1 Article 1(2), second subparagraph, point (a)",
    )
    assert one.verdict == "unknown_ref"  # no point (a) in paragraph 2: nothing is guessed


def _shelf_of(tmp_path: Path, text: str, doc_id: str, category: str) -> Path:
    """A shelf holding one Markdown document with ``text``, added as ``doc_id``."""
    root = shelf.init(tmp_path / "shelf")
    source = tmp_path / "doc.md"
    source.write_text(text, encoding="utf-8")
    shelf.add(root, [source], DocOptions("", category, doc_id), progress=lambda _m: None)
    return root


_BILL = """# Westland Data Security Act

## Section 1. Short title.

This Act may be cited as the Westland Data Security Act of the testing shelves.

## Section 2. Legislative findings.

The legislature finds that residents entrust businesses with personal information every day.

## Section 4. Duty to protect personal information.

(a) A covered entity shall implement reasonable security procedures for the information it holds.

(b) The security program shall include:

(1) administrative safeguards that assign responsibility for the program to a named officer;

(2) technical safeguards that protect personal information in transit and at rest.
"""


@pytest.mark.parametrize("ref", ["Section 2(b)", "Sec. 2(b)", "§2(b)", "2(b)", "Section 2 (b)"])
def test_a_subsection_the_cited_section_lacks_is_no_clause_not_another_sections_item_read_backwards(
    tmp_path: Path, ref: str
) -> None:
    """«Section 2(b)» names §2's (b): §2 has none, so the reference names nothing — it must not land on
    «§4(b)(2)», the one clause whose path ends in «(b)(2)», and prove a quote from there at clause level."""
    root = _shelf_of(tmp_path, _BILL, "WDSA", "bills")
    quote = "technical safeguards that protect personal information in transit and at rest"
    check = verify_quote(root, quote, f"WDSA {ref}")
    assert check.verdict == "unknown_ref" and "Closest: §2" in check.message, check.message
    right = verify_quote(root, quote, f"WDSA {ref.replace('2', '4', 1).replace('(b)', '(b)(2)')}")
    assert (right.verdict, right.level, right.clause) == ("ok", "clause", "§4(b)(2)"), ref


_ANNEXED = """# ГОСТ Р 99002-2099 Защита информации

## 1 Область применения

1.1 Настоящий стандарт устанавливает состав мер защиты информации финансовых организаций.

## Приложение А (справочное)

А.1 При реализации мер рекомендуется использовать средства централизованного управления записями.

А.2 Периодичность контроля правомерности назначения прав рекомендуется устанавливать с учетом:

а) численности работников, имеющих привилегированные права доступа;

б) результатов предыдущих проверок правомерности назначения прав.
"""


@pytest.mark.parametrize(
    "ref",
    ["прил. А п. А.2 подп. «а»", "прил. А п. А.2 подп. а", "п. А.2 пп. «а»", "прил. А А.2 а)",
     "подп. «а» п. А.2 прил. А", "подп. «а» п. А.2 приложения А"],
)  # fmt: skip
def test_a_sub_point_under_an_annex_point_is_not_the_annexs_letter(tmp_path: Path, ref: str) -> None:
    """«прил. А п. А.2 подп. «а»»: the Cyrillic annex letter «А» and the sub-point «а» fold alike; the path as
    spelled is the sub-point, not «А», «А.2» at the end of «прил. А п. А.2» read backwards."""
    root = _shelf_of(tmp_path, _ANNEXED, "ГОСТ Р 99002-2099", "gost")
    check = verify_quote(
        root, "а) численности работников, имеющих привилегированные права доступа", f"ГОСТ Р 99002-2099 {ref}"
    )
    assert (check.verdict, check.level, check.clause) == ("ok", "clause", "прил. А п. А.2 подп. «а»"), check.message


_ISO = """# ISO/IEC 99001 Information security

## 6.1.3 Information security risk treatment

The organization shall define and apply an information security risk treatment process to:

a) select appropriate information security risk treatment options, taking account of the assessment results;

b) determine all controls that are necessary to implement the chosen treatment options;

NOTE 1 Organizations can design controls as required, or identify them from any source.

NOTE 2 Annex A contains a list of possible information security controls for the organization.

c) produce a Statement of Applicability that contains the necessary controls and their justification.

## 6.2 Information security objectives

The organization shall establish information security objectives at relevant functions and levels.
"""

_GOST_NOTE = """# ГОСТ Р 99003-2099 Защита информации

## 4 Общие положения

4.2 Организация должна определить периодичность контроля с учетом:

а) численности работников, имеющих привилегированные права доступа;

б) результатов предыдущих проверок правомерности назначения прав.

Примечание — Периодичность проверок устанавливает руководитель службы информационной безопасности.

4.3 Организация документирует результаты контроля в журнале учета проверок.
"""


@pytest.mark.parametrize(
    ("text", "doc_id", "quote", "refs", "clause"),
    [
        (_ISO, "ISO/IEC 99001", "Annex A contains a list of possible information security controls",
         ["6.1.3 NOTE 2", "clause 6.1.3 NOTE 2", "§6.1.3 Note 2"], "§6.1.3 NOTE 2"),
        (_ISO, "ISO/IEC 99001", "produce a Statement of Applicability that contains the necessary controls",
         ["6.1.3 c)", "clause 6.1.3(c)"], "§6.1.3 item c"),
        (_GOST_NOTE, "ГОСТ Р 99003-2099", "Периодичность проверок устанавливает руководитель службы информационной",
         ["п. 4.2 примечание", "примечание к п. 4.2", "примечание п. 4.2"], "п. 4.2 примечание"),
    ],
)  # fmt: skip
def test_a_standards_note_is_a_clause_of_the_clause_it_follows(
    tmp_path: Path, text: str, doc_id: str, quote: str, refs: list[str], clause: str
) -> None:
    """ISO's «NOTE 2 …» and a ГОСТ's «Примечание — …» are notes to the clause they follow, cited «6.1.3 NOTE 2»,
    «п. 4.2 примечание» — not the text of its last list item; an item after the notes goes on from the one they
    closed («c)»)."""
    root = _shelf_of(tmp_path, text, doc_id, "standards")
    for ref in refs:
        check = verify_quote(root, quote, f"{doc_id} {ref}")
        assert (check.verdict, check.level, check.clause) == ("ok", "clause", clause), (ref, check.message)


_KOAP = """# Кодекс об административных правонарушениях тестовых полок

## Статья 13.11. Нарушение правил хранения сведений

1. Нарушение правил хранения сведений о пользователях полки - влечет наложение административного штрафа.

2. Повторное нарушение правил хранения сведений о пользователях - влечет дисквалификацию на срок до года.

Примечание. За административные проступки индивидуальные предприниматели несут ответственность как юридические лица.

## Статья 13.12. Нарушение правил защиты информации

1. Нарушение условий лицензии на шифрование информации - влечет наложение административного штрафа.

Примечания:

1. Под средствами шифрования понимаются программные и аппаратные средства тестовых полок.

2. Положения настоящей статьи не применяются к органам государственной власти тестовых полок.
"""


@pytest.mark.parametrize(
    ("quote", "refs", "clause"),
    [
        ("За административные проступки индивидуальные предприниматели несут ответственность",
         ["ст. 13.11 примечание", "примечание к ст. 13.11", "примечание к статье 13.11"], "ст. 13.11 примечание"),
        ("Положения настоящей статьи не применяются к органам государственной власти",
         ["ст. 13.12 примечание 2", "примечание 2 к ст. 13.12", "п. 2 примечания к ст. 13.12"],
         "ст. 13.12 примечание 2"),
        ("Нарушение условий лицензии на шифрование информации", ["ч. 1 ст. 13.12"], "ст. 13.12 ч. 1"),
    ],
)  # fmt: skip
def test_a_codes_notes_to_an_article_are_its_notes_not_its_last_part(
    tmp_path: Path, quote: str, refs: list[str], clause: str
) -> None:
    """A code's article ends with «Примечание. …» or «Примечания:» and numbered notes «1. …», «2. …»: they are the
    article's notes («примечание к ст. 13.11», «примечание 2 к ст. 13.12»), not its last part's text nor its parts
    1 and 2 a second time (which made «ч. 1 ст. 13.12» name two places)."""
    root = _shelf_of(tmp_path, _KOAP, "КоАП ТП", "codes")
    for ref in refs:
        check = verify_quote(root, quote, f"КоАП ТП {ref}")
        assert (check.verdict, check.level, check.clause) == ("ok", "clause", clause), (ref, check.message)


_DECREE = """# Постановление Правительства тестовых полок № 233

1. Утвердить прилагаемые Перечень систем тестовых полок и Положение о категорировании тестовых полок.

2. Органам власти обеспечить категорирование систем в течение года со дня вступления в силу.

3. Настоящее постановление вступает в силу с 1 сентября 2099 года и действует шесть лет.

УТВЕРЖДЕН постановлением Правительства тестовых полок № 233

## ПЕРЕЧЕНЬ СИСТЕМ ТЕСТОВЫХ ПОЛОК

| Наименование системы | Владелец |
|---|---|
| Система управления светофорными объектами | органы местного самоуправления |

УТВЕРЖДЕНО постановлением Правительства тестовых полок № 233

## ПОЛОЖЕНИЕ О КАТЕГОРИРОВАНИИ ТЕСТОВЫХ ПОЛОК

1. Настоящее Положение устанавливает порядок категорирования систем тестовых полок.

2. Категорирование проводит комиссия, назначаемая руководителем субъекта тестовых полок.
"""


def test_a_part_named_in_a_citation_is_where_its_point_is_looked_for(tmp_path: Path) -> None:
    """«Перечень п. 3»: the Перечень has no point 3, so the citation names nothing — it was proven at the decree's
    own «п. 3» (the part's name dropped), a clause-level `ok` for text the cited part does not hold."""
    rows = "".join(
        f"| Система тестовых полок номер {n} района {n} | органы власти района {n} |\n" for n in range(2, 120)
    )
    more = "".join(
        f"\n{n}. Комиссия рассматривает сведения о системе номер {n} в течение месяца.\n" for n in range(3, 90)
    )
    text = _DECREE.replace("органы местного самоуправления |\n", f"органы местного самоуправления |\n{rows}") + more
    root = _shelf_of(tmp_path, text, "ПП 233", "acts")
    assert {s.part for m in shelf.metas(root) for s in m.sections} == {"", "Перечень", "Положение"}  # pieces
    quote = "Настоящее постановление вступает в силу с 1 сентября 2099 года"
    assert verify_quote(root, quote, "ПП 233 Перечень п. 3").verdict == "unknown_ref"
    own = verify_quote(root, quote, "ПП 233 п. 3")
    assert (own.verdict, own.level, own.clause) == ("ok", "clause", "п. 3")
    got = verify_quote(
        root, "Категорирование проводит комиссия, назначаемая руководителем субъекта", "ПП 233 Положение п. 2"
    )
    assert (got.verdict, got.level, got.clause) == ("ok", "clause", "Положение п. 2"), got.message


def test_a_clause_id_in_quotes_is_read_whole_even_when_it_holds_the_documents_name(tmp_path: Path) -> None:
    """«How to Reference ASVS Requirements» NOTE of «OWASP ASVS 9.0.0»: the title's «ASVS» is the heading's word, not
    the document's name to cut out of the reference (the clause id was «not understood»)."""
    text = (
        "# OWASP ASVS 9.0.0\n\n## 1 Scope\n\n1.1 The standard covers the verification of web applications.\n\n"
        "## How to Reference ASVS Requirements\n\nEach requirement has an identifier in the format chapter.section.\n\n"
        "Note: The v preceding the version number in the format should always be lowercase.\n"
    )
    root = _shelf_of(tmp_path, text, "OWASP ASVS 9.0.0", "standards")
    quote = "The v preceding the version number in the format should always be lowercase."
    ref = "OWASP ASVS 9.0.0 «How to Reference ASVS Requirements» NOTE"
    got = verify_quote(root, quote, ref)
    assert (got.verdict, got.level, got.clause) == ("ok", "clause", "«How to Reference ASVS Requirements» NOTE"), (
        got.message
    )


def test_a_gosts_numbered_notes_printed_in_one_paragraph_are_notes_each(tmp_path: Path) -> None:
    """«Примечания 1 Для проверки … . 2 Результаты …» (a PDF ran the numbered notes into one paragraph): «примечание 1
    к п. 5.2.2» holds note 1 only — it held note 2 as well, as the named label «Примечания 1»."""
    text = (
        "# ГОСТ Р 99004-2099 Защита информации\n\n## 5 Требования\n\n"
        "5.2.2 Разработчик должен проверять сторонние компоненты на наличие известных уязвимостей.\n\n"
        "Примечания 1 Для проверки сторонних компонентов рекомендуется использовать базы данных уязвимостей. "
        "2 Результаты проверки сторонних компонентов хранят не менее трех лет после вывода из эксплуатации.\n\n"
        "5.2.3 Разработчик документирует результаты проверки в журнале учета.\n"
    )
    root = _shelf_of(tmp_path, text, "ГОСТ Р 99004-2099", "gost")
    second = "Результаты проверки сторонних компонентов хранят не менее трех лет"
    got = verify_quote(root, second, "ГОСТ Р 99004-2099 примечание 2 к п. 5.2.2")
    assert (got.verdict, got.level, got.clause) == ("ok", "clause", "п. 5.2.2 примечание 2"), got.message
    assert verify_quote(root, second, "ГОСТ Р 99004-2099 примечание 1 к п. 5.2.2").verdict == "wrong_clause"
