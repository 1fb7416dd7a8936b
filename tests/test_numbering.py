"""Numbering read from the document: every printed label is an address, in any scheme and format.

The property: for documents generated in many numbering schemes (tests/numbergen.py), rendered as
Markdown, PDF and DOCX, every labelled block's honest sentence verifies ``ok`` at clause level when cited
by its innermost printed label, ``fetch`` by that citation returns the block's text, and a mutated
sentence is never ``ok``.
"""

from __future__ import annotations

from pathlib import Path

import numbergen
import pytest

from docshelf.build.pipeline import DocOptions
from docshelf.errors import CitationError
from docshelf.law.numbering import address_key, read_label, roman_value
from docshelf.shelf import store as shelf
from docshelf.text import cited, verify

SCHEMES = numbergen.schemes()


def test_a_label_is_read_in_any_scheme() -> None:
    spelled = {
        "6.1.1 Изложение": ("n.n.n", "6.1.1", "6.1"),
        "2.1.Провести работы": ("n.n", "2.1", "2"),
        "A.5.1 Policies": ("X.n.n", "A.5.1", "A.5"),
        "PR.AC-4: Access": ("XX.XX-n", "PR.AC-4", "PR.AC"),
        "AC-2 (1) Automated": ("ID-n(n)", "1", "AC-2"),
        "(iv) the fourth": ("(i)", "iv", ""),
        "b. second": ("a.", "b", ""),
        "а) наименование": ("я)", "а", ""),
        "3.1 автоматизированная система; АС: Система": ("n.n", "3.1", "3"),  # a term of a terms section
        "3.2 access control: means to ensure": ("n.n", "3.2", "3"),
        "Step 2: Install the agent": ("step n", "Step 2", ""),  # a label named by a word the document repeats
        "Safeguard 1.2 Establish": ("safeguard n.n", "Safeguard 1.2", "Safeguard 1"),
        "Этап 3 — анализ": ("этап n", "Этап 3", ""),
        "1.3A Virtualisation": ("n.n", "1.3A", "1"),  # inserted after 1.3 by an amendment
        "4.2a The new clause": ("n.n", "4.2a", "4"),
        "(1A) The duty": ("(1)", "1A", ""),
    }
    for text, (style, atom, parent) in spelled.items():
        first = read_label(text)[0]
        assert (first.style, first.atom, first.parent) == (style, atom, parent), text
    assert read_label("2.1.Провести")[0].glued
    # A year, a measure and a figure run into a word are no labels.
    assert read_label("2023 г. был принят") == read_label("3.5 мм толщина") == read_label("6.1Текст") == []
    # A caption, a page line or a kind the grammar names is no word-named label.
    assert read_label("Table 1 Results") == read_label("Рисунок 2 — Схема") == read_label("Page 3 of 9") == []
    assert read_label("Article 5 Scope") == read_label("Version 2.0 Draft") == []
    assert [r.style for r in read_label("(i) x")] == ["(a)", "(i)"]  # the ninth letter or the first numeral
    assert roman_value("xiv") == 14 and roman_value("ic") == 0


def test_an_address_is_one_whatever_words_and_brackets_wrap_it() -> None:
    assert address_key("§5.3.2 item 5.b") == address_key("5.3.2(5)(b)") == address_key("SP 5.3.2 item 5 b")[1:]
    assert address_key("AC-2 (1)") == address_key("AC-2(1)") == ("ac-2", "1")
    assert address_key("AC-2a.1.") == address_key("AC-2 item a.1") == ("ac-2", "a.1")  # a control's statement
    assert address_key("PR.AC-4") == ("pr.ac-4",) and address_key("SC-7") == ("sc-7",)
    assert address_key("§ 11.10(a)(1)") == ("11.10", "a", "1")
    assert address_key("п. 6.1.1") == address_key("пункт 6.1.1") == ("6.1.1",)


@pytest.fixture(scope="module")
def generated_shelf(tmp_path_factory: pytest.TempPathFactory, fonts: None) -> Path:
    base = tmp_path_factory.mktemp("numbering")
    root = shelf.init(base / "shelf", name="Numbering schemes")
    for scheme in SCHEMES:
        md = base / f"{scheme.name}.md"
        md.write_text(numbergen.markdown(scheme), encoding="utf-8")
        pdf = numbergen.write_pdf(scheme, base / f"{scheme.name}.pdf")
        two = numbergen.write_pdf(scheme, base / f"{scheme.name}-2col.pdf", columns=2)
        word = numbergen.write_docx(scheme, base / f"{scheme.name}.docx")
        for source, fmt in ((md, "md"), (pdf, "pdf"), (two, "pdf2"), (word, "docx")):
            opts = DocOptions(source="", category="gen", id=f"GEN-{scheme.name}-{fmt}")
            shelf.add(root, [source], opts, progress=lambda _m: None)
    return root


# «pdf2»: the same PDF set in two columns, sentences and points running on from one column into the next; «docx»:
# the Word file, its headings in Heading 2.
FORMATS = ("md", "pdf", "pdf2", "docx")
CASES = [pytest.param(scheme, fmt, id=f"{scheme.name}-{fmt}") for scheme in SCHEMES for fmt in FORMATS]


@pytest.mark.parametrize(("scheme", "fmt"), CASES)
def test_every_printed_label_is_an_address_and_its_sentence_proves_there(
    generated_shelf: Path, scheme: numbergen.Scheme, fmt: str
) -> None:
    doc = f"GEN-{scheme.name}-{fmt}"
    failures = []
    for block in (b for b in scheme.blocks if b.sentence):
        ref = f"{doc} {block.citation}"
        got = verify.verify_quote(generated_shelf, block.sentence, ref)
        if (got.verdict, got.level) != ("ok", "clause"):
            failures.append(f"{ref}: {got.verdict}/{got.level} {got.message}")
            continue
        text = cited.fetch_ref(generated_shelf, ref).text
        # A labelled block opens its clause; a paragraph without a label is inside its heading's.
        if not (text.startswith(block.text) if block.text != block.sentence else block.text in text):
            failures.append(f"{ref}: fetch returned {text[:120]!r}")
        # The ok names the innermost clause to cite; fetching it gives back the quoted sentence.
        if block.sentence not in cited.fetch_ref(generated_shelf, got.fetch_ref).text:
            failures.append(f"{ref}: fetch_ref {got.fetch_ref!r} does not hold the sentence")
        mutated = block.sentence.replace("уникальное", "обычное").replace("unique", "ordinary")
        if verify.verify_quote(generated_shelf, mutated, ref).verdict == "ok":
            failures.append(f"{ref}: a mutated sentence is ok")
    assert failures == []


def test_a_citation_finer_than_any_clause_is_refused_with_its_place_in_the_tree(generated_shelf: Path) -> None:
    with pytest.raises(CitationError) as err:
        cited.fetch_ref(generated_shelf, "GEN-gost-md п. 1.2.9")
    message = str(err.value)
    assert "Closest: п. 1.2, п. 1.2.1" in message  # the parent, then the siblings


