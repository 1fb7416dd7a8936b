"""Addresses of documents no family rule was written for: a guide's chapters and appendices, a manual's
unnumbered chapters, a resolution and the Rules it approves kept in one file, a contract's city line, a standard's
annex that numbers its table of controls afresh.

Each document is short enough to stay one file, where its headings are read from the Markdown it keeps.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.build.pipeline import DocOptions
from docshelf.errors import CitationError
from docshelf.shelf import store as shelf
from docshelf.text import cited
from docshelf.text.verify import verify_quote

_GUIDE = """# Guide to Widget Security

## Chapter 1 Introduction

This publication provides guidance on securing widgets in federal systems.

### 1.1 Purpose and Scope

The purpose of this document is to help organizations protect widget deployments.

## Chapter 2 The Fundamentals

Widgets process sensitive data and must be configured with care by their owners.

### 2.1 Widget Architecture

A widget consists of a controller, a data store and a management interface.

## Appendix D Glossary

A widget is a device that processes sensitive data for an organization.
"""

_MANUAL = """# Acme Server Administration Guide

## Installing the Server

The installer copies the server binaries into the program directory and registers the service.

## Configuring Storage

Storage pools are defined in the storage section of the configuration file.

### Pool Names

Each pool needs a unique name and a path that the service account can write.

## Backing Up the Catalog

The catalog is exported nightly to the backup directory by a scheduled task.
"""

_CONTRACT = """# ДОГОВОР ОКАЗАНИЯ УСЛУГ № 15

г. Москва

Общество «Ромашка», именуемое в дальнейшем «Заказчик», заключило настоящий договор о нижеследующем.

1. ПРЕДМЕТ ДОГОВОРА

1.1.Исполнитель обязуется оказать услуги по сопровождению программного обеспечения Заказчика.

2. ОБЯЗАННОСТИ СТОРОН

2.1.Провести обследование информационной системы Заказчика в течение десяти рабочих дней.
"""

_RU_MANUAL = """# Руководство администратора системы «Архив»

## Установка сервера

Программа установки копирует файлы сервера в каталог программы и регистрирует службу.

## Настройка хранилища

Пулы хранения задаются в разделе хранилища файла конфигурации системы.

1. Укажите имя пула и путь к каталогу хранения данных.

2. Перезапустите службу архива после изменения настроек.

## Резервное копирование

Каталог архива выгружается ежедневно в каталог резервных копий по расписанию.
"""

_ORDER = """# ФЕДЕРАЛЬНАЯ СЛУЖБА ПО ТЕХНИЧЕСКОМУ И ЭКСПОРТНОМУ КОНТРОЛЮ

ПРИКАЗ

Об утверждении Методики оценки угроз

1. Утвердить прилагаемую Методику оценки угроз безопасности информации.

2. Признать не подлежащим применению документ от 2008 года в части оценки угроз.

УТВЕРЖДЕНА приказом ФСТЭК России от 1 января 2020 г. N 99

## МЕТОДИКА ОЦЕНКИ УГРОЗ БЕЗОПАСНОСТИ ИНФОРМАЦИИ

1. Настоящая Методика определяет порядок и содержание работ по определению угроз безопасности.

2. Методика применяется для определения угроз в информационных системах органов власти.

2.1. Оценка угроз проводится с учётом возможностей нарушителей и способов реализации угроз.
"""

# ISO's Annex A numbers its table of controls afresh («5.1» beside the main text's own 5.1), split by a page; an
# annex restating the main text's points in a table is no numbering of its own.
_ISO = """# Information security management systems — Requirements

## 5 Leadership

5.1 Top management shall demonstrate leadership and commitment to the management system.

5.2 Top management shall establish an information security policy for the organization.

## 6 Planning

6.1 The organization shall plan actions to address risks and opportunities.

## Annex A (normative) Information security controls reference

| | Control name | Control |
|---|---|---|
| 5.1 | Policies for information security | Information security policy and topic-specific policies shall be defined. |
| 5.2 | Information security roles | Information security roles and responsibilities shall be defined and allocated. |
| 5.3 | Segregation of duties | Conflicting duties and conflicting areas of responsibility shall be segregated. |

12

| | Control name | Control |
|---|---|---|
| 5.4 | Contact with authorities | The organization shall establish and maintain contact with relevant authorities. |
| 6.1 | Screening | Background verification checks on all candidates shall be carried out prior to joining. |

## Annex B (informative) Requirements restated

| Clause | Requirement |
|---|---|
| 5.1 | Top management shall demonstrate leadership and commitment to the management system. |
| 5.2 | Top management shall establish an information security policy for the organization. |
| 6.1 | The organization shall plan actions to address risks and opportunities. |
"""

# A control catalogue as SP 800-53 rev. 5 prints it: the statement's «a.», «1.», then «Discussion:» (the
# control's, not its last item's) and enhancements «(1) ACCOUNT MANAGEMENT | …».
_CATALOGUE = """# Security and Privacy Controls

