"""Heading recognition by the document's own structure, and splitting into sections."""

from __future__ import annotations

import re

import pytest

from docshelf.build.split import split_document
from docshelf.build.structure import clause_id, find_headings
from docshelf.build.titles import guess_title
from docshelf.model import Block


def _law() -> tuple[Block, ...]:
    return (
        Block("РОССИЙСКАЯ ФЕДЕРАЦИЯ", bold=True),
        Block("ФЕДЕРАЛЬНЫЙ ЗАКОН", bold=True),
        Block("О ПЕРСОНАЛЬНЫХ ДАННЫХ", bold=True),
        Block("Принят Государственной Думой 8 июля 2006 года"),
        Block("Глава 1. ОБЩИЕ ПОЛОЖЕНИЯ", bold=True),
        Block("Статья 1. Сфера действия настоящего Федерального закона", bold=True),
        Block("1. Настоящим Федеральным законом регулируются отношения."),
        Block("2. Действие закона не распространяется на отношения"),
        Block("Статья 10.2-1. Особенности регулирования деятельности провайдера хостинга", bold=True),
        Block("1. Провайдер хостинга обязан."),
        Block("Глава 2. ПРИНЦИПЫ", bold=True),
        Block("Статья 20.1. Представление сведений", bold=True),
        Block("Текст статьи."),
    )


def test_law_levels_come_from_kinds_not_sizes() -> None:
    hs = find_headings(_law())
    assert [(h.kind, h.level, h.number) for h in hs] == [
        ("glava", 1, "1"),
        ("statya", 2, "1"),
        ("statya", 2, "10.2-1"),
        ("glava", 1, "2"),
        ("statya", 2, "20.1"),
    ]
    assert [clause_id(h) for h in hs] == ["гл. 1", "ст. 1", "ст. 10.2-1", "гл. 2", "ст. 20.1"]


def test_parts_of_articles_are_not_headings() -> None:
    texts = [h.text for h in find_headings(_law())]
    assert not any(t.startswith(("1.", "2.")) for t in texts)


def test_title_from_preamble_without_boilerplate() -> None:
    blocks = _law()
    assert guess_title(blocks, find_headings(blocks), "x") == "О ПЕРСОНАЛЬНЫХ ДАННЫХ"


def test_letter_spaced_and_undotted_headings() -> None:
    blocks = (
        Block("С т а т ь я  1. Основные понятия"),
        Block("Текст."),
        Block("Статья 137"),
        Block("1. Текст статьи."),
        Block("Г л а в а  2. Права"),
    )
    hs = find_headings(blocks)
    assert [(h.kind, h.number) for h in hs] == [("statya", "1"), ("statya", "137"), ("glava", "2")]
    assert hs[0].text == "С т а т ь я 1. Основные понятия"  # verbatim apart from collapsed spaces


def test_numbered_points_and_roman_sections_in_an_order() -> None:
    blocks = (
        Block("I. Общие положения", bold=True),
        Block("1. Настоящие Требования разработаны в соответствии с законом и применяются к объектам."),
        Block("II. Требования к обеспечению безопасности", bold=True),
        Block("2.1. Организационные меры", bold=True),
        Block("Приложение N 1"),
    )
    hs = find_headings(blocks)
    assert [(h.kind, h.number, h.level) for h in hs] == [
        ("roman", "I", 2),
        ("roman", "II", 2),
        ("num", "2.1", 3),
        ("prilozhenie", "1", 1),
    ]


def test_printed_table_of_contents_is_not_headings() -> None:
    toc = [Block(f"{n}. Section title {n} {n * 3}") for n in range(1, 6)]
    body = [Block("1. Introduction"), Block("Text."), Block("2. Overview"), Block("Text.")]
    hs = find_headings((*toc, *body))
    assert [h.text for h in hs] == ["1. Introduction", "2. Overview"]
    assert clause_id(hs[0], english=True) == "§1"


