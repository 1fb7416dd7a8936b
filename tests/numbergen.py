"""Documents numbered in many schemes, for the property test of addresses (tests/test_numbering.py).

A scheme is a tree of printed labels: headings at the top, then labelled blocks at any depth — decimal
points «6.1.1» and «2.1.» glued to their text, annex controls «A.5.1», a regulation's paragraphs «(a)», «(1)»,
«(i)» (and «(b)(1)» printed together), list items «1.» with sub-items «a.», id series «PR.AC-4», «TASK P-1»,
Russian sub-points «а)» and «1)», a terms section «3.1 пользователь: …», an English rule's divisions «I.» ›
«A.» › «1.», an act's «PART 2» › «3» › «(1)», an agreement's «ARTICLE II» › «Section 2.01», a statute's
«SEC. 101.» and an order's «Sec. 2.» with their «(a)», a catalogue's control statements «AC-2a.1.», footnotes
(«<1>», a bare «1») marked in the block before, a framework core set as one table whose groups «Title (PS)»
nest the ids of their rows «PS.1.1», a manual's numbered steps under headings without numbers, labels named by
a word («Step 1:», «Safeguard 1.2», «Этап 3 —»). Each labelled block carries one sentence no other block has,
and the citation an engineer or a lawyer would write for it. The same document renders as Markdown, as DOCX
and as a PDF with a Cyrillic font, in one column or two, so the property is checked through every converter and
layout.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pdfgen import FONT, FONT_BOLD, _Flow, _render, register_fonts
from reportlab.lib.pagesizes import A4

RUN_IN = "⁋"  # in a row's label: what stands before it is printed in the same paragraph, before the label
FOOTNOTE = 9  # a row's depth that makes it a footnote of the row before
PLAIN = -1  # a row's depth that prints its text as a paragraph of its own, with no sentence to quote


@dataclass(frozen=True)
class Block:
    text: str  # the printed block: label and sentence («6.1.1 Изложение …»)
    sentence: str  # the honest sentence inside it, to quote
    citation: str  # the clause part of a citation naming it («п. 6.1.1»)
    depth: int  # 0 = a heading
    lead: str = ""  # words printed before the label in the same paragraph («The system shall: (a) …»)

    @property
    def printed(self) -> str:
        return f"{self.lead} {self.text}" if self.lead else self.text


@dataclass(frozen=True)
class Scheme:
    name: str
    english: bool
    blocks: tuple[Block, ...]
    table: bool = False  # labelled blocks are the cells of one table: a block's depth is its column


_RU_WORDS = "адрес пункт норма правило порядок условие".split()
_EN_WORDS = "address clause norm rule order condition".split()


def _sentence(english: bool, n: int, scheme: str) -> str:
    if english:
        return f"The {scheme} operator records unique event number {n} in the {_EN_WORDS[n % 6]} journal."
    return f"Оператор {scheme} фиксирует уникальное событие номер {n} в журнале {_RU_WORDS[n % 6]} системы."


def _scheme(name: str, english: bool, rows: list[tuple[int, str, str]], *, table: bool = False) -> Scheme:
    """rows: (depth, printed label or heading text, citation); a sentence is added to every labelled row."""
    blocks: list[Block] = []
    for n, (depth, label, citation) in enumerate(rows, start=1):
        if depth == 0:
            blocks.append(Block(label, "", citation, 0))
            continue
        if depth == PLAIN:  # a line printed as given, nothing to quote («Утверждены постановлением …»)
            blocks.append(Block(label, "", "", PLAIN))
            continue
        if not label:  # a paragraph without a label: the heading above it is its address
            sentence = _sentence(english, n, name)
            blocks.append(Block(sentence, sentence, citation, depth))
            continue
        sentence = _sentence(english, n, name)
        if depth == FOOTNOTE:  # the mark goes on the block before; the note is printed after it
            prev = blocks[-1]
            mark = label if label.startswith("<") else label.rstrip(".")
            blocks[-1] = Block(f"{prev.text} {mark}", prev.sentence, prev.citation, prev.depth)
            blocks.append(Block(f"{label} {sentence}", sentence, citation, FOOTNOTE))
            continue
        sep = "" if label.endswith(".") and label[:-1].replace(".", "").isdigit() and "glued" in name else " "
        lead, _, label = label.rpartition(RUN_IN)  # «The system shall:⁋(a)»: the list's first item runs into its lead
        blocks.append(Block(f"{label}{sep}{sentence}", sentence, citation, depth, lead))
    return Scheme(name, english, tuple(blocks), table)


def schemes() -> list[Scheme]:
    gost = [(0, "1 Общие положения", "п. 1")]
    for a in (1, 2):
        gost.append((1, f"1.{a}", f"п. 1.{a}"))
        for b in (1, 2, 3):
            gost.append((2, f"1.{a}.{b}", f"п. 1.{a}.{b}"))
    gost.append((FOOTNOTE, "<1>", "п. 1.2.3 сноска 1"))
    gost.append((3, "а)", "п. 1.2.3 подп. «а»"))
    gost.append((3, "б)", "п. 1.2.3 подп. «б»"))
    gost.append((4, "1)", "п. 1.2.3 подп. «б» пп. 1"))
    gost.append((4, "2)", "п. 1.2.3 подп. «б» пп. 2"))
    gost += [(0, "2 Требования", "п. 2"), (1, "2.1", "п. 2.1"), (1, "2.2", "п. 2.2")]
    glued = [(0, "1. ПРЕДМЕТ ДОГОВОРА", "п. 1"), (1, "1.1.", "п. 1.1"), (1, "1.2.", "п. 1.2")]
    glued += [(0, "2. ОБЯЗАННОСТИ СТОРОН", "п. 2")] + [(1, f"2.{k}.", f"п. 2.{k}") for k in range(1, 5)]
    annex = [(0, "A.5 Organizational controls", "§A.5")]
    annex += [(1, f"A.5.{k}", f"A.5.{k}") for k in range(1, 5)]
    annex += [(0, "A.6 People controls", "§A.6")] + [(1, f"A.6.{k}", f"A.6.{k}") for k in range(1, 4)]
    cfr = [(0, "§ 2.10 Controls for closed systems.", "§ 2.10")]
    cfr += [(1, "(a)", "§ 2.10(a)"), (1, "(b)", "§ 2.10(b)"), (2, "(1)", "§ 2.10(b)(1)"), (2, "(2)", "§ 2.10(b)(2)")]
    cfr += [(3, "(i)", "§ 2.10(b)(2)(i)"), (3, "(ii)", "§ 2.10(b)(2)(ii)"), (1, "(c)", "§ 2.10(c)")]
    cfr += [(0, "§ 2.30 Controls for open systems.", "§ 2.30"), (1, "(a)", "§ 2.30(a)"), (1, "(b)", "§ 2.30(b)")]
    # A CFR section printing a label and its first child together: «(1)(i) Standard: …», «(b)(1) …».
    chained = [(0, "§ 164.308 Administrative safeguards.", "§ 164.308"), (1, "(a)", "§ 164.308(a)")]
    chained += [(2, "(1)(i)", "§ 164.308(a)(1)(i)"), (3, "(ii)", "§ 164.308(a)(1)(ii)")]
    chained += [(4, "(A)", "§ 164.308(a)(1)(ii)(A)"), (4, "(B)", "§164.308(a)(1)(ii)(B)")]
    chained += [(2, "(2)", "§ 164.308(a)(2)"), (1, "(b)(1)", "§ 164.308(b)(1)"), (2, "(2)", "§ 164.308(b)(2)")]
    # A list whose first item runs into the paragraph that opens it, its later items blocks of their own (RFC 4271's
    # «Optional Attribute Status: 1) …» then «2) …»; a control's «The organization: a. …»).
    run_in = [(0, "5.1 Logging", "§5.1"), (1, f"The system shall:{RUN_IN}(a)", "§5.1(a)"), (1, "(b)", "§5.1(b)")]
    run_in += [(1, "(c)", "§5.1(c)"), (0, "5.2 Retention", "§5.2"), (1, f"Each record:{RUN_IN}1)", "§5.2 item 1")]
    run_in += [(1, "2)", "§5.2 item 2"), (0, "5.3 Review", "§5.3"), (1, f"The operator:{RUN_IN}a.", "§5.3 item a")]
    run_in += [(1, "b.", "§5.3 item b")]
    items = [(0, "4.1 Overview", "§4.1"), (1, "1.", "§4.1 item 1"), (1, "2.", "4.1(2)")]
    items += [(0, "4.2 General Requirements", "§4.2")]
    items += [(1, f"{k}.", f"4.2({k})") for k in range(1, 4)]
    items += [(2, "a.", "§4.2 item 3.a"), (FOOTNOTE, "1", "§4.2 item 3.a footnote 1"), (2, "b.", "§4.2 item 3.b")]
    items += [(1, "4.", "4.2 item 4")]
    ids = [(0, "Protect (PR)", "")]
    ids += [(1, f"PR.AC-{k}:", f"PR.AC-{k}") for k in range(1, 5)]
    ids += [(1, f"PR.DS-{k}:", f"PR.DS-{k}") for k in range(1, 3)]
    annexes = [(0, "1 Область применения", "п. 1"), (1, "1.1", "п. 1.1"), (1, "1.2", "п. 1.2")]
    annexes += [
        (0, "Приложение А (обязательное)", "прил. А"),
        (1, "А.1", "прил. А п. А.1"),
        (1, "А.2", "прил. А п. А.2"),
    ]
    annexes += [
        (2, "А.2.1", "прил. А п. А.2.1"),
        (0, "Приложение Б (справочное)", "прил. Б"),
        (1, "Б.1", "прил. Б п. Б.1"),
        # a ГОСТ Р's national annex beside the adopted standard's own
        (0, "Приложение ДА (справочное)", "прил. ДА"),
        (1, "ДА.1", "прил. ДА п. ДА.1"),
        (1, "ДА.2", "п. ДА.2"),
    ]
    roman = [(0, "I. Общие положения", "разд. I"), (1, "1.", "разд. I п. 1"), (1, "2.", "разд. I п. 2")]
    roman += [(0, "II. Порядок работы", "разд. II"), (1, "3.", "разд. II п. 3"), (2, "а)", "п. 3 подп. «а»")]
    roman += [(2, "б)", "п. 3 подп. «б»"), (1, "4.", "п. 4")]
    restated = [(0, "3.1 Account Management", "§3.1"), (0, "AC-1 POLICY AND PROCEDURES", "AC-1")]
    restated += [(1, "(1)", "AC-1(1)"), (0, "AC-2 ACCOUNT MANAGEMENT", "AC-2"), (1, "(1)", "AC-2(1)")]
    restated += [(0, "Appendix B Industrial Systems", "Appendix B"), (1, "AC-1 Policy:", "Appendix B AC-1")]
    # A catalogue and an appendix restating one control under its own heading: the catalogue is the home.
    catalogue = [(0, "Appendix F Security Control Catalog", "Appendix F"), (0, "AC-1 POLICY AND PROCEDURES", "AC-1")]
    catalogue += [(1, "(1)", "AC-1(1)"), (0, "AC-2 ACCOUNT MANAGEMENT", "AC-2"), (1, "(1)", "AC-2(1)")]
    catalogue += [(1, "(2)", "AC-2(2)"), (0, "AC-3 ACCESS ENFORCEMENT", "AC-3"), (1, "(1)", "AC-3(1)")]
    catalogue += [(0, "Appendix I Industrial Control Systems", "Appendix I")]
    catalogue += [(0, "AC-2 ACCOUNT MANAGEMENT", "Appendix I AC-2"), (1, "(1)", "Appendix I AC-2(1)")]
    # An EU act: recitals in the preamble, articles whose paragraphs «1.» hold points «(a)» and «(i)», an annex.
    act = [(1, "(1)", "Recital 1"), (1, "(2)", "recital (2)"), (0, "CHAPTER I GENERAL PROVISIONS", "")]
    act += [(0, "Article 1 Subject matter", "Article 1"), (1, "1.", "Article 1(1)"), (1, "2.", "Art. 1(2)")]
    act += [(2, "(a)", "point (a) of Article 1(2)"), (2, "(b)", "Article 1(2), first subparagraph, point (b)")]
    act += [(3, "(i)", "Article 1(2)(b)(i)")]
    act += [(3, "(ii)", "Article 1(2)(b), point (ii)"), (0, "Article 2 Scope", "Article 2"), (1, "1.", "Article 2(1)")]
    act += [
        (0, "ANNEX I List of legislation", "Annex I"),
        (1, "1.", "Annex I point 1"),
        (2, "(a)", "Annex I, point 1(a)"),
    ]
    # A notice's directive: bold paragraph headings «(a) Comments Due Date» under no numbered heading.
    ad = [(0, "(a) Comments Due Date", "(a)"), (1, "(1)", "(a)(1)"), (1, "(2)", "paragraph (a)(2)")]
    ad += [(0, "(b) Affected ADs", "(b)"), (1, "(1)", "(b)(1)"), (0, "(c) Applicability", "(c)")]
    ad += [(1, "(1)", "(c)(1)"), (2, "(i)", "(c)(1)(i)"), (2, "(ii)", "paragraph (c)(1)(ii)")]
    # A framework's core as one table (NIST SSDF, CSF): groups named by a title and their id in brackets,
    # «Protect the Software (PS)», nesting the ids of their rows, «PS.1.1:».
    core = [(0, "2 The framework core", "")]
    for group, title in (("PS", "Protect the Software"), ("PW", "Produce Well-Secured Software")):
        core.append((1, f"{title} ({group}):", group))
        for k in (1, 2):
            core.append((2, f"Practice {k} of {group.lower()} ({group}.{k}):", f"{group}.{k}"))
            core += [(3, f"{group}.{k}.{t}:", f"{group}.{k}.{t}") for t in (1, 2)]
    csf = [(0, "Appendix A Framework Core", "")]
    for fn, title, cats in (("ID", "IDENTIFY", ("AM", "BE")), ("PR", "PROTECT", ("AC",))):
        csf.append((1, f"{title} ({fn}):", fn))
        for cat in cats:
            csf.append((2, f"Category {cat.lower()} ({fn}.{cat}):", f"{fn}.{cat}"))
            csf += [(3, f"{fn}.{cat}-{k}:", f"{fn}.{cat}-{k}") for k in (1, 2, 3)]
    # A vendor's manual: numbered steps under headings without numbers, cited by the heading.
    steps = [(0, "Installing the Server", ""), (1, "", "Installing the Server")]
    steps += [(1, "1.", "Installing the Server item 1")]
    steps += [(1, "2.", "«Installing the Server» item 2"), (2, "a.", "Installing the Server item 2.a")]
    steps += [(2, "b.", "Installing the Server, item 2.b"), (1, "3.", "Installing the Server item 3")]
    steps += [(0, "Upgrading an Installation", ""), (1, "", "«Upgrading an Installation»")]
    steps += [(1, "1.", "Upgrading an Installation item 1")]
    steps += [(1, "2.", "Upgrading an Installation item 2")]
    rmf = [(0, "3.1 PREPARE", "§3.1")] + [(1, f"TASK P-{k}", f"Task P-{k}") for k in range(1, 3)]
    rmf += [(1, "TASK P-3", "Section 3.1, Task P-3")]  # the task named with the section it is in
    rmf += [(0, "3.2 CATEGORIZE", "§3.2"), (1, "TASK C-1", "Task C-1"), (1, "Task C-2", "task C-2")]
    # A guide's chapters «Chapter 2 The Fundamentals» around their sections, appendices after them.
    guide = [(0, "Chapter 1 Introduction", ""), (1, "", "Chapter 1"), (0, "1.1 Purpose and Scope", "")]
    guide += [(1, "", "§1.1"), (0, "1.2 Audience", ""), (1, "", "Chapter 1 §1.2")]
    guide += [(0, "Chapter 2 The Fundamentals", "")]
    guide += [(1, "", "Chapter 2"), (0, "2.1 Widget Architecture", ""), (1, "", "Chapter 2, Section 2.1")]
    guide += [(0, "Appendix A Acronyms", ""), (1, "", "App. A"), (0, "Appendix B Glossary", ""), (1, "", "Appendix B")]
    # A resolution and the Rules it approves in one file: the Rules' points are «Правила п. 2», apart from its own.
    rules = [(1, "1.", "п. 1"), (1, "2.", "п. 2"), (PLAIN, "Утверждены постановлением от 1 июля 2020 г. № 5", "")]
    rules += [(0, "ПРАВИЛА ПРОВЕДЕНИЯ ПРОВЕРОК", ""), (1, "1.", "Правила п. 1"), (1, "2.", "п. 2 Правил")]
    rules += [(2, "а)", "Правила п. 2 подп. «а»"), (1, "3.", "ПРАВИЛА п. 3")]
    # An English rule's preamble: «I. Background» › «A. Purpose» › «1.» › «a.», restarting in each division,
    # cited «section I.A.1» or «II.A.1.a».
    divisions = [(0, "I. Background", "section I"), (1, "A. Purpose", "section I.A"), (2, "1.", "section I.A.1")]
    divisions += [(2, "2.", "I.A.2"), (1, "B. Scope", "I.B"), (0, "II. Discussion", "II")]
    divisions += [(1, "A. Comments", "II.A"), (2, "1.", "II.A.1"), (3, "a.", "II.A.1.a")]
    # The same with its lettered parts set as headings, and a policy's lettered divisions «A. General Provisions».
    headed = [(0, "I. Background", ""), (0, "A. Purpose", ""), (1, "", "I.A"), (1, "1.", "I.A.1")]
    headed += [(0, "B. Scope", ""), (1, "", "section I.B"), (0, "II. Discussion", ""), (0, "A. Comments", "")]
    headed += [(1, "1.", "II.A.1")]
    lettered = [(0, "A. General Provisions", ""), (1, "", "Section A"), (1, "1.", "A.1"), (1, "2.", "Section A.2")]
    lettered += [(0, "B. Access Control", ""), (1, "1.", "B.1"), (2, "a.", "B.1.a")]
    # A Commonwealth act: «PART 2 SECURITY» around its sections «3 Duties of operators», cited «s. 3(1)(a)».
    act = [(0, "PART 1 PRELIMINARY", ""), (0, "1 Short title", ""), (1, "", "s. 1"), (0, "2 Definitions", "")]
    act += [(1, "(1)", "section 2(1)"), (1, "(2)", "s. 2(2)"), (2, "(a)", "s. 2(2)(a)"), (0, "PART 2 SECURITY", "")]
    act += [
        (0, "3 Duties of operators", ""),
        (1, "(1)", "s. 3(1)"),
        (2, "(a)", "s. 3(1)(a)"),
        (1, "(2)", "Part 2 s. 3(2)"),
    ]
    # An agreement: «ARTICLE II THE LOAN» around «Section 2.01» (no period after a dotted number) and its «(a)»;
    # «Question 2:», «REQ-002:» and «Rule 3.1» printed one after the other with no gap (a PDF joins no two).
    agreement = [(0, "ARTICLE I DEFINITIONS", "Article I"), (1, "Section 1.01", "Section 1.01")]
    agreement += [(1, "Section 1.02", "Article I, Section 1.02"), (0, "ARTICLE II THE LOAN", "Article II")]
    agreement += [(1, "Section 2.01", "Section 2.01"), (2, "(a)", "Section 2.01(a)"), (2, "(b)", "§2.01(b)")]
    run = [(0, "Frequently Asked Questions", ""), (1, "Question 1:", "Question 1"), (1, "Question 2:", "question 2")]
    run += [(0, "1 Requirements", ""), (1, "REQ-001:", "REQ-001"), (1, "REQ-002:", "REQ-002")]
    run += [(1, "Rule 3.1", "Rule 3.1"), (1, "Rule 3.2", "rule 3.2")]
    # A contract in articles «Статья 1. Предмет договора» whose points are «1.1.», «1.2.»: points, not a law's parts.
    articles = [(0, "Статья 1. Предмет договора", "ст. 1"), (1, "1.1.", "п. 1.1"), (1, "1.2.", "ст. 1 п. 1.2")]
    articles += [(0, "Статья 2. Цена договора", "ст. 2"), (1, "2.1.", "пункт 2.1"), (2, "2.1.1.", "п. 2.1.1")]
    # A treaty's «Article 5» numbering its paragraphs «5.1», «5.2» (cited «Article 5.2(a)»); guidelines numbering
    # their paragraphs through the document across headings («paragraph 5», one paragraph under its heading).
    treaty = [(0, "Article 5 Obligations", "Article 5"), (1, "5.1", "Article 5.1"), (1, "5.2", "Article 5.2")]
    treaty += [(2, "(a)", "Article 5.2(a)"), (0, "Article 6 Term", "Article 6"), (1, "6.1", "6.1")]
    through = [(0, "1 Introduction", ""), (1, "1.", "paragraph 1"), (1, "2.", "paragraph 2"), (0, "2 Scope", "")]
    through += [(1, "3.", "paragraph 3"), (1, "4.", "para. 4"), (0, "3 Analysis", ""), (1, "5.", "paragraph 5")]
    # SP 800-171 rev. 3 requirements «03.01.01» with their statements «a.» (cited «03.01.01.a»); trust services
    # criteria «CC6.1», «A1.2» printed one after the other.
    r3 = [(0, "03.01 Access Control", ""), (1, "03.01.01 Account Management", "03.01.01"), (2, "a.", "03.01.01.a")]
    r3 += [(2, "b.", "03.01.01 b."), (1, "03.01.02 Access Enforcement", "03.01.02")]
    criteria = [(0, "Logical and Physical Access Controls", ""), (1, "CC6.1", "CC6.1"), (1, "CC6.2", "CC6.2")]
    criteria += [(0, "Additional Criteria for Availability", ""), (1, "A1.1", "A1.1"), (1, "A1.2", "criterion A1.2")]
    # A corporate policy's «2.0 Scope» (section 2), «3.0 Policy» holding «3.1», «3.2.1».
    policy = [(0, "1.0 Purpose", ""), (1, "", "Section 1.0"), (0, "2.0 Scope", ""), (1, "", "2.0")]
    policy += [(0, "3.0 Policy", ""), (1, "3.1", "3.1"), (1, "3.2", "Section 3.2"), (2, "3.2.1", "3.2.1")]
    # A statute's and an executive order's sections named with their word: «SEC. 101. SHORT TITLE.» as a heading,
    # «Sec. 2. Removing Barriers.» run into its text; their «(a)», «(2)(A)» cited «Sec. 2(b)(i)».
    statute = [(0, "SEC. 101. SHORT TITLE.", "§101"), (1, "(a)", "Sec. 101(a)")]
    statute += [(0, "SEC. 102. DEFINITIONS.", "section 102"), (1, "(1)", "section 102(1)")]
    statute += [(1, "(2)", "section 102(2)"), (2, "(A)", "section 102(2)(A)")]
    statute += [(0, "Section 103. Policy.", "Section 103"), (1, "(a)", "Section 103(a)")]
    order = [(1, "Section 1. Policy.", "Section 1"), (1, "Sec. 2. Removing Barriers.", "Sec. 2")]
    order += [(2, "(a)", "Sec. 2(a)"), (2, "(b)", "section 2(b)"), (3, "(i)", "Sec. 2(b)(i)")]
    order += [(1, "Sec. 3. Scope.", "Sec. 3")]
    # A catalogue's control statements «a.», «1.» under «AC-2 ACCOUNT MANAGEMENT», cited «AC-2a.1.» (SP 800-53 rev. 5).
    statements = [(0, "AC-2 ACCOUNT MANAGEMENT", "AC-2"), (1, "a.", "AC-2a."), (2, "1.", "AC-2a.1.")]
    statements += [(2, "2.", "AC-2 a.2"), (1, "b.", "AC-2b.")]
    statements += [(0, "AC-3 ACCESS ENFORCEMENT", "AC-3"), (1, "a.", "AC-3a")]
    # A standard's terms section: each entry opens with its term in lower case up to a colon or a dash.
    terms = [(0, "3 Термины и определения", "п. 3"), (1, "3.1 автоматизированная система; АС:", "п. 3.1")]
    terms += [(1, "3.2 пользователь:", "п. 3.2"), (1, "3.3 заказчик —", "пункт 3.3"), (0, "4 Общие положения", "п. 4")]
    terms += [(1, "4.1", "п. 4.1")]
    en_terms = [(0, "3 Terms and definitions", "clause 3"), (1, "3.1 access control:", "3.1")]
    en_terms += [(1, "3.2 attack:", "§3.2"), (1, "3.3 audit scope —", "clause 3.3")]
    en_terms += [(0, "4 Context of the organization", "clause 4"), (1, "4.1", "4.1")]
    # Labels named by a word the document repeats: a manual's «Step 1:» restarting under each heading, CIS's
    # «Safeguard 1.2» under «CIS Control 1: …», a guide's «Principle 2:», a methodology's «Этап 3 —».
    worded = [(0, "Installing the Agent", ""), (1, "Step 1:", "Installing the Agent Step 1")]
    worded += [(1, "Step 2:", "«Installing the Agent» Step 2"), (0, "Removing the Agent", "")]
    worded += [(1, "Step 1.", "Removing the Agent Step 1"), (1, "Step 2.", "Removing the Agent, Step 2")]
    cis = [(0, "CIS Control 1: Inventory of Assets", "CIS Control 1"), (1, "Safeguard 1.1", "Safeguard 1.1")]
    cis += [(1, "Safeguard 1.2", "CIS Control 1 Safeguard 1.2"), (0, "CIS Control 2: Inventory of Software", "")]
    cis += [(1, "", "Control 2"), (1, "Safeguard 2.1", "safeguard 2.1")]
    principles = [(0, "Principles", ""), (1, "Principle 1:", "Principle 1"), (1, "Principle 2:", "principle 2")]
    objectives = [(0, "Access Management", ""), (1, "Control Objective 1.1:", "Control Objective 1.1")]
    objectives += [(1, "Control Objective 1.2:", "control objective 1.2"), (0, "Change Management", "")]
    objectives += [(1, "Control Objective 2.1:", "Control Objective 2.1")]
    objectives += [(0, "Recommendations", ""), (1, "Rec. 1", "Rec. 1"), (1, "Rec. 2", "Rec 2")]
    stages = [(0, "Порядок оценки", ""), (1, "Этап 1.", "Этап 1"), (1, "Этап 2.", "этап 2"), (1, "Этап 3 —", "Этап 3")]
    stages += [(0, "Порядок работ", ""), (1, "Шаг 1.1.", "Шаг 1.1"), (1, "Шаг 1.2.", "шаг 1.2")]
    # Families no rule names, read by their labels' shape and the evidence of a numbering (law.shapes): ATT&CK's
    # techniques «T1059» over their sub-techniques «T1059.001»; CMMC's practices «AC.L2-3.1.3» (a level in the id
    # changing while the numbering goes on); HITRUST's «01.a»; BSI's requirements «APP.1.1.A3»; IEC 62443's
    # «SR 1.1» and its enhancements printed with it, «SR 1.1 RE 1»; NERC's «R1.» holding parts «1.1.», cited
    # «R1 Part 1.1»; MASVS's «MASVS-STORAGE-1»; a handbook's «1-2»; a FAQ's «Q2.»; Russian codes «М-01»; OWASP's
    # «A01:2021 –» (the edition after the colon).
    attack = [(0, "T1059 Command and Scripting Interpreter", "T1059"), (1, "T1059.001 PowerShell", "T1059.001")]
    attack += [(1, "T1059.002 AppleScript", "T1059.002"), (1, "T1059.003 Windows Command", "technique T1059.003")]
    attack += [(0, "T1204 User Execution", "T1204"), (1, "T1204.001 Malicious Link", "sub-technique T1204.001")]
    attack += [(1, "T1204.002 Malicious File", "T1204.002")]
    cmmc = [(0, "Access Control (AC)", "")] + [(1, f"AC.L1-3.1.{k}", f"AC.L1-3.1.{k}") for k in (1, 2)]
    cmmc += [(1, f"AC.L2-3.1.{k}", f"AC.L2-3.1.{k}") for k in (3, 4, 5)]
    cmmc += [(0, "Awareness and Training (AT)", "")] + [
        (1, f"AT.L2-3.2.{k}", f"practice AT.L2-3.2.{k}") for k in (1, 2)
    ]
    hitrust = [(0, "01 Access Control", "")] + [(1, f"01.{c}", f"01.{c}") for c in "abc"]
    hitrust += [(0, "02 Human Resources Security", "")] + [(1, f"02.{c}", f"control 02.{c}") for c in "ab"]
    bsi = [(0, "APP.1.1 Office Products", "APP.1.1")] + [(1, f"APP.1.1.A{k}", f"APP.1.1.A{k}") for k in (1, 2, 3)]
    bsi += [(0, "SYS.1.1 General Server", "SYS.1.1")] + [
        (1, f"SYS.1.1.A{k}", f"requirement SYS.1.1.A{k}") for k in (1, 2)
    ]
    iec = [(0, "1 Identification and authentication control", ""), (1, "SR 1.1", "SR 1.1")]
    iec += [(2, "SR 1.1 RE 1", "SR 1.1 RE 1"), (2, "SR 1.1 RE 2", "SR 1.1 RE 2"), (1, "SR 1.2", "SR 1.2")]
    iec += [(1, "SR 1.3", "SR 1.3")]
    nerc = [(0, "B. Requirements and Measures", ""), (1, "R1.", "R1"), (2, "1.1.", "R1 Part 1.1")]
    nerc += [(2, "1.2.", "Requirement R1, Part 1.2"), (1, "R2.", "R2"), (2, "2.1.", "R2 Part 2.1"), (1, "R3.", "R3")]
    masvs = [(0, "MASVS-STORAGE: Storage", "")] + [(1, f"MASVS-STORAGE-{k}", f"MASVS-STORAGE-{k}") for k in (1, 2)]
    masvs += [(0, "MASVS-CRYPTO: Cryptography", "")] + [(1, f"MASVS-CRYPTO-{k}", f"MASVS-CRYPTO-{k}") for k in (1, 2)]
    dashed = [(0, "Chapter 1 Overview", "")] + [(1, f"1-{k}", f"paragraph 1-{k}") for k in (1, 2, 3)]
    dashed += [(0, "Chapter 2 Policy", "")] + [(1, f"2-{k}", f"paragraph 2-{k}") for k in (1, 2)]
    faq = [(0, "Questions", "")] + [(1, f"Q{k}.", f"Q{k}") for k in (1, 2, 3)]
    codes = [(0, "Меры защиты", "")] + [(1, f"М-{k:02d}", f"мера М-{k:02d}") for k in (1, 2, 3)]
    top10 = [(0, "The Top 10", "")] + [(1, f"A0{k}:2021 –", f"A0{k}:2021") for k in (1, 2, 3)]
    # A catalogue's ids in the cells of one table, each with its statement («| T1059.001 The … |»)
    techniques = [(0, "Execution techniques", "")] + [(1, f"T1059.00{k}", f"T1059.00{k}") for k in (1, 2, 3)]
    # Labels an amendment inserted after the one of their number: an act's «(1A)» and «12A», a framework's «1.3A».
    inserted = [(0, "PART 1 DUTIES", ""), (0, "1 Duty of care", ""), (1, "(1)", "s. 1(1)"), (1, "(1A)", "s. 1(1A)")]
    inserted += [(1, "(2)", "section 1(2)"), (0, "1A Power to issue guidance", ""), (1, "(1)", "section 1A(1)")]
    inserted += [(1, "(2)", "s. 1A(2)"), (0, "2 Interpretation", ""), (1, "", "s. 2")]
    advisory = [(0, "1 Restrict Internet Access", ""), (1, "1.1", "1.1"), (1, "1.2", "control 1.2")]
    advisory += [(1, "1.3A", "1.3A"), (1, "1.4", "1.4"), (0, "2 Reduce Attack Surface", ""), (1, "2.1", "2.1")]
    return [
        _scheme("inserted-sections", True, inserted),
        _scheme("inserted-controls", True, advisory),
        _scheme("shape-techniques", True, attack),
        _scheme("shape-levels", True, cmmc),
        _scheme("shape-lettered", True, hitrust),
        _scheme("shape-modules", True, bsi),
        _scheme("shape-enhancements", True, iec),
        _scheme("shape-requirements", True, nerc),
        _scheme("shape-categories", True, masvs),
        _scheme("shape-dashed", True, dashed),
        _scheme("shape-questions", True, faq),
        _scheme("shape-codes", False, codes),
        _scheme("shape-editions", True, top10),
        _scheme("shape-table", True, techniques, table=True),
        _scheme("worded-steps", True, worded),
        _scheme("worded-controls", True, cis),
        _scheme("worded-principles", True, principles),
        _scheme("worded-objectives", True, objectives),
        _scheme("worded-stages", False, stages),
        _scheme("terms", False, terms),
        _scheme("terms-en", True, en_terms),
        _scheme("agreement-articles", True, agreement),
        _scheme("policy-sections", True, policy),
        _scheme("requirements-r3", True, r3),
        _scheme("trust-criteria", True, criteria),
        _scheme("treaty-articles", True, treaty),
        _scheme("numbered-paragraphs", True, through),
        _scheme("contract-articles", False, articles),
        _scheme("run-together", True, run),
        _scheme("en-divisions", True, divisions),
        _scheme("en-divisions-headed", True, headed),
        _scheme("lettered-divisions", True, lettered),
        _scheme("act-parts", True, act),
        _scheme("named-sections", True, statute),
        _scheme("order-sections", True, order),
        _scheme("control-statements", True, statements),
        _scheme("guide-chapters", True, guide),
        _scheme("rules", False, rules),
        _scheme("annexes", False, annexes),
        _scheme("roman-divisions", False, roman),
        _scheme("restated-controls", True, restated),
        _scheme("restated-catalogue", True, catalogue),
        _scheme("rmf-tasks", True, rmf),
        _scheme("eu-act", True, act),
        _scheme("ad-paragraphs", True, ad),
        _scheme("gost", False, gost),
        _scheme("contract-glued", False, glued),
        _scheme("annex-controls", True, annex),
        _scheme("cfr-paragraphs", True, cfr),
        _scheme("cfr-chained", True, chained),
        _scheme("list-items", True, items),
        _scheme("list-run-in", True, run_in),
        _scheme("id-series", True, ids),
        _scheme("framework-table", True, core, table=True),
        _scheme("csf-table", True, csf, table=True),
        _scheme("manual-steps", True, steps),
    ]


def title(scheme: Scheme) -> str:
    return f"Test standard of {scheme.name} numbering" if scheme.english else f"Тестовый стандарт «{scheme.name}»"


def markdown(scheme: Scheme) -> str:
    out = [f"# {title(scheme)}", ""]
    if scheme.table:
        heading, cells = table_rows(scheme)
        out += [f"## {heading}", "", "| " + " | ".join(cells[0]) + " |", "|" + "---|" * len(cells[0])]
        return "\n".join(out + ["| " + " | ".join(row) + " |" for row in cells[1:]] + [""])
    for b in scheme.blocks:
        out += [f"## {b.text}" if b.depth == 0 else b.printed, ""]
    return "\n".join(out)


def table_rows(scheme: Scheme) -> tuple[str, list[list[str]]]:
    """A table scheme's heading and its rows, the header first: a block goes in the column of its depth,
    on the row before when that row's later columns are still empty (a group beside its first member)."""
    width = max(b.depth for b in scheme.blocks)
    rows: list[list[str]] = [["Group", "Practice", "Task"][:width]]
    last = width
    for b in scheme.blocks[1:]:
        if b.depth <= last:
            rows.append([""] * width)
        rows[-1][b.depth - 1] = b.text
        last = b.depth
    return scheme.blocks[0].text, rows


