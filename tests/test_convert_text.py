"""TXT and Markdown converters: unit tests on inline snippets, then RFC 4271 from the corpus."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docshelf.convert.text import convert_markdown, convert_text
from docshelf.errors import ConversionError
from docshelf.model import Converted

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"

RFC_LIKE = """\



Network Working Group                                    Y. Rekhter, Ed.
Request for Comments: 4271                                    T. Li, Ed.

                  A Border Gateway Protocol 4 (BGP-4)

Abstract

   This document discusses the Border Gateway Protocol (BGP), which is
   an inter-Autonomous System routing protocol supporting Classless Inter-
   Domain Routing.

Rekhter, et al.             Standards Track                     [Page 1]
\f
RFC 4271                         BGP-4                      January 2006
4.1.  Message Header Format

   The layout of these fields is shown below:

      0                   1                   2                   3
      +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
      |          Length               |      Type     |
      +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+

      Type:

         This 1-octet unsigned integer indicates the type code of the
         message.  This document defines the following type codes:

                              1 - OPEN
                              2 - UPDATE

   The speaker:
   - drops the TCP connection,
   - releases all BGP resources, and
     changes its state to Idle.

6.  BGP Error Handling.

1. Not a heading because it is a sentence.
Rekhter, et al.             Standards Track                     [Page 2]
\f
"""

TYPEWRITTEN = """\
                    Глава 1. Основные положения

     С т а т ь я  1. Основные понятия

     В настоящем Кодексе используются   следующие  основные
понятия:
     вода -   химическое   соединение   водорода    и    кислорода,
существующее в жидком, твердом и газообразном состояниях;
     С т а т ь я  2. Водное законодательство
                     Российской Федерации
     1. Водное  законодательство  состоит  из  настоящего
Кодекса.
     а) первый подпункт;
     б) второй подпункт.
"""

MARKDOWN = """\
---
title: "Руководство администратора"
author: someone
---
# Общие положения

Первый абзац,
продолжение абзаца.

## 1.1. Термины ##

| Код | Мера |
|---|---|
| УПД.1 | Управление \\| учетными записями |

```text
# это не заголовок
  отступ сохранён
```

**Весь абзац жирный**

Заголовок setext
----------------

* * *