def test_a_shaped_label_the_document_lacks_is_refused_with_its_neighbours(generated_shelf: Path) -> None:
    """«T1059.009» is read whole as a label of the document's numbering; no clause has it: the message says so and
    lists its parent and siblings first."""
    with pytest.raises(CitationError) as err:
        cited.fetch_ref(generated_shelf, "GEN-shape-techniques-md T1059.009")
    message = str(err.value)
    assert "has no clause «T1059.009»" in message and "Closest: T1059, T1059.001, T1059.002" in message
    assert verify.verify_quote(generated_shelf, "x " * 8, "GEN-shape-techniques-md T1059.009").verdict == "unknown_ref"


def test_fetch_by_ref_returns_exactly_the_clause_with_its_span(generated_shelf: Path) -> None:
    got = cited.fetch_ref(generated_shelf, "GEN-cfr-paragraphs-md § 2.10(b)(1)")
    assert (got.clause, got.level) == ("§2.10(b)(1)", "clause")
    whole = cited.reader.fetch(generated_shelf, got.path).text
    assert whole[got.span[0] : got.span[1]] == got.text and got.text.startswith("(1) ")
    with pytest.raises(CitationError):
        cited.fetch_ref(generated_shelf, "GEN-cfr-paragraphs-md")  # a whole document is no clause


def test_a_contract_section_is_cited_as_its_division(generated_shelf: Path) -> None:
    """«раздел 2» of a contract whose sections are headed «2. ОБЯЗАННОСТИ СТОРОН» is that section."""
    block = next(b for s in SCHEMES if s.name == "contract-glued" for b in s.blocks if b.citation == "п. 2.1")
    got = verify.verify_quote(generated_shelf, block.sentence, "GEN-contract-glued-md раздел 2")
    assert (got.verdict, got.level, got.fetch_ref) == ("ok", "clause", "GEN-contract-glued-md п. 2.1")
    assert cited.fetch_ref(generated_shelf, "GEN-contract-glued-md раздел 2").clause == "п. 2"


def test_the_address_measure_counts_labelled_headings_and_not_a_printed_contents_page() -> None:
    from docshelf.build.addresses import printed_labels
    from docshelf.records import Clause, SectionMeta

    contents = (
        "1.1 Scope . . . . . . . . . 7\n\n1.2 Zones . . . . . . . . . 8\n\n2 Release Notes\n\n2.1 Notes . . . . . . 9"
    )
    scope = "# 1.1 Scope of Document\n\n> Manual · §1.1 · p. 7\n\nThe scope.\n\n(a) first item\n\n(b) second item"
    records = [
        SectionMeta("docs/m/001.md", "Contents"),
        SectionMeta("docs/m/002.md", "1.1 Scope", clause="§1.1", clauses=(Clause("§1.1", 0, len(scope)),)),
    ]
    got = printed_labels(records, {"docs/m/001.md": contents, "docs/m/002.md": scope})
    # «# 1.1 Scope» is a label the page prints, and a clause; «(a)», «(b)» are labels left unplaced;
    # «2 Release Notes» on the contents page is the map's, not the text's.
    assert (got["printed"], got["addressed"], got["unplaced"]) == (3, 1, ["(a) first item", "(b) second item"])


def test_a_date_a_line_break_left_at_a_blocks_start_is_no_label() -> None:
    """«18 December 2000 on the protection …» (a footnote's citation wrapped before its date) is no label;
    «18 The controller …» is."""
    from docshelf.law.numbering import block_labels

    assert block_labels("18 December 2000 on the protection of individuals") == []
    assert block_labels("9 сентября 2015 г. утверждены") == []
    assert [label.atom for label in block_labels("18 The controller shall keep records.")] == ["18"]


def test_a_gap_is_reported_in_a_points_series_but_not_in_a_codes_section_numbers() -> None:
    """«1.2 is followed by 1.4» loses a label; a CFR part's «§ 164.502», «§ 164.504» are numbered with room."""
    from docshelf.build.addresses import printed_labels
    from docshelf.records import Clause, SectionMeta

    def record(n: int, clause: str) -> SectionMeta:
        return SectionMeta(f"docs/m/{n}.md", clause, clause=clause, clauses=(Clause(clause, 0, 10),))

    ids = ["§1.2", "§1.4", "§164.502", "§164.504"]
    got = printed_labels([record(n, cid) for n, cid in enumerate(ids)], {})
    assert got["gaps"] == ["1.2 is followed by 1.4"]


def test_a_number_glued_to_a_name_in_capitals_with_dots_is_no_label() -> None:
    """A zone file's «10.IN-ADDR.ARPA. PTR …» (RFC 1035) is a host name; «2.1.Провести» and «1.ПРЕДМЕТ» are
    points glued to their first word."""
    from docshelf.law.numbering import block_labels

    assert block_labels("10.IN-ADDR.ARPA. PTR MILNET-GW.ISI.EDU.") == []
    assert block_labels("22.0.2.10.IN-ADDR.ARPA. PTR MILNET-GW.ISI.EDU.") == []
    assert [(x.atom, x.glued) for x in block_labels("2.1.Провести приёмку работ.")] == [("2.1", True)]
    assert [(x.atom, x.glued) for x in block_labels("1.ПРЕДМЕТ ДОГОВОРА")] == [("1", True)]


def test_a_label_no_family_rule_names_is_read_by_its_shape() -> None:
    """The last part of a label is its value, what comes before its series, and the label it nests under is
    its container; the style makes labels of one series comparable whatever their letters."""
    spelled = {
        "T1059.001 PowerShell": ("T1059.001", 1, "T1059.", "T1059"),
        "T1059 Command": ("T1059", 1059, "T", ""),
        "AC.L2-3.1.3 Control the flow": ("AC.L2-3.1.3", 3, "AC.L2-3.1.", "AC.L2-3.1"),
        "APP.1.1.A3 Use": ("APP.1.1.A3", 3, "APP.1.1.A", "APP.1.1"),  # not «APP.1.1» glued to «A3»
        "MASVS-STORAGE-1 The app": ("MASVS-STORAGE-1", 1, "MASVS-STORAGE-", "MASVS-STORAGE"),
        "01.b Registration": ("01.b", 2, "01.", ""),  # a bare number is too common a container to be evidence
        "Q3. What is": ("Q3", 3, "Q", ""),
        "1-2 The handbook": ("1-2", 2, "1-", ""),
        "М-01 Мера": ("М-01", 1, "М-", "М"),
        "A02:2021 – Cryptographic Failures": ("A02:2021", 2, "A", ""),
    }
    for text, (atom, value, series, container) in spelled.items():
        first = read_label(text)[0]
        assert first.style.startswith("~"), text
        assert (first.atom, first.value, first.parent, first.container) == (atom, value, series, container), text
    # Siblings share a style; a padded number keeps its width in the successor.
    assert read_label("T1059.002 X")[0].style == read_label("T1204.001 X")[0].style
    from docshelf.law.outline import successor

    assert successor(read_label("T1059.009 X")[0]).atom == "T1059.010"  # type: ignore[union-attr]
    assert successor(read_label("01.a X")[0]).atom == "01.b"  # type: ignore[union-attr]
    # A date, a time, a year, a bare or dotted number and a word are no shape; a family reader keeps its own.
    for text in ("12.05.2023 Приказ", "10:30 The meeting", "2023 The year", "1.1 Scope", "ISO 27001 Scope"):
        assert all(not r.style.startswith("~") for r in read_label(text)), text
    assert [r.style for r in read_label("PR.AC-4: Access")] == ["XX.XX-n"]
    assert [r.style for r in read_label("УПД.1 Управление")] == ["ЯЯЯ.n"]