## 3.1 ACCESS CONTROL

### AC-2 ACCOUNT MANAGEMENT

Control:

a. Define and document the types of accounts allowed for use within the system;

b. Require conditions for group and role membership:

1. Authorized users of the system with a documented need;

2. Group and role membership reviewed by the account manager; and

Discussion: Examples of system account types include individual, shared, group, system and guest.

Control Enhancements:

(1) ACCOUNT MANAGEMENT | AUTOMATED SYSTEM ACCOUNT MANAGEMENT

Support the management of system accounts using automated mechanisms of the organization.

### AC-3 ACCESS ENFORCEMENT

Control: Enforce approved authorizations for logical access to information and system resources.
"""


# A verification standard: levels under unnumbered headings, chapters «V1 …», «V2 …» each heading its part.
_LEVELS = """# Widget Verification Standard

## Using the Standard

The standard defines three levels of verification for widget applications.

## Level 1

Level one is for low assurance levels and is completely penetration testable.

## V1 Architecture

Architecture requirements cover the design of every widget component.

## V2 Authentication

Authentication requirements cover how a widget establishes who its user is.
"""


@pytest.fixture(scope="module")
def plain_shelf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("plain")
    root = shelf.init(base / "shelf")
    for name, text, doc_id in (
        ("guide", _GUIDE, "SP 800-999"),
        ("manual", _MANUAL, "Acme Guide"),
        ("contract", _CONTRACT, "Договор 15"),
        ("order", _ORDER, "Приказ ФСТЭК 99"),
        ("ru-manual", _RU_MANUAL, "РА Архив"),
        ("iso", _ISO, "ISO 99001"),
        ("catalogue", _CATALOGUE, "SP 800-53r5"),
        ("levels", _LEVELS, "WVS 1.0"),
    ):
        source = base / f"{name}.md"
        source.write_text(text, encoding="utf-8")
        shelf.add(root, [source], DocOptions("", "general", doc_id), progress=lambda _m: None)
    return root


def _proven(root: Path, quote: str, ref: str) -> str:
    got = verify_quote(root, quote, ref)
    assert (got.verdict, got.level) == ("ok", "clause"), (ref, got.message)
    return got.fetch_ref


@pytest.mark.parametrize(
    ("quote", "ref", "innermost"),
    [
        ("Widgets process sensitive data and must be configured", "SP 800-999 Chapter 2", "SP 800-999 Chapter 2"),
        ("A widget consists of a controller, a data store", "SP 800-999 Chapter 2 §2.1", "SP 800-999 §2.1"),
        ("A widget is a device that processes sensitive data", "SP 800-999 App. D", "SP 800-999 Appendix D"),
        ("A widget is a device that processes sensitive data", "SP 800-999 Appendix D", "SP 800-999 Appendix D"),
    ],
)
def test_a_guides_chapters_and_appendices_are_clauses(plain_shelf: Path, quote: str, ref: str, innermost: str) -> None:
    assert _proven(plain_shelf, quote, ref) == innermost


def test_a_chapter_holds_its_sections_but_not_the_appendices_after_it(plain_shelf: Path) -> None:
    with pytest.raises(CitationError, match="not inside «Chapter 1»"):
        cited.fetch_ref(plain_shelf, "SP 800-999 Chapter 1 §2.1")
    chapter = cited.fetch_ref(plain_shelf, "SP 800-999 Chapter 2").text
    assert "2.1 Widget Architecture" in chapter and "Appendix D" not in chapter
    quote = "A widget is a device that processes sensitive data"
    assert verify_quote(plain_shelf, quote, "SP 800-999 Chapter 2").verdict == "wrong_clause"


def test_the_title_is_not_run_into_the_first_chapter(plain_shelf: Path) -> None:
    meta = next(m for m in shelf.metas(plain_shelf) if m.id == "SP 800-999")
    assert meta.title == "Guide to Widget Security"


def test_a_manuals_unnumbered_chapter_is_cited_by_its_heading(plain_shelf: Path) -> None:
    storage = "Storage pools are defined in the storage section of the configuration file."
    for ref in ("Acme Guide Configuring Storage", "Acme Guide «Configuring Storage»"):
        assert _proven(plain_shelf, storage, ref) == "Acme Guide «Configuring Storage»"
    # A sub-heading is its own clause, inside its chapter's.
    pool = "Each pool needs a unique name and a path that the service account can write."
    assert _proven(plain_shelf, pool, "Acme Guide Configuring Storage") == "Acme Guide «Pool Names»"
    assert _proven(plain_shelf, pool, "Acme Guide Pool Names") == "Acme Guide «Pool Names»"
    assert verify_quote(plain_shelf, storage, "Acme Guide Installing the Server").verdict == "wrong_clause"
    got = cited.fetch_ref(plain_shelf, "Acme Guide Backing Up the Catalog")
    assert got.text.lstrip("#").startswith(" Backing Up the Catalog\n") and got.text.endswith("by a scheduled task.")


def test_a_reference_to_a_document_without_numbers_names_a_place_it_has(plain_shelf: Path) -> None:
    with pytest.raises(CitationError) as err:
        cited.fetch_ref(plain_shelf, "Acme Guide п. 7")
    assert "e.g. «Acme Guide «Installing the Server»»" in str(err.value) and "п. 1»" not in str(err.value)


@pytest.mark.parametrize(
    ("ref", "innermost"),
    [
        ("Приказ ФСТЭК 99 Методика п. 2.1", "Приказ ФСТЭК 99 Методика п. 2.1"),
        ("п. 2.1 Методики, утверждённой Приказ ФСТЭК 99", "Приказ ФСТЭК 99 Методика п. 2.1"),
        ("Приказ ФСТЭК 99 Методики п. 2.1", "Приказ ФСТЭК 99 Методика п. 2.1"),
    ],
)
def test_the_points_of_an_approved_document_kept_in_the_acts_file_are_its_own(
    plain_shelf: Path, ref: str, innermost: str
) -> None:
    quote = "Оценка угроз проводится с учётом возможностей нарушителей"
    assert _proven(plain_shelf, quote, ref) == innermost
    # The act's own point 2 is not the Methodology's, and ends before the approval stamp.
    own = "Признать не подлежащим применению документ от 2008 года"
    assert _proven(plain_shelf, own, "Приказ ФСТЭК 99 п. 2") == "Приказ ФСТЭК 99 п. 2"
    assert "УТВЕРЖДЕНА" not in cited.fetch_ref(plain_shelf, "Приказ ФСТЭК 99 п. 2").text


def test_a_level_is_its_heading_and_a_chapter_its_id(plain_shelf: Path) -> None:
    """«Level 1» names the heading «Level 1» — the word «Level» is no filler that leaves «1» to mean chapter V1 —
    and «V1» names the chapter its heading labels (its successor «V2» heads the next part)."""
    level = "Level one is for low assurance levels and is completely penetration testable."
    chapter = "Architecture requirements cover the design of every widget component."
    assert _proven(plain_shelf, level, "WVS 1.0 Level 1") == "WVS 1.0 «Level 1»"
    assert _proven(plain_shelf, level, "WVS 1.0 «Level 1»") == "WVS 1.0 «Level 1»"
    assert _proven(plain_shelf, chapter, "WVS 1.0 V1") == "WVS 1.0 V1"
    assert verify_quote(plain_shelf, chapter, "WVS 1.0 Level 1").verdict == "wrong_clause"


def test_a_city_line_is_no_label(plain_shelf: Path) -> None:
    """«г. Москва» opens with the letter «г.», but no «а.», «б.», «в.» lead to it: no label is lost there."""
    meta = next(m for m in shelf.metas(plain_shelf) if m.id == "Договор 15")
    addresses = meta.quality["addresses"]
    assert addresses["unplaced"] == [] and addresses["printed"] == addresses["addressed"] == 4


def test_a_letter_is_a_label_when_the_one_before_it_is_printed_in_the_text() -> None:
    """«(b)» at a block start after «… (a) the first;» inside the paragraph before it is a label the build
    lost, and is reported; «г. Москва» with no «в.» anywhere before it is none."""
    from docshelf.build.addresses import printed_labels
    from docshelf.records import SectionMeta

    text = "# Terms\n\nThe licensee shall (a) pay the fee;\n\n(b) keep the records.\n\nг. Москва"
    got = printed_labels([SectionMeta("docs/t/terms.md", "Terms")], {"docs/t/terms.md": text})
    assert (got["printed"], got["addressed"], got["unplaced"]) == (1, 0, ["(b) keep the records."])


def test_a_russian_manuals_chapters_are_cited_by_their_headings_and_end_its_points(plain_shelf: Path) -> None:
    pools = "Пулы хранения задаются в разделе хранилища файла конфигурации"
    assert _proven(plain_shelf, pools, "РА Архив Настройка хранилища") == "РА Архив «Настройка хранилища»"
    backup = "Каталог архива выгружается ежедневно в каталог резервных копий"
    # The text under the next heading is that heading's, not the last point's before it.
    assert _proven(plain_shelf, backup, "РА Архив «Резервное копирование»") == "РА Архив «Резервное копирование»"
    assert verify_quote(plain_shelf, backup, "РА Архив п. 2").verdict == "wrong_clause"


_POLICY = "Information security policy and topic-specific policies shall be defined."


@pytest.mark.parametrize(
    ("quote", "ref", "innermost"),
    [
        (_POLICY, "ISO 99001 A.5.1", "§A.5.1"),
        (_POLICY, "ISO 99001 Annex A 5.1", "§A.5.1"),
        (_POLICY, "ISO 99001 Annex A.5.1", "§A.5.1"),
        ("Conflicting duties and conflicting areas of responsibility", "ISO 99001 control 5.3 of Annex A", "§A.5.3"),
        ("The organization shall establish and maintain contact", "ISO 99001 A.5.4", "§A.5.4"),  # after the page
        ("Background verification checks on all candidates", "ISO 99001 Annex A, control 6.1", "§A.6.1"),
    ],
)
def test_an_annex_numbering_its_table_afresh_is_cited_with_its_letter(
    plain_shelf: Path, quote: str, ref: str, innermost: str
) -> None:
    assert _proven(plain_shelf, quote, ref) == f"ISO 99001 {innermost}"


def test_the_main_texts_points_stay_its_own_beside_the_annexes_numbers(plain_shelf: Path) -> None:
    got = verify_quote(plain_shelf, _POLICY, "ISO 99001 5.1")
    assert got.verdict == "wrong_clause" and "it is in ISO 99001 §A.5.1" in got.message
    lead = "Top management shall demonstrate leadership and commitment"
    assert _proven(plain_shelf, lead, "ISO 99001 clause 5.1") == "ISO 99001 §5.1"
    # The annex restating the requirements is no numbering of its own: no «B.5.1» is made of it.
    meta = next(m for m in shelf.metas(plain_shelf) if m.id == "ISO 99001")
    ids = {c.id for _s, c in meta.clauses()}
    assert {"§A.5.1", "§A.5.2", "§A.5.3", "§A.5.4", "§A.6.1"} <= ids and not any(i.startswith("§B.") for i in ids)


def test_a_word_and_a_number_is_a_label_only_in_a_series() -> None:
    """«Step 2:» after «Step 1:» is a label the document prints; «AXFR 252 A request …», a row of a table of
    codes that no «AXFR 251» leads to, is none."""
    from docshelf.build.addresses import printed_labels
    from docshelf.records import SectionMeta

    text = "# Codes\n\nAXFR 252 A request for a transfer.\n\nMAILB 253 A request for mailbox records."
    got = printed_labels([SectionMeta("docs/t/codes.md", "Codes")], {"docs/t/codes.md": text})
    assert (got["printed"], got["unplaced"]) == (0, [])
    text = "# Steps\n\nStep 1: Open the console.\n\nStep 2: Press the button."
    got = printed_labels([SectionMeta("docs/t/steps.md", "Steps")], {"docs/t/steps.md": text})
    assert (got["printed"], got["addressed"]) == (2, 0)  # no clause was built here: both are reported


def test_a_russian_text_is_russian_whatever_its_file_is_called(tmp_path: Path) -> None:
    """No title found, a Latin file name: the text's own letters decide the language (and so «п. 5.1», not
    «§5.1»)."""
    root = shelf.init(tmp_path / "shelf")
    source = tmp_path / "prikaz_99.md"
    source.write_text(
        "5.1 Оператор обеспечивает регистрацию событий безопасности.\n\n5.2 Оператор хранит журнал.\n",
        encoding="utf-8",
    )
    shelf.add(root, [source], DocOptions("", "general", "Приказ 99"), progress=lambda _m: None)
    meta = next(m for m in shelf.metas(root) if m.id == "Приказ 99")
    assert meta.language == "ru" and {c.id for _s, c in meta.clauses()} >= {"п. 5.1", "п. 5.2"}


@pytest.mark.parametrize(
    ("quote", "ref", "innermost"),
    [
        ("Define and document the types of accounts allowed", "SP 800-53r5 AC-2a.", "SP 800-53r5 AC-2 item a"),
        ("Authorized users of the system with a documented need", "SP 800-53r5 AC-2b.1.", "SP 800-53r5 AC-2 item b.1"),
        (
            "Group and role membership reviewed by the account manager",
            "SP 800-53r5 AC-2 b.2",
            "SP 800-53r5 AC-2 item b.2",
        ),
        ("Examples of system account types include individual", "SP 800-53r5 AC-2", "SP 800-53r5 AC-2"),
        ("Support the management of system accounts using automated", "SP 800-53r5 AC-2(1)", "SP 800-53r5 AC-2(1)"),
    ],
)
def test_a_catalogues_statements_and_discussion_are_where_their_labels_are(
    plain_shelf: Path, quote: str, ref: str, innermost: str
) -> None:
    assert _proven(plain_shelf, quote, ref) == innermost
    if ref.endswith("AC-2"):  # the discussion is the control's own text, not its last item's
        assert verify_quote(plain_shelf, quote, "SP 800-53r5 AC-2b.2").verdict == "wrong_clause"