def test_split_by_article_with_chapter_groups() -> None:
    blocks = _law()
    sections = split_document(blocks, find_headings(blocks), max_chars=10_000, preamble_title="О ПЕРСОНАЛЬНЫХ ДАННЫХ")
    assert [s.clause for s in sections] == ["", "ст. 1", "ст. 10.2-1", "ст. 20.1"]
    assert sections[0].title == "О ПЕРСОНАЛЬНЫХ ДАННЫХ"
    assert sections[2].groups == ("Глава 1. ОБЩИЕ ПОЛОЖЕНИЯ",)
    assert sections[3].groups == ("Глава 2. ПРИНЦИПЫ",)
    assert sections[1].markdown.startswith("# Статья 1. Сфера действия настоящего Федерального закона\n\n1. Настоящим")
    assert all(re.fullmatch(r"\d{3}-[a-z0-9-]+", s.slug) for s in sections)
    assert sections[2].slug == "003-statia-10-2-1-osobennosti-regulirovaniia"


def test_long_article_is_cut_at_parts_with_its_heading_in_every_piece() -> None:
    parts = [Block(f"{n}. " + "Оператор обязан соблюдать требования. " * 20) for n in range(1, 9)]
    blocks = (Block("Статья 19. Меры по обеспечению безопасности", bold=True), *parts)
    sections = split_document(blocks, find_headings(blocks), max_chars=2500)
    assert len(sections) > 2
    assert all(s.markdown.startswith("# Статья 19. Меры по обеспечению безопасности\n") for s in sections)
    assert all(s.clause == "ст. 19" for s in sections)
    assert sections[0].title.startswith("Статья 19. Меры по обеспечению безопасности (ч. 1")
    assert len({s.slug for s in sections}) == len(sections)
    joined = "".join(s.markdown.split("\n", 2)[2] for s in sections)
    assert all(p.text.strip() in joined for p in parts)  # nothing lost


def test_editorial_blocks_rendered_as_quotes() -> None:
    blocks = (
        Block("Статья 7. Конфиденциальность", bold=True),
        Block("(в ред. закона от 25.07.2011 N 261-ФЗ)", editorial=True),
        Block("Текст."),
    )
    md = split_document(blocks, find_headings(blocks), max_chars=10_000)[0].markdown
    assert "> (в ред. закона от 25.07.2011 N 261-ФЗ)" in md


def _sp_blocks() -> tuple[Block, ...]:
    """A NIST-like body: a heading split over two lines, a heading whose number is not in the text
    layer, and numbered list items that look like short titles."""
    return (
        Block("Table of Contents", bold=True, page=2),
        Block("1 Purpose ........................ 1", page=2),
        Block("2 Requirements ................... 2", page=2),
        Block("2.1 General Requirements ......... 2", page=2),
        Block("2.2 Identity Resolution .......... 3", page=2),
        Block("1", bold=True, page=3),
        Block("Purpose", bold=True, page=3),
        Block("This section is informative.", page=3),
        Block("2 Requirements", bold=True, page=4),
        Block("General Requirements", bold=True, page=4),  # «2.1» is missing from the text layer
        Block("1. Resolution", page=4),
        Block("2. Validation", page=4),
        Block("3. Verification", page=4),
        Block("2.2", bold=True, page=5),
        Block("Identity Resolution", bold=True, page=5),
        Block("The CSP SHALL resolve the identity.", page=5),
    )


def test_the_documents_own_contents_decide_the_headings() -> None:
    from docshelf.build.completeness import contents_entries
    from docshelf.build.docmap import find_map

    source, entries = contents_entries((), _sp_blocks())
    assert source == "contents" and [e.number for e in entries] == ["1", "2", "2.1", "2.2"]
    blocks, mapped, missing = find_map(_sp_blocks(), entries, outline=False)
    assert missing == []
    hs = find_headings(blocks, mapped=mapped)
    assert [(h.text, clause_id(h, english=True), h.level) for h in hs] == [
        ("1 Purpose", "§1", 1),  # the number on its own line joined to its title
        ("2 Requirements", "§2", 1),
        ("2.1 General Requirements", "§2.1", 2),  # the number from the contents, the title as printed
        ("2.2 Identity Resolution", "§2.2", 2),
    ]
    assert "3. Verification" in [b.text for b in blocks]  # a list item, not a heading