def test_a_shape_heading_one_section_is_a_clause_by_its_successor_heading_the_next() -> None:
    """«V1 Architecture …» heads one file and «V2 Authentication» the next: the document's census is the evidence
    neither section holds alone."""
    from docshelf.law.census import census
    from docshelf.law.clauses import section_clauses

    texts = ["# V1 Architecture\n\nText one.\n", "# V2 Authentication\n\nText two.\n", "# Glossary\n\nWords.\n"]
    ids = census(texts)
    assert [c.id for c in section_clauses(texts[0], "", english=True, census=ids)] == ["V1"]
    assert section_clauses(texts[0], "", english=True) == []  # alone, «V1» is no numbering yet
    # «V1.1 …», «V1.2 …» heading a file each: the second goes on from the first, placed before it
    texts = ["# V1.1 Secure Lifecycle\n\nText.\n", "# V1.2 Authentication Architecture\n\nText.\n"]
    known: set[str] = set()
    ids = census(texts)
    got = [[c.id for c in section_clauses(t, "", english=True, known=known, census=ids)] for t in texts]
    assert got == [["V1.1"], ["V1.2"]]


def test_a_catalogue_table_of_shaped_ids_is_clauses_and_counted() -> None:
    """«| AC.L2-3.1.3 | Control the flow … |»: the id alone in its first cell, the statement in the next; a level
    in the id changing between neighbours («AC.L1-3.1.2», «AC.L2-3.1.3») goes on with the series."""
    from docshelf.build.addresses import printed_labels
    from docshelf.law.clauses import section_clauses
    from docshelf.records import SectionMeta

    table = (
        "## Access Control\n\n| Practice | Statement |\n|---|---|\n"
        "| AC.L1-3.1.1 | Limit system access to authorized users and their processes. |\n"
        "| AC.L1-3.1.2 | Limit system access to the transactions users may execute. |\n"
        "| AC.L2-3.1.3 | Control the flow of information in accordance with approvals. |\n"
    )
    clauses = section_clauses(table, "", english=True)
    assert [c.id for c in clauses] == ["AC.L1-3.1.1", "AC.L1-3.1.2", "AC.L2-3.1.3"]
    record = SectionMeta("docs/m/001.md", "Access", clauses=tuple(clauses))
    got = printed_labels([record], {record.path: table})
    assert (got["printed"], got["addressed"]) == (3, 3)
    # a row number before the id («| 2 | FR-A2 | The system …»)
    numbered = "## Requirements\n\n| No. | ID | Requirement |\n|---|---|---|\n" + "".join(
        f"| {k} | FR-A{k} | The system keeps journal number {k} for every account. |\n" for k in (1, 2, 3)
    )
    clauses = section_clauses(numbered, "", english=True)
    assert [c.id for c in clauses] == ["FR-A1", "FR-A2", "FR-A3"]
    record = SectionMeta("docs/m/002.md", "Requirements", clauses=tuple(clauses))
    got = printed_labels([record], {record.path: numbered})
    assert (got["printed"], got["addressed"]) == (3, 3)
    # a checklist of ids a family rule names («HC-01», like «AC-2») with the check in the next cell; a mapping
    # table naming controls by a short title is no catalogue
    checklist = "## Hardening checklist\n\n| Check | Requirement | Chapter |\n|---|---|---|\n" + "".join(
        f"| HC-0{k} | Management access number {k} is disabled on every interface. | Chapter 3 |\n" for k in (1, 2, 3)
    )
    assert [c.id for c in section_clauses(checklist, "", english=True)] == ["HC-01", "HC-02", "HC-03"]
    mapping = "## Mapping\n\n| Control | Title |\n|---|---|\n| AC-1 | Policy and Procedures |\n| AC-2 | Accounts |\n"
    assert section_clauses(mapping, "", english=True) == []


def test_an_annex_table_printing_its_letter_in_every_control_is_the_annexs_series() -> None:
    """ISO/IEC 27001's Annex A table «| A.5.1 | Policies … | Control … |» with no row or heading placing «A.5»:
    the controls succeed each other in the annex of their letter."""
    from docshelf.law.clauses import section_clauses

    rows = "".join(
        f"| A.{g}.{k} | Control title {g}.{k} | The organization shall keep the control {g}.{k} in force. |\n"
        for g in (5, 6)
        for k in (1, 2, 3)
    )
    annex = f"# Annex A (normative) Controls\n\nTable A.1\n\n|  | Name | Control |\n|---|---|---|\n{rows}"
    got = [c.id for c in section_clauses(annex, "Annex A", english=True)]
    assert got == ["Annex A", *(f"§A.{g}.{k}" for g in (5, 6) for k in (1, 2, 3))]


def test_a_shape_is_a_clause_only_by_the_evidence_of_a_numbering() -> None:
    """«IPv4 Addresses» over a paragraph, «COVID-19 Pandemic …» or «SHA-256 Hashes …» opening one succeed
    nothing and nest nothing: no clause, and the address measure does not count them as labels it lost; a
    lone «T1059.001» under «T1059 …» nests in its container, a lone «Q1.» is nothing."""
    from docshelf.build.addresses import printed_labels
    from docshelf.law.clauses import section_clauses
    from docshelf.records import SectionMeta

    plain = (
        "## IPv4 Addresses\n\nAddresses are assigned by the operator.\n\n"
        "COVID-19 Pandemic measures were introduced in many places.\n\nSHA-256 Hashes are kept for each file.\n\n"
        "Q1. Who keeps the journal of the operator?\n"
    )
    assert [c.id for c in section_clauses(plain, "", english=True)] == []
    record = SectionMeta("docs/m/001.md", "Notes")
    assert printed_labels([record], {record.path: plain})["printed"] == 0
    nested = "## T1059 Command and Scripting Interpreter\n\nText.\n\nT1059.001 PowerShell is abused.\n"
    assert [c.id for c in section_clauses(nested, "", english=True)] == ["T1059", "T1059.001"]


def test_a_shape_the_document_repeats_is_a_code_not_a_label() -> None:
    """SP 800-53's «P1 LOW AC-1 MOD AC-1 HIGH AC-1» closes every control (P1, P2, P3 succeed each other, but each
    is printed dozens of times); a state «FIN-WAIT-1» is described in every event's section: codes, no clauses.
    «0x01» is a value."""
    from docshelf.law.census import census
    from docshelf.law.clauses import section_clauses

    control = "## AC-{n} CONTROL\n\nThe organization does {n}.\n\nP{p} LOW AC-{n} MOD AC-{n} HIGH AC-{n}\n"
    texts = [control.format(n=n, p=1 + n % 2) for n in range(1, 7)]
    ids = census(texts)
    assert ids.codes == {"P1", "P2"}
    for text in texts:
        assert not any(c.id.startswith("P") for c in section_clauses(text, "", english=True, census=ids))
    assert read_label("0x01 Reserved value") == []


