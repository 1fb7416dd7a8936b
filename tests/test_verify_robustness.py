"""verify_quote on a broken shelf and with odd references: a verdict or a clear error, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docshelf.build.pipeline import DocOptions
from docshelf.shelf import gitrepo
from docshelf.shelf import store as shelf
from docshelf.text.verify import verify_quote

S7_P2 = "По завершении испытаний тестовые данные подлежат уничтожению в срок, не превышающий тридцати календарных дней"

# --- a broken shelf, odd references: a verdict, never a traceback ------------------------------------------

BROKEN_LAW = """# Статья 1. Предмет регулирования

1. Настоящий закон регулирует отношения, возникающие при учёте тестовых данных в журнале.

2. Оператор вправе вести журнал учёта тестовых данных в электронной форме.
"""


@pytest.fixture
def broken_shelf(new_shelf: Path, tmp_path: Path) -> Path:
    """A shelf whose meta also lists a section file that is missing and one that is a symbolic link."""
    src = tmp_path / "law.md"
    src.write_text(BROKEN_LAW, encoding="utf-8")
    shelf.add(new_shelf, [src], DocOptions(source="", category="laws", id="7-ФЗ"), progress=lambda _m: None)
    meta_path = next((new_shelf / "docs").rglob("*.meta.json"))
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    folder = meta["sections"][0]["path"].rsplit("/", 1)[0]
    (new_shelf / folder / "900-link.md").symlink_to("/etc/hostname")
    for name, clause in (("800-missing.md", "ст. 8"), ("900-link.md", "ст. 9")):
        meta["sections"].append({**meta["sections"][0], "path": f"{folder}/{name}", "clause": clause,
                                 "clauses": [[clause, 0, 10]]})  # fmt: skip
    meta_path.write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
    gitrepo.commit(new_shelf, "A meta naming a missing file and a symbolic link")
    return new_shelf


def test_a_meta_naming_missing_or_linked_sections(broken_shelf: Path) -> None:
    genuine = "Оператор вправе вести журнал учёта тестовых данных в электронной форме."
    assert verify_quote(broken_shelf, genuine, "7-ФЗ ст. 1 ч. 2").verdict == "ok"
    assert verify_quote(broken_shelf, genuine, "7-ФЗ").verdict == "ok"  # the whole document, broken parts too
    unknown = verify_quote(broken_shelf, genuine, "8-ФЗ ст. 1")  # the shelf-wide «where is it?» scan
    assert unknown.verdict == "unknown_ref" and [f["clause"] for f in unknown.found_in] == ["ст. 1 ч. 2"]
    for clause in ("ст. 8", "ст. 9"):
        check = verify_quote(broken_shelf, genuine, f"7-ФЗ {clause}")
        assert check.verdict == "unknown_ref" and "docshelf check" in check.message, check.message
    altered = verify_quote(broken_shelf, genuine.replace("вправе", "обязан"), "7-ФЗ")
    assert altered.verdict == "not_found" and altered.closest and altered.closest["clause"] == "ст. 1 ч. 2"


@pytest.mark.parametrize(
    "ref",
    [
        "docs/../../etc/passwd",
        "docs/laws/999-fz/\x00.md",
        "999-ФЗ ст. " + "1" * 5000,
        "ст. 7 " * 400,
        "§§§ ¶ ст.",
        "\u202e",
    ],
)
def test_odd_references_are_unknown_refs(regulation_shelf: Path, ref: str) -> None:
    check = verify_quote(regulation_shelf, S7_P2, ref)
    assert check.verdict == "unknown_ref" and check.message
