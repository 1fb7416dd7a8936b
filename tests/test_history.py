"""History, clause diffs and investigators' reads on real Git shelves; the shelf template's CI gate.

Two editions of one small law are committed one after the other (edition 2 rewords ч. 2 of ст. 3
and inserts ст. 3.1, which renumbers the later section files); then the real 152-ФЗ, first as the
2023 PDF and then as the 2024 DOCX.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import numbergen
import pytest
from conftest import corpus_file

from docshelf.build.pipeline import DocOptions
from docshelf.errors import PathOutsideShelfError, SectionNotFoundError, ShelfError, UnknownCommitError
from docshelf.shelf import gitrepo, reader
from docshelf.shelf import store as shelf
from docshelf.text.citations import metas_at
from docshelf.text.clausediff import word_diff
from docshelf.text.history import audit_texts, diff, history, text_at

DOCX_152 = "Федеральный закон от 27.07.2006 № 152-ФЗ-О персональных данных.docx"
TEMPLATE = Path(__file__).resolve().parents[1] / "shelf-template"
FILL = (
    "Оператор обязан принимать меры, необходимые и достаточные для обеспечения выполнения обязанностей, "
    "предусмотренных настоящим Федеральным законом и принятыми в соответствии с ним нормативными правовыми актами. "
)
PART_2 = {
    1: "2. Оператор вправе поручить обработку тестовых данных другому лицу с согласия субъекта.",
    2: "2. Оператор вправе поручить обработку тестовых данных другому лицу только с письменного согласия субъекта.",
}


def quiet(_message: str) -> None:
    """Progress goes nowhere in tests."""


def law(edition: int) -> str:
    """A small law long enough to be split by article; edition 2 rewords ст. 3 ч. 2 and adds ст. 3.1."""
    articles = [
        ("1", "Сфера действия", [f"1. Закон регулирует обработку тестовых данных. {FILL * 3}", f"2. {FILL * 2}"]),
        ("2", "Основные понятия", [f"1) тестовые данные - информация для проверки программ; {FILL}"]),
        ("3", "Принципы обработки", [f"1. Обработка законна. {FILL * 2}", PART_2[edition], f"3. Срок. {FILL * 2}"]),
        ("3.1", "Уничтожение тестовых данных", [f"1. Данные уничтожаются. {FILL}", f"2. Составляется акт. {FILL}"]),
        ("4", "Обязанности оператора", [f"1. Оператор обеспечивает конфиденциальность. {FILL * 3}"]),
        ("5", "Ответственность", [f"1. Виновные лица несут ответственность. {FILL * 6}", f"2. {FILL * 8}"]),
    ]
    lines = ["# ФЕДЕРАЛЬНЫЙ ЗАКОН О ТЕСТОВЫХ ДАННЫХ", "", f"(ред. 01.02.{2022 + edition})", ""]
    for number, title, parts in articles:
        if number != "3.1" or edition == 2:
            lines += [f"## Статья {number}. {title}", "", *(p + "\n" for p in parts)]
    return "\n".join(lines)


def new_edition(root: Path, doc_id: str, source: Path, edition: dict[str, str], message: str) -> str:
    """Replace a document's source with a new edition and commit the rebuilt shelf.

    What ``shelf.update`` is to do (the lead adds it): the new file goes to sources/ (the old one
    leaves the work tree; Git keeps it), the meta points at it with the new edition record, and a
    rebuild replaces the document's sections in one commit.
    """
    meta_file = next(p for p in (root / "docs").rglob("*.meta.json") if json.loads(p.read_bytes())["id"] == doc_id)
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    old = root / meta["source"]["file"]
    shutil.copyfile(source, root / "sources" / source.name)
    if old.name != source.name:
        old.unlink()
    meta["source"]["file"] = f"sources/{source.name}"
    meta["edition"] = edition
    meta_file.write_text(json.dumps(meta, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    shelf.rebuild(root, commit=False, progress=quiet)
    return gitrepo.commit(root, message)


def section_path(root: Path, commit: str, clause: str) -> str:
    (meta,) = metas_at(root, commit)
    return next(s.path for s in meta.sections if s.clause == clause)


@pytest.fixture(scope="module")
def editions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """(shelf, commit of edition 1, commit of edition 2); tests must not modify it."""
    tmp = tmp_path_factory.mktemp("editions")
    root = shelf.init(tmp / "shelf", name="Editions")
    src = tmp / "zakon.md"
    src.write_text(law(1), encoding="utf-8")
    first = {"adopted": "2023-01-10", "valid_from": "2023-02-01"}
    shelf.add(root, [src], DocOptions("", "laws", "999-ФЗ", edition=first), progress=quiet)
    c1 = gitrepo.resolve(root)
    src.write_text(law(2), encoding="utf-8")
    second = {"adopted": "2023-01-10", "valid_from": "2024-02-01", "amended_by": "ext:1-ФЗ"}
    c2 = new_edition(root, "999-ФЗ", src, second, "999-ФЗ: ред. 01.02.2024")
    return root, c1, c2


# --- diff ----------------------------------------------------------------------------------------


def test_diff_shows_the_reworded_part_and_the_new_article(editions: tuple[Path, str, str]) -> None:
    root, c1, c2 = editions
    result = diff(root, c1, c2)
    (doc,) = result.documents
    assert (doc.doc_id, doc.status, doc.meta_path) == ("999-ФЗ", "changed", "docs/laws/999-fz.meta.json")
    changes = {c.clause: c for c in doc.clauses}
    assert [k for k in changes if k.startswith("ст.")] == ["ст. 3 ч. 2", "ст. 3.1"]  # ст. 4, 5 only renumbered
    part = changes["ст. 3 ч. 2"]
    assert part.status == "changed" and part.path_a == part.path_b == section_path(root, c2, "ст. 3")
    assert "лицу {+только+} с {+письменного+} согласия субъекта." in part.diff
    assert part.ops == [{"op": "insert", "old": "", "new": "только"}, {"op": "insert", "old": "", "new": "письменного"}]
    added = changes["ст. 3.1"]  # its parts come with it, not as separate entries
    assert added.status == "added" and added.path_a is None
    assert added.text.startswith("# Статья 3.1. Уничтожение тестовых данных") and "2. Составляется акт." in added.text
    assert doc.edition == {"amended_by": [None, "ext:1-ФЗ"], "valid_from": ["2023-02-01", "2024-02-01"]}
    assert doc.source == ["sources/zakon.md"] * 2 and doc.sections_removed == []  # same name, new bytes
    assert doc.sections_added == [section_path(root, c2, "ст. 3.1")]
    assert [new for _old, new in doc.sections_moved] == [section_path(root, c2, c) for c in ("ст. 4", "ст. 5")]
    assert result.other_paths == ["index.md"]
    assert json.loads(json.dumps(result.to_dict(), ensure_ascii=False))["commit_b"] == c2
    text = result.format_text()
    for line in ("~ ст. 3 ч. 2", "+ ст. 3.1", "edition.valid_from: 2023-02-01 → 2024-02-01", "other files: index.md"):
        assert line in text


def test_diff_backwards_removes_the_article(editions: tuple[Path, str, str]) -> None:
    root, c1, c2 = editions
    (doc,) = diff(root, c2, c1).documents
    changes = {c.clause: c for c in doc.clauses if c.clause.startswith("ст.")}
    assert {k: c.status for k, c in changes.items()} == {"ст. 3 ч. 2": "changed", "ст. 3.1": "removed"}
    assert "[-только-]" in changes["ст. 3 ч. 2"].diff


def test_diff_narrowed_to_a_section_a_document_or_a_file(editions: tuple[Path, str, str]) -> None:
    root, c1, c2 = editions
    art3 = diff(root, c1, c2, section_path(root, c2, "ст. 3"))
    assert [c.clause for d in art3.documents for c in d.clauses] == ["ст. 3 ч. 2"]
    assert art3.other_paths == []
    by_id = diff(root, c1, c2, "999-ФЗ")
    assert by_id.documents == diff(root, c1, c2).documents and by_id.other_paths == []
    index = diff(root, c1, "HEAD", "index.md")
    assert (index.documents, index.other_paths, index.commit_b) == ([], ["index.md"], c2)
    assert diff(root, c2, c2).format_text() == f"No changes {c2[:12]} → {c2[:12]}.\n"
    with pytest.raises(SectionNotFoundError, match=r"docs/laws/nope\.md"):
        diff(root, c1, c2, "docs/laws/nope.md")


def test_refs_and_paths_that_could_escape_are_refused(editions: tuple[Path, str, str]) -> None:
    root, c1, c2 = editions
    for bad in ("--output=/tmp/x", "-p", "no-such-ref"):
        with pytest.raises(UnknownCommitError):
            diff(root, bad, c2)
    with pytest.raises(PathOutsideShelfError):
        history(root, "../outside.md")
    target = root.parent / "written-by-git.txt"
    with pytest.raises(SectionNotFoundError):  # a path, never an option: nothing is written
        history(root, f"--output={target}")
    assert not target.exists()
    with pytest.raises(PathOutsideShelfError):
        text_at(root, c1, "/etc/passwd")


def test_word_diff_ignores_typography_only() -> None:
    assert word_diff("«Оператор» — лицо", '"оператор" - лицо') == ("«Оператор» — лицо", [])
    text, ops = word_diff(" ".join(f"w{i}" for i in range(30)) + " old", " ".join(f"w{i}" for i in range(30)) + " new")
    assert text == "… w24 w25 w26 w27 w28 w29 [-old-]{+new+}" and ops == [{"op": "replace", "old": "old", "new": "new"}]


# --- the old text stays readable -----------------------------------------------------------------


def test_old_edition_stays_readable_at_its_commit(editions: tuple[Path, str, str]) -> None:
    root, c1, c2 = editions
    old_path, new_path = section_path(root, c1, "ст. 3"), section_path(root, c2, "ст. 3")
    old_text = text_at(root, c1, old_path)
    assert PART_2[1] in old_text and "письменного" not in old_text
    assert PART_2[2] in text_at(root, c2, new_path)
    fetched = reader.fetch(root, old_path, at=c1)
    assert fetched.text == old_text and text_at(root, c1, old_path, sha256=fetched.sha256) == old_text
    with pytest.raises(ShelfError, match="does not have sha256"):
        text_at(root, c2, new_path, sha256=fetched.sha256)
    assert text_at(root, c1, f"{old_path}#ч. 2") == PART_2[1]
    renumbered = section_path(root, c1, "ст. 4")  # 005-… held ст. 4 in edition 1; ст. 3.1 took 005 in edition 2
    assert "Обязанности оператора" in text_at(root, c1, renumbered)
    with pytest.raises(SectionNotFoundError):
        text_at(root, c2, renumbered)


# --- history -------------------------------------------------------------------------------------


def test_history_of_a_section_follows_its_renumbering(editions: tuple[Path, str, str]) -> None:
    root, c1, c2 = editions
    changes = history(root, section_path(root, c2, "ст. 4"))
    assert [c.sha for c in changes] == [c2, c1]
    assert [c.paths for c in changes] == [[section_path(root, c2, "ст. 4")], [section_path(root, c1, "ст. 4")]]
    assert changes[0].subject == "999-ФЗ: ред. 01.02.2024" and changes[1].subject == "Add 999-ФЗ"
    assert datetime.fromisoformat(changes[0].date).tzinfo is not None and "<" in changes[0].author
    assert set(changes[0].to_dict()) == {"sha", "date", "author", "subject", "message", "paths"}


def test_history_of_a_document_folder_and_index(editions: tuple[Path, str, str]) -> None:
    root, c1, c2 = editions
    by_id = history(root, "999-ФЗ")
    assert [c.sha for c in by_id] == [c2, c1]
    assert "docs/laws/999-fz.meta.json" in by_id[0].paths and "sources/zakon.md" in by_id[0].paths
    assert [c.sha for c in history(root, "docs/laws/")] == [c2, c1]
    index = history(root, "index.md")
    assert [c.sha for c in index][:2] == [c2, c1] and index[-1].subject == "Create shelf Editions"
    assert len(history(root, "index.md", limit=1)) == 1
    with pytest.raises(SectionNotFoundError, match="No commit changed"):
        history(root, "docs/laws/nope.md")
    with pytest.raises(ValueError):
        history(root, "index.md", limit=0)


# --- investigators: from an audit record to the exact text -----------------------------------------


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_audit_record_gives_back_the_exact_text(editions: tuple[Path, str, str], tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from mcp import Client
    from server_support import payload

    from docshelf.server.app import create_server
    from docshelf.server.audit import AuditLog, read_audit
    from docshelf.server.pin import Pin

    root, c1, c2 = editions
    old_path, new_path = section_path(root, c1, "ст. 3"), section_path(root, c2, "ст. 3")
    log_file = tmp_path / "audit.jsonl"
    with AuditLog(log_file) as log:
        async with Client(create_server(root, pin=Pin.at(root), audit=log)) as client:
            old = await client.call_tool("fetch", {"path": old_path, "at": c1, "start": 50, "max_chars": 400})
            new = await client.call_tool("fetch", {"path": new_path})
    seen = [payload(old), payload(new)]
    records = [r for r in read_audit(log_file) if r["tool"] == "fetch"]
    assert [(r["commit"], r["paths"]) for r in records] == [(c1, [old_path]), (c2, [new_path])]
    for record, result in zip(records, seen, strict=True):
        assert audit_texts(root, record) == {result["path"]: result["text"]}  # what the model was shown
    assert PART_2[1] in text_at(root, records[0]["commit"], old_path)  # the answer relied on edition 1
    with pytest.raises(ShelfError, match="no commit"):
        audit_texts(root, {"commit": None, "paths": [old_path]})


# --- the real 152-ФЗ: the 2023 PDF, then the 2024 DOCX, as two editions of one document -------------


def test_152_fz_2023_to_2024(tmp_path: Path) -> None:
    pdf = corpus_file("ru-regulations/ale88andr__obs-vault/ФЗ152.pdf")
    docx = corpus_file(f"ru-regulations/vladimir-chernikin__normative-docs-qa/{DOCX_152}")
    root = shelf.init(tmp_path / "shelf", name="152")
    shelf.add(root, [pdf], DocOptions(source="", category="laws", id="152-ФЗ"), progress=quiet)
    c1 = gitrepo.resolve(root)
    c2 = new_edition(root, "152-ФЗ", docx, {"adopted": "2006-07-27"}, "152-ФЗ: ред. 08.08.2024 № 233-ФЗ")
    (doc,) = diff(root, c1, c2).documents
    status = {c.clause: c.status for c in doc.clauses}
    assert status["ст. 19 ч. 2 п. 3.1"] == "added"
    assert status["ст. 19 ч. 8"] == status["ст. 19 ч. 9"] == "changed"
    assert "ст. 19 ч. 2" not in status and "ст. 19 ч. 1" not in status  # unchanged wording, another format
    assert doc.source == ["sources/ФЗ152.pdf", f"sources/{docx.name}"]

    def part_2(commit: str) -> str:  # the piece of ст. 19 that holds ч. 2 (file names differ per edition)
        sections = metas_at(root, commit)[0].sections
        return next(s.path for s in sections if "ст. 19 ч. 2" in s.clause_ids())

    assert "3.1)" not in text_at(root, c1, f"{part_2(c1)}#ч. 2")
    assert text_at(root, c2, f"{part_2(c2)}#ч. 2 п. 3.1").startswith("3.1) применением для уничтожения")
    assert [c.sha for c in history(root, "152-ФЗ")] == [c2, c1]


# --- the shelf template: CI definitions, pull request template, the gate itself --------------------

CI_FILES = (".gitlab-ci.yml", ".github/workflows/shelf.yml", ".gitea/workflows/shelf.yml")
STEPS = ("pip install", "docshelf check", "docshelf rebuild --no-commit", "git status --porcelain")


def _commands(node: Any) -> list[str]:
    """The shell lines of a parsed CI file, in order (GitLab before_script/script, Actions run)."""
    if isinstance(node, dict):
        out = []
        for key, value in node.items():
            if key in ("run", "script", "before_script"):
                out += [value] if isinstance(value, str) else [str(v) for v in value]
            else:
                out += _commands(value)
        return out
    if isinstance(node, list):
        return [c for item in node for c in _commands(item)]
    return []


@pytest.mark.parametrize("name", CI_FILES)
def test_ci_definitions_parse_and_run_the_three_steps(name: str) -> None:
    text = (TEMPLATE / name).read_text(encoding="utf-8")
    assert "\t" not in text  # YAML forbids tabs for indentation
    try:
        import yaml
    except ImportError:  # no parser: the structural check below still runs
        script = text
    else:
        script = "\n".join(_commands(yaml.safe_load(text)))
    positions = [script.find(step) for step in STEPS]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), (name, positions)
    assert "DOCSHELF_PIP_SPEC" in script and "exit 1" in script
    gate = (TEMPLATE / "ci/shelf-gate.sh").read_text(encoding="utf-8")
    assert all(step in gate for step in STEPS[1:])


def test_pull_request_template_asks_for_source_edition_and_publication() -> None:
    github = (TEMPLATE / ".github/pull_request_template.md").read_text(encoding="utf-8")
    gitlab = (TEMPLATE / ".gitlab/merge_request_templates/Default.md").read_text(encoding="utf-8")
    assert github == gitlab
    for field in ("where the file came from", "adopted", "valid_from", "valid_to", "replaced_by", "ext:"):
        assert field in github
    assert "publication.pravo.gov.ru" in github and "`docshelf check` passed" in github


def _gate(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        ["sh", "ci/shelf-gate.sh"], cwd=root, env=env, capture_output=True, text=True, encoding="utf-8", check=False
    )


def test_the_gate_passes_a_clean_shelf_and_catches_a_hand_edit(tmp_path: Path) -> None:
    if not (Path(sys.executable).parent / "docshelf").exists() or shutil.which("sh") is None:
        pytest.skip("needs the docshelf command beside this Python and a POSIX sh")
    root = shelf.init(tmp_path / "shelf", name="Gate")
    for name in (*CI_FILES, "ci/shelf-gate.sh", ".github/pull_request_template.md", "README.md"):
        assert (root / name).is_file(), name  # init copies the whole template
    src = tmp_path / "zakon.md"
    src.write_text(law(2), encoding="utf-8")
    shelf.add(root, [src], DocOptions("", "laws", "999-ФЗ"), progress=quiet)
    ok = _gate(root)
    assert ok.returncode == 0 and "shelf gate: ok" in ok.stdout, ok.stdout + ok.stderr
    section = root / section_path(root, gitrepo.resolve(root), "ст. 3")
    section.write_text(section.read_text(encoding="utf-8").replace("письменного", "устного"), encoding="utf-8")
    assert _gate(root).returncode == 2  # uncommitted: the gate refuses to judge
    gitrepo.commit(root, "Hand edit")
    drift = _gate(root)
    assert drift.returncode == 1 and section.relative_to(root).as_posix() in drift.stdout
    assert "письменного" in section.read_text(encoding="utf-8")  # the rebuild restored the source's wording


@pytest.mark.parametrize("scheme", numbergen.schemes(), ids=lambda s: s.name)
def test_one_act_in_two_formats_diffs_as_no_change(tmp_path: Path, fonts: None, scheme: numbergen.Scheme) -> None:
    """The same act as a PDF, then as a DOCX edition: the diff compares clause text, not layout (heading
    levels, line breaks, page furniture), so it names no clause."""
    root = shelf.init(tmp_path / "shelf", name="Formats")
    pdf = numbergen.write_pdf(scheme, tmp_path / f"{scheme.name}.pdf")
    word = numbergen.write_docx(scheme, tmp_path / f"{scheme.name}.docx")
    shelf.add(root, [pdf], DocOptions(source="", category="g", id="X"), progress=lambda _m: None)
    shelf.add(root, [word], DocOptions(source="", category="g", id="X"), update=True, progress=lambda _m: None)
    (doc,) = diff(root, "HEAD~1", "HEAD", "X").to_dict()["documents"]
    assert doc["clauses"] == []
