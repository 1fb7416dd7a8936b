"""Cross-references: a section's references to its own clauses and to other documents, with their targets,
returned by fetch (library, CLI and MCP alike) and shown as links on the web desk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from mcp import Client
from server_support import payload
from starlette.testclient import TestClient

from docshelf.build.pipeline import DocOptions
from docshelf.cli import cli
from docshelf.server.app import create_server
from docshelf.server.pin import Pin
from docshelf.shelf import gitrepo
from docshelf.shelf import store as shelf
from docshelf.text import cited
from docshelf.web.app import create_web_app

ORDER = """# Приказ о тестовом порядке

## 1. Общие положения

1.1. Оператор ведёт журнал событий в соответствии с пунктом 2.2 настоящего Порядка и не реже раза в день.

1.2. Журнал хранят согласно статье 3 Федерального закона № 777-ФЗ и пункту 1.1 настоящего Порядка.

## 2. Требования

2.1. Требования к журналу устанавливает оператор системы хранения тестовых данных.

2.2. Записи журнала не изменяют после их подписания ответственным работником оператора.
"""
LAW = """# Федеральный закон № 777-ФЗ «О тестовых журналах»

## Статья 1. Предмет

1. Настоящий закон регулирует ведение тестовых журналов операторами систем данных.

## Статья 2. Понятия

1. Журнал есть упорядоченный перечень событий системы, который ведёт оператор данных.

## Статья 3. Хранение

1. Журнал хранят не менее трёх лет со дня последней записи в нём, если иное не установлено.
"""
CFR = """# Part 2 Test Records

## § 2.10 Controls for closed systems.

(a) The operator validates the system as described in § 2.30(a) of this part and keeps the record.

(b) The operator limits access to the system, see Section 2.30 for the open systems.

## § 2.30 Controls for open systems.

(a) The operator of an open system encrypts every record it sends over a public network.
"""

CATALOG = """# Test Control Catalog

## Access Control

AC-1 The organization develops an access control policy and reviews it every year.

AC-2 The organization manages accounts. Related controls: AC-1, AC-3 (1), XY-9.

AC-3 The system enforces approved authorizations for logical access to information.

(1) The system enforces dual authorization for privileged commands it runs.
"""


@pytest.fixture(scope="module")
def refs_shelf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("xrefs")
    root = shelf.init(base / "shelf", name="References")
    docs = [("order.md", ORDER, "Порядок № 5"), ("law.md", LAW, "777-ФЗ"), ("cfr.md", CFR, "2 CFR")]
    for name, text, doc_id in [*docs, ("catalog.md", CATALOG, "TC 1")]:
        (base / name).write_text(text, encoding="utf-8")
        shelf.add(root, [base / name], DocOptions(source="", category="t", id=doc_id), progress=lambda _m: None)
    return root


def _path(root: Path, doc_id: str) -> str:
    return next(m.sections[0].path for m in shelf.metas(root) if m.id == doc_id)


def test_references_to_the_document_itself_and_to_another_on_the_shelf(refs_shelf: Path) -> None:
    got = cited.fetch_section(refs_shelf, _path(refs_shelf, "Порядок № 5"))
    found = [(r["text"], r["doc_id"], r["clause"], r["level"]) for r in got.references]
    assert found == [
        ("пунктом 2.2", "Порядок № 5", "п. 2.2", "clause"),
        ("статье 3", "777-ФЗ", "ст. 3", "clause"),
        ("пункту 1.1", "Порядок № 5", "п. 1.1", "clause"),
    ]
    whole = cited.reader.fetch(refs_shelf, got.path).text
    assert all(whole[r["start"] : r["end"]] == r["text"] for r in got.references)  # offsets into the section file
    english = cited.fetch_section(refs_shelf, _path(refs_shelf, "2 CFR")).references
    assert [(r["text"], r["clause"]) for r in english] == [("§ 2.30(a)", "§2.30(a)"), ("Section 2.30", "§2.30")]


def test_a_catalogue_naming_its_own_ids_references_them(refs_shelf: Path) -> None:
    """«Related controls: AC-1, AC-3 (1)» names two clauses of the catalogue; «XY-9» is none of its ids, and a
    block's own label at its start is no reference."""
    got = cited.fetch_ref(refs_shelf, "TC 1 AC-2")
    assert [(r["text"], r["clause"], r["level"]) for r in got.references] == [
        ("AC-1", "AC-1", "clause"),
        ("AC-3 (1)", "AC-3(1)", "clause"),
    ]
    assert cited.fetch_ref(refs_shelf, "TC 1 AC-1").references == []


def test_a_clause_fetched_by_ref_carries_only_its_own_references(refs_shelf: Path) -> None:
    got = cited.fetch_ref(refs_shelf, "Порядок № 5 п. 1.2")
    assert [r["clause"] for r in got.references] == ["ст. 3", "п. 1.1"]
    assert cited.fetch_ref(refs_shelf, "Порядок № 5 п. 2.1").references == []


@pytest.mark.anyio
async def test_fetch_returns_the_references_over_mcp_and_in_the_cli(refs_shelf: Path) -> None:
    path = _path(refs_shelf, "Порядок № 5")
    async with Client(create_server(refs_shelf, pin=Pin.at(refs_shelf), audit=None)) as client:
        res = await client.call_tool("fetch", {"path": path})
    library = cited.fetch_section(refs_shelf, path).to_dict()
    assert payload(res)["references"] == library["references"] and library["references"]
    out = CliRunner().invoke(cli, ["fetch", path, "--shelf", str(refs_shelf), "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["references"] == library["references"]


def test_the_desk_shows_references_as_links_to_their_targets(refs_shelf: Path, tmp_path: Path) -> None:
    sha = gitrepo.resolve(refs_shelf)
    path = _path(refs_shelf, "Порядок № 5")
    target = _path(refs_shelf, "777-ФЗ")
    client = TestClient(create_web_app(refs_shelf, tmp_path / "audit.jsonl"), base_url="http://127.0.0.1")
    page = client.get(f"/at/{sha}/{path}").text
    assert page.count('class="xref"') == 3
    assert f'href="/at/{sha}/{target}?clause=' in page and ">статье 3</a>" in page