def test_a_map_that_does_not_describe_the_text_is_ignored() -> None:
    from docshelf.build.completeness import ContentsEntry
    from docshelf.build.docmap import find_map

    entries = [ContentsEntry("7 Elsewhere", "7"), ContentsEntry("8 Nowhere", "8"), ContentsEntry("9 Other", "9")]
    blocks, mapped, missing = find_map(_sp_blocks(), entries, outline=False)
    assert blocks == _sp_blocks() and mapped == [] and missing == entries


@pytest.mark.parametrize(
    ("lines", "title"),
    [
        (["Утратил силу - Федеральный закон от 03.06.2006 г. N 73-ФЗ", "ВОДНЫЙ КОДЕКС"], "ВОДНЫЙ КОДЕКС"),
        (["This document is subject to BCP 78 and the IETF Trust's Legal Provisions", "BGP VPNs"], "BGP VPNs"),
        (["Standard 4.0.3", "Frontispiece ............................ 7"], "Standard 4.0.3"),
        (["NIST Special Publication 800-63A", "NIST Special Publication 800-63A"], "NIST Special Publication 800-63A"),
        (["С т а т ь я 37. Водопользование"], "Статья 37. Водопользование"),  # verbatim in the text
    ],
)
def test_the_title_is_not_a_status_line_a_notice_or_a_contents_line(lines: list[str], title: str) -> None:
    blocks = (*(Block(t, bold=True, size=1.4) for t in lines), Block("Body text of the document."))
    assert guess_title(blocks, [], "file-name") == title


@pytest.mark.parametrize(
    ("lines", "doc_id"),
    [
        (["NIST Special Publication 800-63A", "Digital Identity Guidelines"], "NIST SP 800-63A"),
        (["NIST Special Publication 800-171", "Revision 1"], "NIST SP 800-171 Rev. 1"),
        (["RFC: 793", "TRANSMISSION CONTROL PROTOCOL"], "RFC 793"),
        (["Application Security Verification Standard 4.0.3", "Final"], "OWASP ASVS 4.0.3"),
        (["ГОСТ Р 57580.1-2017", "Безопасность финансовых (банковских) операций"], "ГОСТ Р 57580.1-2017"),
        (["Руководящий документ", "Классификация по ГОСТ 34.003-90"], "file-name"),  # cites a ГОСТ, is none
        (
            ["Стандарт верификации требований к безопасности приложений 4.0.3", "Финальная версия"],
            "OWASP ASVS 4.0.3 (ru)",
        ),
        (
            ["Federal Register", "Vol. 85, No. 152", "Text.", "[FR Doc. 2020–17221 Filed 8–5–20; 8:45 am]"],
            "FR Doc. 2020-17221",
        ),
        (["Text.", "[FR Doc. 2020–17221 Filed 8–5–20; 8:45 am]"], "file-name"),  # a citation of a notice, not one
        # a legal database prints the decree's date and number above its name
        (["1 мая 2022 года", "N 250", "УКАЗ", "ПРЕЗИДЕНТА РОССИЙСКОЙ ФЕДЕРАЦИИ", "О мерах"], "Указ № 250"),
        # a long decree signed at its end: «Москва, Кремль … N 250» after every opening line
        (
            [
                "УКАЗ",
                "ПРЕЗИДЕНТА РОССИЙСКОЙ ФЕДЕРАЦИИ",
                "О мерах",
                *["Пункт указа."] * 30,
                "Президент Российской Федерации В.Путин",
                "Москва, Кремль 1 мая 2022 года N 250",
            ],
            "Указ № 250",
        ),
        (["УКАЗ", "ПРЕЗИДЕНТА РОССИЙСКОЙ ФЕДЕРАЦИИ", "О мерах", *["Пункт указа."] * 30], "file-name"),  # unsigned
    ],
)
def test_ids_as_people_cite_them(lines: list[str], doc_id: str) -> None:
    from docshelf.build.ids import derive_id

    assert derive_id(tuple(Block(t) for t in lines), "file-name") == doc_id


