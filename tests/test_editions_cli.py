"""Editions through the CLI and the read tools: statuses for a date, warnings, updates, history, diff."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import corpus_file

from docshelf.build.pipeline import DocOptions
from docshelf.shelf import check, reader
from docshelf.shelf import store as shelf


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "docshelf", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=os.environ.copy(),
    )


EDITION_1 = """# Закон о тестах

## Статья 1. Предмет

1. Настоящий закон регулирует испытания информационных систем на стендах оператора.

2. Испытания проводятся с согласия оператора в порядке, установленном оператором.

## Статья 2. Сроки

1. Испытания длятся не более тридцати календарных дней со дня их начала.
"""
EDITION_2 = EDITION_1.replace("не более тридцати", "не более шестидесяти").replace(
    "## Статья 2. Сроки",
    "## Статья 1.1. Отчёт\n\n1. По итогам испытаний оператор составляет отчёт в письменной форме.\n\n"
    "## Статья 2. Сроки",
)


def test_new_edition_replaces_sections_and_keeps_history(tmp_path: Path) -> None:
    root = tmp_path / "shelf"
    run("init", str(root))
    first, second = tmp_path / "law-2024.md", tmp_path / "law-2025.md"
    first.write_text(EDITION_1, encoding="utf-8")
    second.write_text(EDITION_2, encoding="utf-8")
    assert (
        run(
            "add", str(first), "--shelf", str(root), "--id", "77-ФЗ", "--category", "laws", "--valid-from", "01.01.2024"
        ).returncode
        == 0
    )
    old_commit = reader.read_index(root).commit
    dup = run("add", str(second), "--shelf", str(root), "--id", "77-ФЗ")
    assert dup.returncode == 1 and "--update" in dup.stderr
    res = run("add", str(second), "--shelf", str(root), "--id", "77-ФЗ", "--update", "--valid-from", "2025-01-01")
    assert res.returncode == 0, res.stderr
    metas = shelf.metas(root)
    assert [m.id for m in metas] == ["77-ФЗ"] and metas[0].edition["valid_from"] == "2025-01-01"
    assert not (root / "sources" / "law-2024.md").exists()  # the old source lives on in Git history
    assert check.check(root) == []
    changes = json.loads(run("history", "77-ФЗ", "--shelf", str(root), "--json").stdout)["changes"]
    assert [c["subject"] for c in changes] == ["Update 77-ФЗ", "Add 77-ФЗ"]
    diff = json.loads(run("diff", old_commit, "HEAD", "--shelf", str(root), "--json").stdout)
    clauses = {(c["clause"], c["status"]) for d in diff["documents"] for c in d["clauses"]}
    assert ("ст. 1.1", "added") in clauses and ("ст. 2 ч. 1", "changed") in clauses
    old = run("verify-quote", "Испытания длятся не более тридцати календарных дней", "--ref", "77-ФЗ ст. 2 ч. 1",
              "--shelf", str(root), "--at", old_commit, "--json")  # fmt: skip
    new = run("verify-quote", "Испытания длятся не более тридцати календарных дней", "--ref", "77-ФЗ ст. 2 ч. 1",
              "--shelf", str(root), "--json")  # fmt: skip
    assert json.loads(old.stdout)["verdict"] == "ok" and json.loads(new.stdout)["verdict"] == "not_found"


def test_bad_edition_date_is_a_clear_error(tmp_path: Path, regulation_pdf: Path) -> None:
    root = tmp_path / "shelf"
    run("init", str(root))
    res = run("add", str(regulation_pdf), "--shelf", str(root), "--valid-from", "31.02.2024")
    assert (
        res.returncode == 1 and res.stderr.startswith("Error: ") and "valid" in res.stderr.lower()
    ) or "date" in res.stderr


def test_replaced_by_an_external_act(tmp_path: Path, regulation_pdf: Path) -> None:
    root = shelf.init(tmp_path / "s")
    ed = {"valid_from": "2024-03-01", "valid_to": "2026-03-01", "replaced_by": "ext:999-ФЗ-2"}
    shelf.add(
        root,
        [regulation_pdf],
        DocOptions(source="", category="laws", id="999-ФЗ", edition=ed),
        progress=lambda _m: None,
    )
    section = next(s.path for s in shelf.metas(root)[0].sections if s.clause == "ст. 7")
    from datetime import date

    late = reader.fetch(root, section, as_of=date(2026, 11, 30))
    assert late.status["code"] == "replaced" and late.warning and "999-ФЗ-2" in late.warning
    early = reader.fetch(root, section, as_of=date(2025, 1, 1))
    assert early.status["code"] == "in_force"
    index = reader.read_index(root, as_of=date(2026, 11, 30))
    assert [(s["id"], s["status"]) for s in index.statuses] == [("999-ФЗ", "replaced")]
    assert "заменён: 999-ФЗ-2" in index.text  # the stored facts, not the date-dependent status
    assert check.check(root) == []
    shelf_wrong = shelf.init(tmp_path / "s2")
    ed_typo = {**ed, "replaced_by": "999-ФЗ-2"}  # not on the shelf and not marked ext:
    shelf.add(
        shelf_wrong, [regulation_pdf], DocOptions(source="", id="999-ФЗ", edition=ed_typo), progress=lambda _m: None
    )
    assert any(p.kind == "edition-relation" for p in check.check(shelf_wrong))


def test_water_codes_repealed_and_current(tmp_path: Path) -> None:
    old = corpus_file("ru-regulations/deep-foundation__russian-laws/102038209.html")
    new = corpus_file("ru-regulations/deep-foundation__russian-laws/102107048.html")
    root = tmp_path / "shelf"
    run("init", str(root))
    assert run("add", str(new), "--shelf", str(root), "--id", "ВК РФ", "--valid-from", "2007-01-01").returncode == 0
    res = run("add", str(old), "--shelf", str(root), "--id", "ВК РФ 1995", "--valid-to", "2007-01-01",
              "--replaced-by", "ВК РФ")  # fmt: skip
    assert res.returncode == 0, res.stderr
    meta = next(m for m in shelf.metas(root) if m.id == "ВК РФ 1995")
    section = next(s.path for s in meta.sections if s.clause == "ст. 1")
    fetched = json.loads(run("fetch", section, "--shelf", str(root), "--json").stdout)
    assert fetched["status"]["code"] == "replaced" and "ВК РФ" in fetched["warning"]
    in_1999 = json.loads(run("fetch", section, "--shelf", str(root), "--as-of", "1999-06-01", "--json").stdout)
    assert in_1999["status"]["code"] == "in_force"
    assert run("check", "--shelf", str(root)).returncode == 0
    hits = json.loads(run("search", "водные объекты собственность", "--shelf", str(root), "--json").stdout)["hits"]
    statuses = [h["status"] for h in hits]
    assert statuses == sorted(statuses, key=lambda s: s not in ("", "in_force"))  # in force first
    only_old = run("search", "водные объекты", "--status", "replaced", "--shelf", str(root), "--json")
    assert {h["doc_id"] for h in json.loads(only_old.stdout)["hits"]} == {"ВК РФ 1995"}


@pytest.mark.parametrize("flag", ["--valid-from", "--valid-to", "--adopted"])
def test_dates_are_normalized(tmp_path: Path, regulation_pdf: Path, flag: str) -> None:
    root = tmp_path / "shelf"
    run("init", str(root))
    assert run("add", str(regulation_pdf), "--shelf", str(root), flag, "01.02.2024").returncode == 0
    key = flag[2:].replace("-", "_")
    assert shelf.metas(root)[0].edition[key] == "2024-02-01"