- пункт один
- пункт два
"""


def texts(result: Converted) -> list[str]:
    return [b.text for b in result.blocks]


@pytest.fixture(scope="module")
def rfc_like() -> Converted:
    return convert_text(RFC_LIKE.encode("utf-8"), name="rfc.txt")


def test_pages_split_at_form_feeds(rfc_like: Converted) -> None:
    assert rfc_like.pages == 2
    assert {b.page for b in rfc_like.blocks} == {1, 2}


def test_furniture_lines_are_blocks_of_their_own(rfc_like: Converted) -> None:
    page2 = [b.text for b in rfc_like.blocks if b.page == 2]
    assert page2[0] == "RFC 4271 BGP-4 January 2006"
    assert page2[-1] == "Rekhter, et al. Standards Track [Page 2]"
    assert [b.text for b in rfc_like.blocks if b.page == 1][-1] == "Rekhter, et al. Standards Track [Page 1]"


def test_numbered_headings(rfc_like: Converted) -> None:
    headings = [(b.text, b.level) for b in rfc_like.blocks if b.kind == "heading"]
    assert headings == [("Abstract", 1), ("4.1. Message Header Format", 2), ("6. BGP Error Handling.", 1)]
    assert "1. Not a heading because it is a sentence." in texts(rfc_like)


def test_hard_wrapped_lines_are_joined(rfc_like: Converted) -> None:
    assert (
        "This document discusses the Border Gateway Protocol (BGP), which is an inter-Autonomous System "
        "routing protocol supporting Classless Inter-Domain Routing."
    ) in texts(rfc_like)
    assert (
        "This 1-octet unsigned integer indicates the type code of the message. This document defines "
        "the following type codes:"
    ) in texts(rfc_like)


def test_list_items_and_deliberate_breaks_stay_apart(rfc_like: Converted) -> None:
    assert ["1 - OPEN", "2 - UPDATE"] == [t for t in texts(rfc_like) if re.match(r"\d - ", t)]
    assert "- releases all BGP resources, and changes its state to Idle." in texts(rfc_like)
    assert "- drops the TCP connection," in texts(rfc_like)


def test_figures_are_fenced_verbatim(rfc_like: Converted) -> None:
    figures = [t for t in texts(rfc_like) if t.startswith("```")]
    assert figures[0].startswith("```\nNetwork Working Group   ")  # the two-column title block
    assert figures[1].splitlines()[2] == "+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+"
    assert figures[1].splitlines()[3] == "|          Length               |      Type     |"
    assert figures[1].endswith("\n```")


def test_title_is_the_centred_line(rfc_like: Converted) -> None:
    assert rfc_like.title == "A Border Gateway Protocol 4 (BGP-4)"


def test_first_line_indent_layout() -> None:
    result = convert_text(TYPEWRITTEN.encode("cp1251"), name="vk1995.txt")
    assert result.pages == 0 and {b.page for b in result.blocks} == {0}
    assert texts(result) == [
        "Глава 1. Основные положения",
        "С т а т ь я  1. Основные понятия",
        "В настоящем Кодексе используются следующие основные понятия:",
        "вода - химическое соединение водорода и кислорода, существующее в жидком, твердом и газообразном состояниях;",
        "С т а т ь я  2. Водное законодательство Российской Федерации",
        "1. Водное законодательство состоит из настоящего Кодекса.",
        "а) первый подпункт;",
        "б) второй подпункт.",
    ]


def test_plain_paragraphs_without_form_feeds() -> None:
    data = "Первый абзац\nпродолжается здесь.\n\nВторой абзац.\n".encode()
    result = convert_text(data, name="plain.txt")
    assert texts(result) == ["Первый абзац продолжается здесь.", "Второй абзац."]
    assert result.pages == 0


def test_binary_and_empty_files_are_refused() -> None:
    with pytest.raises(ConversionError, match="binary"):
        convert_text(b"\x00\x01\x02abc", name="blob.txt")
    with pytest.raises(ConversionError, match="no text"):
        convert_text(b"  \n\n\f\n", name="empty.txt")


@pytest.fixture(scope="module")
def markdown() -> Converted:
    return convert_markdown(MARKDOWN.encode("utf-8"), name="guide.md")


def test_markdown_headings(markdown: Converted) -> None:
    headings = [(b.text, b.level) for b in markdown.blocks if b.kind == "heading"]
    assert headings == [("Общие положения", 1), ("1.1. Термины", 2), ("Заголовок setext", 2)]


def test_markdown_keeps_paragraphs_tables_and_code_verbatim(markdown: Converted) -> None:
    assert "Первый абзац,\nпродолжение абзаца." in texts(markdown)
    table = next(b for b in markdown.blocks if b.kind == "table")
    assert table.text == "| Код | Мера |\n|---|---|\n| УПД.1 | Управление \\| учетными записями |"
    assert "```text\n# это не заголовок\n  отступ сохранён\n```" in texts(markdown)
    assert texts(markdown)[-1] == "- пункт один\n- пункт два"


def test_markdown_bold_front_matter_and_rules(markdown: Converted) -> None:
    assert next(b for b in markdown.blocks if b.text == "**Весь абзац жирный**").bold
    assert markdown.title == "Руководство администратора"
    assert not [t for t in texts(markdown) if "author:" in t or t.strip() == "* * *"]


def test_markdown_title_falls_back_to_first_h1() -> None:
    assert convert_markdown(b"Intro\n\n# Title\n\ntext\n", name="a.md").title == "Title"


# --------------------------------------------------------------------------- the real corpus


@pytest.fixture(scope="module")
def rfc4271() -> Converted:
    file = CORPUS / "en-tech" / "meirdev__flowspecd" / "rfc4271.txt"
    if not file.exists():
        pytest.skip(f"corpus file {file} is not available")
    return convert_text(file.read_bytes(), name=file.name)


def test_rfc4271_headings(rfc4271: Converted) -> None:
    headings = {b.text: b.level for b in rfc4271.blocks if b.kind == "heading"}
    assert headings["4.2. OPEN Message Format"] == 2
    assert headings["8.2.1.5. FSM Actions that are Implementation Dependent"] == 4
    assert headings["Appendix F.1. Multiple Networks Per Message"] == 2
    assert rfc4271.title == "A Border Gateway Protocol 4 (BGP-4)"


def test_rfc4271_furniture_at_every_page_edge(rfc4271: Converted) -> None:
    assert rfc4271.pages == 104
    for page in range(1, 105):
        blocks = [b.text for b in rfc4271.blocks if b.page == page]
        assert re.fullmatch(r"Rekhter, et al\. Standards Track \[Page \d+\]", blocks[-1]), page
        if page > 1:
            assert blocks[0] == "RFC 4271 BGP-4 January 2006", page
    assert not [b for b in rfc4271.blocks if "[Page" in b.text and not b.text.startswith("Rekhter")]


def test_rfc4271_figures_and_toc(rfc4271: Converted) -> None:
    open_format = next(b.text for b in rfc4271.blocks if b.text.startswith("```") and "Opt Parm Len" in b.text)
    assert "|           Hold Time           |" in open_format.splitlines()
    assert "4.2. OPEN Message Format .......................................13" in texts(rfc4271)


def test_an_underlined_title_is_the_title_and_a_heading_not_text() -> None:
    data = "Глоссарий демонстрационных документов\n=====================================\n\nтермин — определение\n"
    converted = convert_text(data.encode("utf-8"), name="glossary.txt")
    assert converted.title == "Глоссарий демонстрационных документов"
    first = converted.blocks[0]
    assert (first.kind, first.level, first.text) == ("heading", 1, "Глоссарий демонстрационных документов")
    assert not any("===" in b.text for b in converted.blocks)