def test_two_contents_entries_set_in_one_line_become_two_headings() -> None:
    from docshelf.build.completeness import ContentsEntry
    from docshelf.build.docmap import find_map

    blocks = (
        Block("V3 Session Management", size=1.6),
        Block("Control Objective", size=1.3),
        Block("Sessions are unique to each individual.", page=0),
        Block("Security Verification Requirements V3.1 Fundamental Session Management Security", size=1.3),
        Block("Verify the application never reveals session tokens in URL parameters."),
    )
    entries = [
        ContentsEntry("V3 Session Management"),
        ContentsEntry("Control Objective"),
        ContentsEntry("Security Verification Requirements"),
        ContentsEntry("V3.1 Fundamental Session Management Security"),
    ]
    out, mapped, missing = find_map(blocks, entries, outline=False)
    assert missing == []
    assert [out[f.index].text for f in mapped] == [
        "V3 Session Management",
        "Control Objective",
        "Security Verification Requirements",
        "V3.1 Fundamental Session Management Security",
    ]


def test_lines_before_the_maps_first_heading_are_front_matter() -> None:
    from docshelf.build.completeness import ContentsEntry
    from docshelf.build.docmap import find_map

    blocks = (
        Block("Contents", bold=True, size=1.4, page=1),
        Block("Appendix C: Cryptography Standards", page=1),  # a contents line without leaders
        Block("Frontispiece", bold=True, size=1.4, page=2),
        Block("About the standard."),
        Block("Preface", bold=True, size=1.4, page=3),
        Block("Why the standard exists."),
        Block("Appendix C: Cryptography Standards", bold=True, size=1.4, page=4),
        Block("Algorithms and their strengths."),
    )
    entries = [
        ContentsEntry("Frontispiece", page=2),
        ContentsEntry("Preface", page=3),
        ContentsEntry("Appendix C: Cryptography Standards", page=4),
    ]
    out, mapped, _missing = find_map(blocks, entries, outline=True)
    assert [h.index for h in find_headings(out, mapped=mapped)] == [2, 4, 6]


def test_a_federal_register_document_is_titled_by_its_subject() -> None:
    blocks = (
        Block("This section of the FEDERAL REGISTER contains notices to the public."),
        Block("Proposed Rules", bold=True, size=2.0),
        Block("Federal Register", bold=True),
        Block("Airworthiness Directives; The Boeing Company Airplanes", bold=True),
        Block("AGENCY: Federal Aviation Administration (FAA), DOT. ACTION: Notice of proposed rulemaking."),
    )
    assert (
        guess_title(blocks, find_headings(blocks), "file-name")
        == "Airworthiness Directives; The Boeing Company Airplanes"
    )
    elsewhere = (Block("Airworthiness Directives", bold=True), Block("AGENCY: a word in another document"))
    assert guess_title(elsewhere, find_headings(elsewhere), "file-name") == "Airworthiness Directives"