def test_an_i_after_h_is_the_reading_its_successor_continues() -> None:
    """«(i)» after «(h)» is the ninth letter or the first roman numeral: «(ii)» printed next makes it roman (the
    EU AI Act's «Article 5(1)(h)(i)»), «(j)» a letter."""
    from docshelf.law.clauses import section_clauses

    roman = (
        "## Article 5 Uses\n\n1. Prohibited:\n\n(g) the first;\n\n(h) the use for:\n\n(i) a search;\n\n(ii) a threat.\n"
    )
    assert [c.id for c in section_clauses(roman, "Article 5", english=True)][-2:] == [
        "Article 5(1)(h)(i)",
        "Article 5(1)(h)(ii)",
    ]
    letter = (
        "## Article 6 List\n\n1. Points:\n\n(g) the first;\n\n(h) the second;\n\n(i) the ninth;\n\n(j) the tenth.\n"
    )
    assert [c.id for c in section_clauses(letter, "Article 6", english=True)][-2:] == [
        "Article 6(1)(i)",
        "Article 6(1)(j)",
    ]


def test_a_word_named_series_restarting_in_each_section_of_a_split_manual_is_told_apart_by_its_headings() -> None:
    """«Step 1» under «Installing the Agent» and again under «Removing the Agent», each heading a section file of
    its own: «‹Installing the Agent› Step 1» and «‹Removing the Agent› Step 1», what is inside them too; a label
    printed twice in sections of one title stays as it is and is reported."""
    from docshelf.build.repeated import qualify_repeated
    from docshelf.records import Clause, SectionMeta

    def record(n: int, title: str, ids: list[str]) -> SectionMeta:
        return SectionMeta(f"docs/m/{n}.md", title, clauses=tuple(Clause(cid, k, k + 1) for k, cid in enumerate(ids)))

    records = [
        record(1, "Installing the Agent", ["Step 1", "Step 1 item a", "Step 2"]),
        record(2, "Upgrading", ["Note 4"]),
        record(3, "Removing the Agent", ["Step 1", "Step 2"]),
    ]
    out, report = qualify_repeated(records, english=True)
    assert [c.id for c in out[0].clauses] == [
        "«Installing the Agent» Step 1",
        "«Installing the Agent» Step 1 item a",
        "«Installing the Agent» Step 2",
    ]
    assert [c.id for c in out[2].clauses] == ["«Removing the Agent» Step 1", "«Removing the Agent» Step 2"]
    assert {r["label"]: r["as"] for r in report}["Step 1"] == [
        "«Installing the Agent» Step 1",
        "«Removing the Agent» Step 1",
    ]
    # a section cut in pieces is one place (a long step going on in the next piece), spelled without its piece mark
    pieces = [record(1, "Install (1/2)", ["Step 1"]), record(2, "Install (2/2)", ["Step 1"])]
    pieces += [record(3, "Remove (2/2)", ["Step 1"])]
    assert [c.id for r in qualify_repeated(pieces, english=True)[0] for c in r.clauses] == [
        "«Install» Step 1",
        "«Install» Step 1",
        "«Remove» Step 1",
    ]
    same = [record(1, "Steps", ["Step 1"]), record(2, "Other", ["Note 1"]), record(3, "Steps", ["Step 1"])]
    assert qualify_repeated(same, english=True)[1] == [{"label": "Step 1", "places": 2, "as": []}]


def test_items_enumerated_inside_a_paragraph_after_a_colon_are_clauses() -> None:
    """«The operator shall: (a) keep …; (b) report …; and (c) train …» printed as one paragraph: each item is a
    clause inside the paragraph's own («Article 1(1)(b)»; a law's «ст. 1 ч. 1 п. 2»); labels with no colon before
    them, or out of order, are none."""
    from docshelf.law.clauses import section_clauses
    from docshelf.law.inline import inline_items

    en = (
        "## Article 1 Obligations\n\n1. The operator shall: (a) keep the register; (b) report every incident; "
        "and (c) train its staff.\n\n2. The authority may see points (a) and (c) of paragraph 1.\n"
    )
    clauses = {c.id: en[c.start : c.end] for c in section_clauses(en, "Article 1", english=True)}
    assert clauses["Article 1(1)(b)"] == "(b) report every incident; and"
    assert clauses["Article 1(1)(c)"] == "(c) train its staff."
    assert "Article 1(2)(a)" not in clauses
    ru = "## Статья 1. Обязанности\n\n1. Оператор обязан: 1) вести реестр; 2) сообщать об инцидентах; 3) обучать.\n"
    ids = [c.id for c in section_clauses(ru, "ст. 1")]
    assert ids[-3:] == ["ст. 1 ч. 1 п. 1", "ст. 1 ч. 1 п. 2", "ст. 1 ч. 1 п. 3"]
    assert inline_items("The list: (a) one thing, (c) another thing.") == []  # no successor in order
    assert [x.atom for _a, _b, x in inline_items("It covers: (i) the first; (ii) the second.")] == ["i", "ii"]
    sentences = "The operator shall: (a) Keep the register. (b) Report every incident. (c) Train its staff."
    assert [x.atom for _a, _b, x in inline_items(sentences)] == ["a", "b", "c"]  # each item a sentence of its own


def _one_document(tmp_path: Path, text: str, doc_id: str) -> Path:
    """A shelf holding one Markdown document with ``text``."""
    source = tmp_path / "doc.md"
    source.write_text(text, encoding="utf-8")
    root = shelf.init(tmp_path / "shelf")
    shelf.add(root, [source], DocOptions(source="", category="t", id=doc_id), progress=lambda _m: None)
    return root


def test_a_starred_footnote_belongs_to_the_clause_of_its_mark(tmp_path: Path) -> None:
    """Older ConsultantPlus texts mark notes «<*>»: the note printed after п. 1.2 is п. 1.1's, where its mark
    stands, not п. 1.2's second paragraph."""
    text = (
        "# Приказ об утверждении порядка\n\n## 1. Общие положения\n\n"
        "1.1. Оператор обеспечивает защиту информации в соответствии с требованиями <*> настоящего порядка.\n\n"
        "1.2. Оператор назначает ответственного за организацию обработки персональных данных.\n\n"
        "--------------------------------\n\n"
        "<*> Требования утверждены постановлением Правительства Российской Федерации от 1 ноября 2012 г.\n"
    )
    root = _one_document(tmp_path, text, "Приказ 5")
    note = "Требования утверждены постановлением Правительства Российской Федерации от 1 ноября"
    got = verify.verify_quote(root, note, "Приказ 5 п. 1.1")
    assert (got.verdict, got.level, got.fetch_ref) == ("ok", "clause", "Приказ 5 п. 1.1 сноска 1")
    assert verify.verify_quote(root, note, "Приказ 5 п. 1.2").verdict == "wrong_clause"