def write_docx(scheme: Scheme, path: Path) -> Path:
    """The scheme as a Word document: headings in Heading 2, labelled blocks as plain paragraphs."""
    import docx

    document = docx.Document()
    document.add_heading(title(scheme), level=1)
    if scheme.table:
        heading, rows = table_rows(scheme)
        document.add_heading(heading, level=2)
        grid = document.add_table(rows=len(rows), cols=len(rows[0]))
        grid.style = "Table Grid"
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                grid.cell(r, c).text = text
        document.save(str(path))
        return path
    for b in scheme.blocks:
        if b.depth == 0:
            document.add_heading(b.text, level=2)
        else:
            document.add_paragraph(b.printed)
    document.save(str(path))
    return path


_DISPLAY_HEADINGS = frozenset(
    {"manual-steps", "worded-steps", "worded-principles", "worded-stages", "trust-criteria", "shape-levels"}
    | {"worded-objectives"}
    | {"shape-modules", "shape-requirements", "shape-categories"}
)
_COLUMN_GUTTER = 24.0
_COLUMN_HEIGHT = 260.0  # points of a column: a scheme of a dozen blocks fills more than one


def _two_columns(pages: list[list[Any]], shift: float) -> list[list[Any]]:
    """Pages of one narrow column, set two a page: the second of each pair moved right by ``shift``."""
    out = []
    lefts, rights = pages[::2], pages[1::2]
    for left, right in zip(lefts, [*rights, *[[]] * (len(lefts) - len(rights))], strict=True):
        moved = [replace(op, x=op.x + shift) if hasattr(op, "x") else op for op in right]
        moved = [replace(op, x1=op.x1 + shift, x2=op.x2 + shift) if hasattr(op, "x1") else op for op in moved]
        out.append([*left, *moved])
    return out