def test_a_cover_title_is_its_display_lines_not_the_agency_authors_or_contents_after_them() -> None:
    """NIST SP 800-53, ASVS 5.0, NIST SP 800-171 as the PDF converter sees their covers."""
    nist = (
        Block("NIST Special Publication 800-53 Revision 3", size=0.95),
        Block("Recommended Security Controls for Federal Information Systems", size=1.75),
        Block("JOINT TASK FORCE TRANSFORMATION INITIATIVE", bold=True, size=0.9),
        Block("I N F O R M A T I O N S E C U R I T Y", size=2.0),
        Block("U.S. Department of Commerce", bold=True, size=0.9),
        Block("Body text of the publication."),
    )
    assert guess_title(nist, [], "file-name") == "Recommended Security Controls for Federal Information Systems"
    asvs = (
        Block("Application Security Verification Standard", bold=True, size=1.8),
        Block("Version 5.0.0", size=1.27),
        Block("May 2025", size=0.97),
        Block("Contents", bold=True, size=1.25),
        Block("Frontispiece", bold=True, size=0.95),
        Block("About the Standard . . . . . . . . . . 7"),
    )
    assert guess_title(asvs, [], "file-name") == "Application Security Verification Standard Version 5.0.0"
    cover = (
        Block("NIST Special Publication 800-171", bold=True, size=1.28),
        Block("Revision 1", bold=True, size=0.82),
        Block("Protecting Controlled Unclassified Information", bold=True, size=2.18),
        Block("RON ROSS PATRICK VISCUSO", bold=True),
        Block("Body text."),
    )
    assert guess_title(cover, [], "file-name") == (
        "NIST Special Publication 800-171 Revision 1 Protecting Controlled Unclassified Information"
    )
    decree = (
        Block("УКАЗ ПРЕЗИДЕНТА РОССИЙСКОЙ ФЕДЕРАЦИИ", bold=True, size=1.18),
        Block("О размерах должностных окладов", bold=True),  # nearly the size before it: the subject
        Block("1. Установить размеры должностных окладов согласно приложению."),
    )
    assert guess_title(decree, [], "file-name") == "УКАЗ ПРЕЗИДЕНТА РОССИЙСКОЙ ФЕДЕРАЦИИ О размерах должностных окладов"
    guide = (
        Block("МЕТОДИЧЕСКИЕ РЕКОМЕНДАЦИИ", bold=True, size=1.27),
        Block("по подготовке тестовых данных", bold=True, size=1.09),
        Block("Настоящие рекомендации применяются при подготовке данных."),
    )
    assert guess_title(guide, [], "file-name") == "МЕТОДИЧЕСКИЕ РЕКОМЕНДАЦИИ по подготовке тестовых данных"


def test_a_bold_act_title_runs_over_all_its_lines_and_past_its_date_line() -> None:
    """A Word act: every title line bold at the body's size, the date plain between them, and more than
    three lines; the approval stamp after it is not the title."""
    act = (
        Block("ПРАВИТЕЛЬСТВО РОССИЙСКОЙ ФЕДЕРАЦИИ", bold=True),
        Block("ПОСТАНОВЛЕНИЕ", bold=True),
        Block("от 23 мая 2006 г. N 306"),
        Block("ОБ УТВЕРЖДЕНИИ ПРАВИЛ", bold=True),
        Block("УСТАНОВЛЕНИЯ И ОПРЕДЕЛЕНИЯ НОРМАТИВОВ ПОТРЕБЛЕНИЯ", bold=True),
        Block("КОММУНАЛЬНЫХ УСЛУГ", bold=True),
        Block("Утверждено решением председателя комиссии", bold=True),
        Block("В соответствии со статьями 156 и 157 Жилищного кодекса Правительство постановляет:"),
        Block("ОБЩИЕ ПОЛОЖЕНИЯ", bold=True),
    )
    assert guess_title(act, [], "file-name") == (
        "ПОСТАНОВЛЕНИЕ ОБ УТВЕРЖДЕНИИ ПРАВИЛ УСТАНОВЛЕНИЯ И ОПРЕДЕЛЕНИЯ НОРМАТИВОВ ПОТРЕБЛЕНИЯ КОММУНАЛЬНЫХ УСЛУГ"
    )


def test_a_line_without_words_is_never_a_heading_or_a_title() -> None:
    """A web page printed to PDF: the site's phone number and the date in big type head every page."""
    blocks = (
        Block("+7 (495) 123-45-67", size=1.6, bold=True),
        Block("01.12.2026", kind="heading", level=2),
        Block("Порядок подачи обращений", size=1.6, bold=True),
        Block("Обращение подаётся в письменной форме."),
    )
    headings = find_headings(blocks)
    assert [blocks[h.index].text for h in headings] == ["Порядок подачи обращений"]
    assert guess_title(blocks, headings, "file-name") == "file-name"  # not the phone number: the caller's fallback
    titled = (Block("Положение о приёме обращений", bold=True), *blocks)
    assert guess_title(titled, find_headings(titled), "file-name") == "Положение о приёме обращений"