def test_a_tables_numbered_rows_go_on_from_the_heading_above_them() -> None:
    """PCI DSS prints its requirements «| 1.1.1 All security policies … | 1.1.1 Examine … |» under the heading
    «1.1 Processes …»: the heading's «§1.1» is the rows' parent (spelled as a section, not as the bare «1.1»)."""
    from docshelf.law.clauses import section_clauses

    md = (
        "# Requirement 1: Install and Maintain Network Security Controls\n\n"
        "## 1.1 Processes and mechanisms are defined and understood.\n\n"
        "| Defined Approach Requirements | Defined Approach Testing Procedures |\n|---|---|\n"
        "| 1.1.1 All security policies are documented, kept up to date and in use. "
        "| 1.1.1 Examine documentation and interview personnel. |\n"
        "| 1.1.2 Roles and responsibilities are documented, assigned, and understood. "
        "| 1.1.2 Examine documentation to verify that roles are documented. |\n"
    )
    assert [c.id for c in section_clauses(md, "", english=True)][-3:] == ["§1.1", "§1.1.1", "§1.1.2"]


def test_items_inside_a_paragraph_are_the_blocks_own_not_its_run_in_successors() -> None:
    """«1. Resolution: (a) …; (b) …. 2. Validation …» run into one paragraph: (a) and (b) are item 1's, and (b)
    ends where item 2 begins."""
    from docshelf.law.clauses import section_clauses

    md = "# Guide\n\n## 4.2 Steps\n\n1. Resolution: (a) the first thing; (b) the second thing. 2. Validation is done.\n"
    got = {c.id: md[c.start : c.end] for c in section_clauses(md, "§4.2", english=True)}
    assert got["§4.2 item 1(b)"] == "(b) the second thing."
    assert got["§4.2 item 2"] == "2. Validation is done."


def test_a_title_of_two_words_and_a_page_number_is_no_named_label() -> None:
    """A contents line «Executive Summary 1 Part 1: Foundational Information» is a title and its page; «Control
    Objective 1.1:» is a label because «Control Objective 1.2:» follows (and «2.1» once «1.x» is placed)."""
    from docshelf.law.clauses import section_clauses

    toc = "# Contents\n\nExecutive Summary 1 Part 1: Foundational Information\n\n4 1 Framing Risk 4\n"
    assert [c.id for c in section_clauses(toc, "", english=True)] == []
    md = (
        "# Handbook\n\n## Access\n\nControl Objective 1.1: Access is restricted.\n\n"
        "Control Objective 1.2: Access is reviewed.\n\n## Change\n\nControl Objective 2.1: Changes are approved.\n"
    )
    assert [c.id for c in section_clauses(md, "", english=True) if "Objective" in c.id] == [
        "Control Objective 1.1",
        "Control Objective 1.2",
        "Control Objective 2.1",
    ]


def test_a_quote_carrying_a_mark_is_proven_where_that_mark_stands(tmp_path: Path) -> None:
    """The same words stand in п. 1.1 without a mark and in п. 1.2 with «<*>»: a quote copied with the mark and
    cited by the document is proven at п. 1.2, not refused at the first place holding its words."""
    text = (
        "# Приказ о порядке\n\n## 1. Общие положения\n\n"
        "1.1. Оператор выполняет требования по защите информации ежегодно и в срок.\n\n"
        "1.2. Оператор выполняет требования по защите информации <*> в полном объёме.\n\n"
        "<*> Требования утверждены постановлением Правительства Российской Федерации.\n"
    )
    root = _one_document(tmp_path, text, "Приказ 7")
    got = verify.verify_quote(root, "Оператор выполняет требования по защите информации <*>", "Приказ 7")
    assert (got.verdict, got.fetch_ref) == ("ok", "Приказ 7 п. 1.2")  # its one paragraph left: no «абз. 1»


def test_a_word_named_series_goes_on_after_its_table_and_in_the_next_piece() -> None:
    """NIST CSF «Tier 1: Partial» heads the table under it (a table does not end it), «Tier 3» goes on after «Tier 2»
    a table closed, and «Step 7» in the next section goes on from «Step 6» placed before it."""
    from docshelf.law.clauses import section_clauses

    table = "| Risk Management | Process |\n|---|---|\n| not formalized | ad hoc |"
    md = (
        "# 2.0 Framework Basics\n\n> CSF · §2.0\n\nTier 1: Partial\n\n"
        f"{table}\n\nTier 2: Risk Informed\n\n{table}\n\nmanaged informally.\n\n"
        "Tier 3: Repeatable\n\nFormally approved.\n"
    )
    ids = {c.id: md[c.start : c.end] for c in section_clauses(md, "§2.0", english=True)}
    assert ids["§2.0 Tier 1"].startswith("Tier 1: Partial") and ids["§2.0 Tier 1"].endswith("| ad hoc |")
    assert ids["§2.0 Tier 3"] == "Tier 3: Repeatable\n\nFormally approved."
    known = {"Step 5", "Step 6"}
    nxt = "# 3.0 How to Use\n\n> CSF · §3.0\n\nStep 7: Implement Action Plan. The organization acts.\n"
    assert "§3.0 Step 7" in {c.id for c in section_clauses(nxt, "§3.0", english=True, known=known)}
    lone = "# 3.0 How to Use\n\n> CSF · §3.0\n\nStep 7: Implement Action Plan. The organization acts.\n"
    assert "§3.0 Step 7" not in {c.id for c in section_clauses(lone, "§3.0", english=True)}  # no series leads to it


def test_a_list_whose_first_item_runs_into_the_paragraph_before() -> None:
    """RFC 4271 prints «Optional Attribute Status: 1) The DelayOpen …» and then «2) The DelayOpenTimer …» as a
    paragraph of its own: item 1 starts inside the paragraph, after its colon."""
    from docshelf.law.clauses import section_clauses

    md = (
        "# 8.1.5. BGP Message-Based Events\n\n> RFC 4271 · §8.1.5\n\nEvent 19: BGPOpen\n\n"
        "Definition: An event is generated when a valid OPEN message has been received.\n\n"
        "Optional Attribute Status: 1) The DelayOpen optional attribute SHOULD be set to FALSE.\n\n"
        "2) The DelayOpenTimer SHOULD not be running.\n\nEvent 20: BGPOpen with DelayOpenTimer running\n\n"
        "Definition: An event is generated when a valid OPEN message has been received.\n"
    )
    ids = {c.id: md[c.start : c.end] for c in section_clauses(md, "§8.1.5", english=True)}
    assert ids["§8.1.5 Event 19 item 1"] == "1) The DelayOpen optional attribute SHOULD be set to FALSE."
    assert ids["§8.1.5 Event 19 item 2"] == "2) The DelayOpenTimer SHOULD not be running."
    assert "§8.1.5 Event 20" in ids
    alone = md.replace("Optional Attribute Status: 1) The DelayOpen", "Optional Attribute Status: the DelayOpen")
    assert "§8.1.5 Event 19 item 2" not in {c.id for c in section_clauses(alone, "§8.1.5", english=True)}