def write_pdf(scheme: Scheme, path: Path, *, columns: int = 1) -> Path:
    """The scheme as a PDF; ``columns=2`` sets it in two columns a page (a journal, a Federal Register notice)."""
    register_fonts()
    width = (A4[0] - 2 * 56.0 - _COLUMN_GUTTER) / 2
    # Columns short enough that even a short scheme runs on into the second: every page is set in two.
    short = _Flow(left=56.0, right=A4[0] - 56.0 - width, bottom=A4[1] - 57.0 - _COLUMN_HEIGHT)
    flow = _Flow() if columns == 1 else short
    flow.paragraph(title(scheme), font=FONT_BOLD, size=16, indent=0, after=12)
    if scheme.table:
        heading, rows = table_rows(scheme)
        flow.space(8)
        flow.paragraph(heading, font=FONT_BOLD, size=12, indent=0, after=6)
        flow.table([flow.width / len(rows[0])] * len(rows[0]), rows[0], rows[1:], size=8)
    for b in scheme.blocks if not scheme.table else ():
        if b.depth in (0, PLAIN):
            flow.space(8)
        if b.depth == PLAIN:
            flow.paragraph(b.text, font=FONT, size=11, indent=0, after=8)
        elif b.depth == 0:
            # A manual's headings carry no number: display type is what makes them headings.
            size = 13 if scheme.name in _DISPLAY_HEADINGS else 12
            flow.paragraph(b.text, font=FONT_BOLD, size=size, indent=0, after=6)
        else:
            note = b.depth == FOOTNOTE  # set as a footnote is: smaller, at the margin
            indent = 0 if note else 18 * max(0, b.depth)
            flow.paragraph(b.printed, font=FONT, size=9 if note else 11, indent=indent, after=4)
    meta = {"title": "", "author": "DocShelf test suite", "lang": "en-US" if scheme.english else "ru-RU"}
    pages = flow.pages if columns == 1 else _two_columns(flow.pages, width + _COLUMN_GUTTER)
    path.write_bytes(_render(pages, lambda _c, _n, _t: None, meta, outline=False))
    return path