def test_a_short_numbered_sentence_is_not_a_heading_but_a_short_titled_line_with_a_period_is() -> None:
    blocks = (
        Block("1. Introduction"),
        Block("This document describes the protocol and its messages in detail for implementers."),
        Block("2. BGP Error Handling."),  # RFC style: a title that ends with a period
        Block("An error is reported with a NOTIFICATION message and the connection is closed."),
        Block("3. Limit unsuccessful logon attempts."),  # a requirement, in sentence case
        Block("4. Security Considerations"),
        Block("The protocol relies on the transport for its security."),
    )
    titles = [blocks[h.index].text for h in find_headings(blocks)]
    assert "2. BGP Error Handling." in titles and "3. Limit unsuccessful logon attempts." not in titles


def test_an_outline_without_numbers_finds_headings_that_print_them_and_entries_out_of_page_order() -> None:
    # NIST AI RMF, BIND ARM, SSDF: the outline says «Scope of Document» where the page prints «1.1 Scope of
    # Document»; «Part 1» points to page 1 though it is printed on page 5; «Note to Readers» is listed
    # after «Executive Summary» but printed before it; «Appendix A— The SSDF …» is printed without its
    # «Appendix A».
    from docshelf.build.completeness import contents_entries
    from docshelf.build.docmap import find_map

    blocks = (
        Block("Cover of the framework", page=1),
        Block("Note to Readers", page=3, bold=True),
        Block("Readers are asked to comment.", page=3),
        Block("Executive Summary", page=4, bold=True),
        Block("The summary of the framework.", page=4),
        Block("Part 1: Foundational Information", page=5, bold=True),
        Block("1. Framing Risk", page=5, bold=True),
        Block("Risk is framed here.", page=5),
        Block("1.1 Scope of Document", page=6, bold=True),
        Block("The scope is stated.", page=6),
        Block("1.2 Organization of This Document", page=7, bold=True),
        Block("The document is organized.", page=7),
        Block("The SSDF and Executive Order", page=9, bold=True),
        Block("The order charged agencies.", page=9),
    )
    outline = (
        (1, "Executive Summary", 4),
        (1, "Note to Readers", 3),
        (1, "Part 1: Foundational Information", 1),
        (1, "Framing Risk", 5),
        (2, "Scope of Document", 6),
        (2, "Organization of This Document", 7),
        (1, "Appendix A— The SSDF and Executive Order", 9),
    )
    source, entries = contents_entries(outline, blocks)
    out, mapped, missing = find_map(blocks, entries, outline=source == "outline")
    assert missing == []
    hs = find_headings(out, mapped=mapped)
    assert [(h.text, clause_id(h, english=True)) for h in hs] == [
        ("Note to Readers", ""),
        ("Executive Summary", ""),
        ("Part 1: Foundational Information", ""),
        ("1. Framing Risk", "§1"),
        ("1.1 Scope of Document", "§1.1"),  # the number the page prints, the outline leaves out
        ("1.2 Organization of This Document", "§1.2"),
        ("The SSDF and Executive Order", "Appendix A"),  # the label the outline gives, the page leaves out
    ]