def test_a_security_plans_control_headed_by_its_title_holds_its_parts() -> None:
    """A FedRAMP template heads a control «Remote Access (AC-17)», its title first: the control holds its summary
    table and its «AC-17 What is the solution …» up to its enhancement's heading."""
    from docshelf.law.clauses import section_clauses

    md = (
        "# 13. Minimum Security Controls\n\n> SSP · §13\n\n# Remote Access (AC-17)\n\nThe organization:\n\n"
        "| AC-17 | Control Summary Information |\n|---|---|\n| Responsible Role: |  |\n\n"
        "AC-17 What is the solution and how is it implemented?\n\n# Control Enhancement AC-17 (1)\n\n"
        "The information system monitors and controls remote access methods.\n"
    )
    ids = {c.id: md[c.start : c.end] for c in section_clauses(md, "§13", english=True)}
    assert ids["AC-17"].startswith("# Remote Access (AC-17)")
    assert ids["AC-17"].endswith("AC-17 What is the solution and how is it implemented?")
    assert ids["AC-17(1)"].endswith("monitors and controls remote access methods.")
    cmmc = "# 3. Practices\n\n> SSP · §3\n\n# Authorized Access Control (AC.L2-3.1.1)\n\nLimit system access.\n"
    got = {c.id: cmmc[c.start : c.end] for c in section_clauses(cmmc, "§3", english=True)}
    assert got["AC.L2-3.1.1"].endswith("Limit system access.")


def test_a_piece_of_a_section_cut_between_paragraphs_goes_on_with_the_clauses_left_open() -> None:
    """A long section cut between paragraphs: the next piece opens inside the list the piece before left open
    («2.» after «1.» of «c.»), not a new list under the section."""
    from docshelf.law.clauses import section_clauses
    from docshelf.law.outline import Open

    first = (
        "# 11. Minimum Security Controls (1/2)\n\n> SSP · §11\n\n# Malicious Code Protection (SI-3)\n\n"
        "The organization:\n\na. Employs malicious code protection mechanisms at entry points;\n\n"
        "b. Updates malicious code protection mechanisms whenever new releases are available;\n\n"
        "c. Configures malicious code protection mechanisms to:\n\n1. Perform periodic scans of the system;\n"
    )
    second = (
        "# 11. Minimum Security Controls (2/2)\n\n> SSP · §11\n\n"
        "2. Block malicious code in response to malicious code detection; and\n\n"
        "d. Addresses the receipt of false positives during malicious code detection.\n"
    )
    opened: list[Open] = []
    ids_first = [c.id for c in section_clauses(first, "§11", english=True, carried=opened)]
    assert "SI-3 item c.1" in ids_first and [o.id for o in opened][-1] == "SI-3 item c.1"
    ids = {c.id: second[c.start : c.end] for c in section_clauses(second, "§11", english=True, carried=opened)}
    assert ids["SI-3 item c.2"] == "2. Block malicious code in response to malicious code detection; and"
    assert ids["SI-3 item d"].startswith("d. Addresses")
    assert "SI-3" in ids and "§11 item 2" not in ids
    assert [c.id for c in section_clauses(second, "§11", english=True)] == ["§11"]  # not carried: no list here


def test_a_controls_items_run_into_the_paragraphs_before_are_read_back_to_the_first() -> None:
    """SP 800-53's text layer runs a control's items into its paragraphs: «Control: The organization: a. Develops …»,
    bullets, «…; b. Distributes …; c. …; d. Reviews …;» and then «e. Revises …» as a block. Read back from «e.» to
    «a.», each item is a clause; a run-in heading inside the block («Supplemental Guidance:») ends the list, so the
    enhancement «(1)» after it is the control's."""
    from docshelf.law.clauses import section_clauses

    md = (
        "# CP-2 CONTINGENCY PLAN\n\n> SP 800-53 · CP-2\n\n"
        "Control: The organization: a. Develops a contingency plan for the information system that:\n\n"
        "- Identifies essential missions and business functions;\n\n"
        "- Is reviewed and approved by designated officials; b. Distributes copies of the contingency plan; "
        "c. Coordinates contingency planning activities; d. Reviews the contingency plan;\n\n"
        "e. Revises the contingency plan; and f. Communicates contingency plan changes. Supplemental Guidance: "
        "Contingency planning is addressed.\n\n(1) The organization coordinates contingency plan development.\n"
    )
    ids = {c.id: md[c.start : c.end] for c in section_clauses(md, "CP-2", english=True)}
    assert ids["CP-2 item a"].startswith("a. Develops") and ids["CP-2 item a"].endswith("designated officials;")
    assert ids["CP-2 item c"] == "c. Coordinates contingency planning activities;"
    assert ids["CP-2 item f"] == "f. Communicates contingency plan changes."
    assert ids["CP-2(1)"] == "(1) The organization coordinates contingency plan development."
    # a one-word run-in inside an item («Example:») is the item's: the list goes on
    example = "# CP-3 TRAINING\n\n> SP · CP-3\n\nThe organization:\n\na. Trains staff. Example: a course.\n\n"
    example += "b. Tests staff.\n"
    got = {c.id: example[c.start : c.end] for c in section_clauses(example, "CP-3", english=True)}
    assert got["CP-3 item a"] == "a. Trains staff. Example: a course." and got["CP-3 item b"] == "b. Tests staff."
    # without the list's first item after a colon, «e.» has nothing to go on from
    lone = md.replace("The organization: a. Develops", "The organization develops")
    assert "CP-2 item e" not in {c.id for c in section_clauses(lone, "CP-2", english=True)}


def test_a_roman_item_glued_to_its_word_is_read_and_a_measure_is_no_label() -> None:
    """The EU AI Act's print loses the space after «(iii)» («(iii)any known …»): a roman numeral of two letters or more
    glued to a small letter is still the label; a single letter is not («(s)he»). «0.046 Signatures per second» is a
    measure, not a label, while ISO's «0.1 General» is one."""
    assert [(x.style, x.atom, x.glued) for x in read_label("(iii)any known or foreseeable circumstance")] == [
        ("(i)", "iii", True)
    ]
    assert read_label("(s)he shall") == []
    assert read_label("0.046 Signatures per second:") == []
    assert [x.atom for x in read_label("0.1 General")] == ["0.1"]