def test_an_outline_that_bookmarks_paragraphs_counts_only_its_headings_and_says_so() -> None:
    from docshelf.build.completeness import ContentsEntry, contents_entries, paragraph_bookmark

    outline = (
        (1, "THE PROCESS", 42),
        (2, "Potential Inputs:  Risk management strategy; mission or business objectives; current threat data.", 43),
        (2, "Primary Responsibility:  Head of Agency.", 43),
        (1, "Quick link to summary table for RMF tasks, responsibilities, and supporting roles.", 44),
        (2, "(a) in the course of an activity which falls outside the scope of Union law;", 45),
        (2, "§ 11.10 Controls for closed systems.", 46),
        (2, "Appendix A: Descriptions of AI Actor Tasks from Figures 2 and 3", 47),
    )
    _source, entries = contents_entries(outline, ())
    # A point bookmarked with its whole sentence is a paragraph too; the named heading «§ 11.10 …» is not.
    assert [e.title[:12] for e in entries] == ["THE PROCESS", "§ 11.10 Cont", "Appendix A: "]
    assert paragraph_bookmark(ContentsEntry("Primary Responsibility: Head of Agency."))
    assert paragraph_bookmark(ContentsEntry("Supporting Role: Mission or Business Owner; System Security Officer.65F"))
    headings = ["Existing Systems", "Notes for BIND 9.16.19", "PART 11—ELECTRONIC RECORDS; ELECTRONIC SIGNATURES"]
    headings += ["It’s Not Working; How Can I Figure Out What’s Wrong?", "Case Study: How the Agency Built Its Plan"]
    assert not any(paragraph_bookmark(ContentsEntry(h)) for h in headings)


def test_an_outline_of_numbered_paragraphs_is_no_map() -> None:
    """GDPR as a Word export: every numbered paragraph and point is an outline entry and no article is. Such
    an outline maps nothing (the body's headings do), while an outline whose few numbered entries end in a
    full stop («3. Порядок проведения аттестации объектов информатизации.») keeps them as headings."""
    from docshelf.build.completeness import contents_entries, paragraph_bookmarks

    paragraphs = (
        (1, "1. This Regulation lays down rules relating to the protection of natural persons.", 109),
        (1, "2. This Regulation does not apply to the processing of personal data:", 110),
        (1, "(a) in the course of an activity which falls outside the scope of Union law;", 110),
        (1, "(a) Union law; or", 121),
        (1, "3. Paragraph 1 shall not affect the general contract law of Member States.", 124),
    )
    assert contents_entries(paragraphs, ()) == ("none", [])
    assert len(paragraph_bookmarks(paragraphs)) == 5
    headings = (
        (1, "1. Общие положения.", 1),
        (1, "2. Требования к защите информации", 2),
        (1, "3. Порядок проведения аттестации объектов информатизации.", 3),
        (2, "3.1. Подготовка к аттестации", 3),
    )
    source, entries = contents_entries(headings, ())
    assert source == "outline" and [e.number for e in entries] == ["1", "2", "3", "3.1"]
    assert paragraph_bookmarks(headings) == []


def _word_contents_blocks() -> tuple[Block, ...]:
    """A word processor's document whose contents field was not updated: contents lines without dot leaders,
    and a body that numbers its headings otherwise («4.1. Other Contacts», listed «5.»)."""
    contents = ["1. System Name 3", "2. System Owner 3", "3. Authorizing Official 4", "5. Other Designated Contacts 4"]
    return (
        Block("Table of Contents", bold=True, page=1),
        *(Block(line, page=1) for line in contents),
        Block("1. System Name", kind="heading", level=1, page=3),
        Block("The system is named here.", page=3),
        Block("2. System Owner", kind="heading", level=1, page=3),
        Block("The owner is named here.", page=3),
        Block("3. Authorizing Official", kind="heading", level=1, page=4),
        Block("The official is named here.", page=4),
        Block("3.1. Other Designated Contacts", kind="heading", level=2, page=4),
        Block("Other contacts are named here.", page=4),
    )