def test_labels_a_text_layer_cut_loose_are_read_from_what_is_open() -> None:
    """A ГОСТ's text layer lost «4.6.4» but prints «4.6.4.8» inside the open «4.6»; a measure table's row «АУД.9» a
    page break set as a paragraph goes on from «АУД.8»; a licence's «(iii)» goes on from «(i) …, or (ii) …» printed in
    one paragraph."""
    from docshelf.law.clauses import section_clauses

    gost = (
        "# 4 Состав и содержание\n\n> ГОСТ 34 · п. 4\n\n4.6 Раздел «Требования к системе» содержит требования.\n\n"
        "- требования к регламенту обслуживания.\n\n"
        "4.6.4.8 В требования к защите информации включают требования, установленные в документах.\n"
    )
    assert "п. 4.6.4.8" in {c.id for c in section_clauses(gost, "п. 4")}
    from docshelf.build.options import ShelfConfig
    from docshelf.build.pipeline import build_document

    built = build_document(gost.replace("> ГОСТ 34 · п. 4\n\n", "").encode(), DocOptions(source="g.md"), ShelfConfig())
    assert "4.6 is followed by 4.6.4.8 (4.6.4 is not printed)" in built.meta.quality["addresses"]["gaps"]  # said
    assert "п. 4.6.4.8" not in {c.id for c in section_clauses(gost.replace("4.6 Раздел", "Раздел"), "п. 4")}
    measures = (
        "# Приложение\n\n> Приказ · прил.\n\n| АУД.7 | Защита информации о событиях | + | + |\n"
        "| АУД.8 | Реагирование на сбои при регистрации событий | + | + |\n\n"
        "АУД.9 Анализ действий отдельных пользователей +\n"
    )
    assert {"прил. АУД.8", "прил. АУД.9"} <= {c.id for c in section_clauses(measures, "прил.")}
    licence = (
        "# 4. Limited Warranty\n\n> Licence · §4\n\nA. Licensor will, at its option:\n\n"
        "(i) retain the products and refund the fee, or (ii) replace or repair the products and return them\n\n"
        "(iii) renegotiate the delivery, price, coverage, etc. to the satisfaction of both parties.\n"
    )
    ids = {c.id: licence[c.start : c.end] for c in section_clauses(licence, "§4", english=True)}
    assert ids["§4 item A(ii)"] == "(ii) replace or repair the products and return them"
    assert ids["§4 item A(iii)"].startswith("(iii) renegotiate")


def test_a_mark_just_before_a_quote_is_not_the_quotes(tmp_path: Path) -> None:
    """«… of the SDLC.1 Defining requirements … initiation phase.2 Security …»: a quote starting at «Defining» and
    copied with its own mark «2» is proven, though mark «1» of the sentence before stands a character before it;
    with a mark it does not carry where it matched, it is not."""
    text = (
        "# Guide\n\n## 1 Life Cycle\n\n"
        "All systems are in some phase of the SDLC.1 Defining requirements is a critical part of an SDLC process "
        "and begins in the initiation phase.2 Security and privacy requirements are a part of it.\n\n"
        "1 The SDLC is also known as the system development life cycle.\n\n"
        "2 The initiation phase is the first phase of the cycle.\n"
    )
    root = _one_document(tmp_path, text, "Guide 1")
    marked = "Defining requirements is a critical part of an SDLC process and begins in the initiation phase.2 Security"
    assert verify.verify_quote(root, marked, "Guide 1").verdict == "ok"
    assert verify.verify_quote(root, marked.replace("phase.2", "phase.1"), "Guide 1").verdict == "not_found"


@pytest.mark.parametrize(
    ("text", "doc_id", "note", "owner", "kept"),
    [
        (
            "# Information security management\n\n## 2 Normative references\n\n"
            "The following documents are referred to in the text. ISO/IEC 27000, Overview and vocabulary1)\n\n"
            "## 4.2 Needs of interested parties\n\nThe organization shall determine:\n\n"
            "a) interested parties that are relevant to the management system;\n\n"
            "1) The dated edition cited in the bibliography applies until a corrigendum is published.\n\n"
            "b) the relevant requirements of these interested parties;\n\n"
            "1) the requirements of the regulators that supervise the organization;\n",
            "ISO 99001",
            "The dated edition cited in the bibliography applies until a corrigendum is published.",
            "§2 footnote 1",
            ("the requirements of the regulators that supervise the organization", "§4.2 item b.1"),
        ),
        (
            "# Системы менеджмента\n\n## 2 Нормативные ссылки\n\n"
            "В настоящем стандарте использована ссылка на ГОСТ Р 99999 Словарь терминов1)\n\n"
            "## 4 Требования\n\n4.1 Организация должна определить:\n\n"
            "а) заинтересованные стороны, значимые для системы менеджмента;\n\n"
            "1) Действует до введения в действие соответствующего национального стандарта.\n\n"
            "б) требования этих заинтересованных сторон к системе менеджмента.\n",
            "ГОСТ Р 99001",
            "Действует до введения в действие соответствующего национального стандарта.",
            "п. 2 сноска 1",
            ("требования этих заинтересованных сторон к системе менеджмента", "п. 4.1 подп. «б»"),
        ),
    ],
)
def test_a_standards_note_numbered_with_a_bracket_belongs_to_the_clause_of_its_mark(
    tmp_path: Path, text: str, doc_id: str, note: str, owner: str, kept: tuple[str, str]
) -> None:
    """ISO and ГОСТ Р print notes «1) The dated edition …» at a page's foot, marked «vocabulary1)» by a superscript
    glued to its word: the note is a footnote of the clause of its mark, not item 1 of the list the page broke; a
    list item «1) the requirements …» (small letters, no mark) stays the item it is."""
    root = _one_document(tmp_path, text, doc_id)
    got = verify.verify_quote(root, note, f"{doc_id} {owner}")
    assert (got.verdict, got.level, got.clause) == ("ok", "clause", owner), got.message
    item = verify.verify_quote(root, kept[0], f"{doc_id} {kept[1]}")
    assert (item.verdict, item.level) == ("ok", "clause"), item.message


def test_a_table_under_a_numbered_heading_is_the_headings_and_so_is_the_text_after_it() -> None:
    """«4 Состав работ» over «Таблица 1 — Этапы работ» and a paragraph after the table: the table ends the list points
    before it, not the heading's clause (a quote from a row or from the paragraph after it is «п. 4»'s); a bill's
    «(b)» after the table of «Section 6» is §6(b)."""
    from docshelf.law.clauses import section_clauses

    table = "| Этап | Содержание работ |\n|---|---|\n| 1 | Разработка проектной документации на систему |\n"
    md = (
        f"### 4 Состав работ\n\nРаботы выполняются в этапы таблицы 1.\n\n{table}\nТекст после таблицы.\n\n"
        "### 5 Порядок контроля\n\nПриемка осуществляется комиссией.\n"
    )
    spans = {c.id: md[c.start : c.end] for c in section_clauses(md, "")}
    assert "Разработка проектной документации" in spans["п. 4"] and spans["п. 4"].endswith("Текст после таблицы.")
    bill = (
        "## Section 6. Penalties.\n\n(a) The attorney general may recover a civil penalty set out in the table.\n\n"
        "| Residents | Penalty |\n|---|---|\n| Fewer than 1,000 | $2,000 |\n\n"
        "(b) A civil penalty collected under this section is deposited in the state treasury.\n"
    )
    spans = {c.id: bill[c.start : c.end] for c in section_clauses(bill, "", english=True)}
    assert spans["§6(b)"].startswith("(b) A civil penalty") and "$2,000" in spans["§6"]


def test_a_note_numbered_with_superscript_digits_belongs_to_the_clause_of_its_mark(tmp_path: Path) -> None:
    """«¹ Лицензия …» after the text, its mark «организации¹» in п. 1.2: «п. 1.2 сноска 1», not п. 3.1's paragraph."""
    text = (
        "# Методика оценки\n\n## 1. Общие положения\n\n1.1. Методика применяется при оценке защищенности систем.\n\n"
        "1.2. Оценку проводит организация, имеющая лицензию на деятельность по защите информации¹.\n\n"
        "## 3. Порядок оценки\n\n3.1. Оценка включает анализ документации и проверку мер защиты.\n\n"
        "¹ Лицензия на деятельность по технической защите конфиденциальной информации обязательна.\n"
    )
    root = _one_document(tmp_path, text, "Методика 1")
    note = "Лицензия на деятельность по технической защите конфиденциальной информации обязательна."
    got = verify.verify_quote(root, note, "Методика 1 п. 1.2 сноска 1")
    assert (got.verdict, got.level, got.clause) == ("ok", "clause", "п. 1.2 сноска 1"), got.message
    assert verify.verify_quote(root, note, "Методика 1 п. 3.1").verdict == "wrong_clause"
    marked = "имеющая лицензию на деятельность по защите информации."  # the quote reads past the mark
    assert verify.verify_quote(root, f"Оценку проводит организация, {marked}", "Методика 1 п. 1.2").verdict == "ok"


def test_a_specifications_bracketed_tags_and_ids_numbered_by_tens_are_clauses(tmp_path: Path) -> None:
    """«[R-12] The ground segment shall …» (a tag in square brackets) and «REQ-SYS-030» alone in its section of a
    series numbered by tens («…-021» before it, «…-040» after it) are clauses, cited «R-12», «[R-12]», «REQ-SYS-030»;
    an entry of a list of references («[RFC-812] K. Harrenstien, …, March 1982.») is no tag."""
    from docshelf.law.numbering import read_label

    text = (
        "# Ground Segment Requirements\n\n## 3.1 Telemetry\n\n"
        "REQ-SYS-020 The ground segment shall archive every telemetry frame it receives.\n\n"
        "REQ-SYS-021 The ground segment shall time-tag every frame with station time.\n\n"
        "## 3.2 Commanding\n\nREQ-SYS-030 The ground segment shall verify every command before uplink.\n\n"
        "## 3.3 Monitoring\n\nREQ-SYS-040 The ground segment shall monitor the link margin continuously.\n\n"
        "## 3.4 Interfaces\n\n[R-11] The ground segment shall accept schedules from the mission planning system.\n\n"
        "[R-12] The ground segment shall report the station status to the operations center.\n"
    )
    root = _one_document(tmp_path, text, "GCS-SRS")
    cases = [
        ("The ground segment shall verify every command before uplink.", "REQ-SYS-030", "REQ-SYS-030"),
        ("The ground segment shall report the station status to the operations center.", "R-12", "R-12"),
        ("The ground segment shall report the station status to the operations center.", "[R-12]", "R-12"),
    ]
    for quote, ref, clause in cases:
        got = verify.verify_quote(root, quote, f"GCS-SRS {ref}")
        assert (got.verdict, got.level, got.clause) == ("ok", "clause", clause), (ref, got.message)
    assert [x.atom for x in read_label("[R-12] The ground segment shall report the station status.")] == ["R-12"]
    assert read_label("[RFC-812] K. Harrenstien, V. White, NICNAME/WHOIS, RFC-812, March 1982.") == []


def test_a_summary_table_restating_the_recommendations_is_no_second_place_of_them() -> None:
    """A benchmark's «Appendix: Summary Table» restates «| 1.1.1 | Ensure mounting of cramfs … |» after the file of
    «1.1» that heads its recommendations «### 1.1.1 Ensure …» inside it: «1.1.1» stays one place (it was a second
    one, and every recommendation was proven at document level only)."""
    from docshelf.law.clauses import section_clauses

    recommendation = (
        "### 1.1.{k} Ensure mounting of filesystem {k} is disabled\n\nRationale: It reduces the attack surface.\n\n"
    )
    first = "## 1.1 Filesystem Configuration\n\n" + "".join(recommendation.format(k=k) for k in (1, 2, 3))
    table = "## Appendix: Summary Table\n\n| Recommendation | Title | Set Correctly |\n|---|---|---|\n" + "".join(
        f"| 1.1.{k} | Ensure mounting of filesystem {k} is disabled | Yes No |\n" for k in (1, 2, 3)
    )
    known: set[str] = set()
    assert [c.id for c in section_clauses(first, "§1.1", english=True, known=known)][1:] == [
        "§1.1.1",
        "§1.1.2",
        "§1.1.3",
    ]
    assert section_clauses(table, "", english=True, known=known, title="Appendix: Summary Table") == []


def test_a_paragraph_after_the_last_item_of_a_list_is_the_clauses_not_the_items() -> None:
    """ISO's «a) …; b) …; and c) … .» then «The scope shall be available as documented information.»: the list is over
    at its item ending with a stop, and the paragraph is §4.3's — a quote from it cited «4.3 c)» is not proven there;
    a law's paragraph after a part's points is that part's «абз. 2»."""
    from docshelf.law.clauses import section_clauses

    md = (
        "## 4.3 Determining the scope\n\nThe organization shall consider:\n\n"
        "a) the external and internal issues referred to in 4.1;\n\nb) the requirements referred to in 4.2; and\n\n"
        "c) interfaces and dependencies between activities.\n\n"
        "The scope shall be available as documented information.\n"
    )
    spans = {c.id: md[c.start : c.end] for c in section_clauses(md, "", english=True)}
    assert spans["§4.3 item c"] == "c) interfaces and dependencies between activities."
    assert spans["§4.3"].endswith("The scope shall be available as documented information.")
    law = (
        "5. Оператор обязан:\n\n1) уведомлять субъекта персональных данных;\n\n2) хранить сведения об обработке.\n\n"
        "Требования настоящей части не применяются к операторам связи.\n\n6. Оператор вправе поручить обработку.\n"
    )
    spans = {c.id: law[c.start : c.end] for c in section_clauses(law, "ст. 9")}
    assert spans["ст. 9 ч. 5 п. 2"] == "2) хранить сведения об обработке."
    assert spans["ст. 9 ч. 5 абз. 2"] == "Требования настоящей части не применяются к операторам связи."


def test_testing_procedures_listed_one_after_another_in_a_cell_are_clauses_each() -> None:
    """PCI DSS prints a requirement's testing procedures in one cell, «2.2.2.a Examine … 2.2.2.b Examine … 2.2.2.c
    …»: each is a clause ending where the next begins (2.2.2.a held .b and .c, and proved their text)."""
    from docshelf.law.clauses import section_clauses

    md = (
        "## 2.2 System components are configured and managed securely.\n\n"
        "| Requirements | Testing Procedures | Guidance |\n|---|---|---|\n"
        "| 2.2.2 Vendor default accounts are handled as follows: the password is replaced. | 2.2.2.a Examine the "
        "configuration standards to confirm the handling. 2.2.2.b Examine a sample of system components to confirm "
        "the passwords. 2.2.2.c Examine vendor documentation to confirm unused accounts were removed. | Purpose "
        "Attackers use default accounts. |\n"
    )
    spans = {c.id: md[c.start : c.end] for c in section_clauses(md, "§2.2", english=True)}
    assert spans["2.2.2.a"].endswith("to confirm the handling.")
    assert spans["2.2.2.b"] == "2.2.2.b Examine a sample of system components to confirm the passwords."
    assert spans["2.2.2.c"].startswith("2.2.2.c Examine vendor documentation")