def test_a_contents_page_without_leaders_lists_the_headings_and_is_none_of_them() -> None:
    from docshelf.build.completeness import contents_blocks, contents_entries
    from docshelf.build.docmap import find_map

    blocks = _word_contents_blocks()
    source, entries = contents_entries((), blocks)
    assert source == "contents" and contents_blocks(blocks) == frozenset({1, 2, 3, 4})
    _out, mapped, missing = find_map(blocks, entries, outline=False, contents=contents_blocks(blocks))
    assert missing == []
    # each entry found at the body's heading, not at its own contents line; the body's number stands
    assert [(m.index, m.number, m.listed) for m in mapped] == [
        (5, "1", ""),
        (7, "2", ""),
        (9, "3", ""),
        (11, "3.1", "5"),
    ]
    # without the contents page's blocks set aside, the contents lines would be taken for the headings
    _out, unaware, _missing = find_map(blocks, entries, outline=False)
    assert [m.index for m in unaware][:3] == [1, 2, 3]


def test_a_templates_control_headings_the_contents_does_not_list_head_sections() -> None:
    """A security plan template lists its chapters in its contents, not its controls; the controls' styled headings
    («Remote Access (AC-17)», «Control Enhancement AC-17 (1)») still head sections, the same text unstyled does not."""
    from docshelf.build.completeness import ContentsEntry
    from docshelf.build.docmap import find_map

    blocks = (
        Block("1. Introduction", kind="heading", level=1),
        Block("This plan describes the system."),
        Block("2. Minimum Security Controls", kind="heading", level=1),
        Block("Remote Access (AC-17)", kind="heading", level=1, bold=True),
        Block("The organization establishes usage restrictions."),
        Block("Control Enhancement AC-17 (1)", kind="heading", level=1, bold=True),
        Block("The information system monitors remote access."),
        Block("Remote access (AC-17)"),  # a line of text naming the control
        Block("Authorized Access Control (AC.L2-3.1.1)", kind="heading", level=1, bold=True),  # any id with a number
        Block("The organization limits system access to authorized users."),
        Block("Security Categorization (FIPS 199)", kind="heading", level=1, bold=True),  # a standard's name, no id
        Block("3. Attachments", kind="heading", level=1),
    )
    entries = [ContentsEntry("1. Introduction", "1"), ContentsEntry("2. Minimum Security Controls", "2")]
    entries.append(ContentsEntry("3. Attachments", "3"))
    out, mapped, _missing = find_map(blocks, entries, outline=False)
    heads = [(h.text, clause_id(h, english=True)) for h in find_headings(out, mapped=mapped)]
    assert heads == [
        ("1. Introduction", "§1"),
        ("2. Minimum Security Controls", "§2"),
        ("Remote Access (AC-17)", "AC-17"),
        ("Control Enhancement AC-17 (1)", "AC-17(1)"),
        ("Authorized Access Control (AC.L2-3.1.1)", "AC.L2-3.1.1"),
        ("3. Attachments", "§3"),
    ]


def test_an_extract_that_leaves_sections_out_keeps_the_sections_it_prints() -> None:
    """A standard's extract prints «4 Общие положения» then «7 Требования …» (5 and 6 left out): «7» opens an
    outline of its own — «7.1» comes next — and is a heading, not a stray number filed under «4»; a number that
    jumps with no first child after it (a list item «12 …» inside «4») is none."""
    blocks = [b for n in (1, 2, 3, 4) for b in (Block(f"{n} Общие положения части {n}", bold=True), Block("Текст."))]
    blocks += [Block("12 позиций учета хранятся отдельно", bold=True), Block("Текст раздела.")]
    blocks += [Block("7 Требования к процессу управления доступом", bold=True), Block("Текст раздела.")]
    blocks += [Block("7.1 Общие требования", bold=True), Block("Текст."), Block("7.2 Состав мер", bold=True)]
    assert [h.number for h in find_headings(tuple(blocks))] == ["1", "2", "3", "4", "7", "7.1", "7.2"]
    # an excerpt that opens at «5 Organizational controls» with «5.1 …» under it
    excerpt = [Block("5 Organizational controls", bold=True), Block("Текст."), Block("5.1 Policies", bold=True)]
    excerpt += [Block("Text."), Block("5.2 Roles and responsibilities", bold=True), Block("Text.")]
    assert [h.number for h in find_headings(tuple(excerpt))] == ["5", "5.1", "5.2"]
