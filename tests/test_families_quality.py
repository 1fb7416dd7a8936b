"""A build that reports its own quality: in the meta, printed by add/rebuild/check, enforced by check --strict."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest
from click.testing import CliRunner

from docshelf.build.pipeline import DocOptions
from docshelf.cli import cli
from docshelf.errors import ShelfError
from docshelf.shelf import check, gitrepo
from docshelf.shelf import store as shelf


def _quiet(_message: str) -> None:
    return None


def _with_phantom_entries(source: Path, target: Path) -> Path:
    """The manual with two unnumbered outline entries it has no sections for: a map the text does not keep."""
    with pymupdf.open(source) as doc:
        toc = doc.get_toc(simple=True)
        toc += [[1, "Maintenance Contracts", 2], [1, "Warranty Terms", 2]]
        doc.set_toc(toc)
        doc.save(target)
    return target


@pytest.fixture
def phantom_pdf(manual_pdf: Path, tmp_path: Path) -> Path:
    return _with_phantom_entries(manual_pdf, tmp_path / "manual-phantom.pdf")


def test_quality_is_the_last_key_of_the_meta_and_a_clean_build_meets_the_floors(
    new_shelf: Path, manual_pdf: Path
) -> None:
    (doc,) = shelf.add(new_shelf, [manual_pdf], DocOptions("", "manuals"), progress=_quiet)
    stored = json.loads((new_shelf / doc.meta_path).read_text(encoding="utf-8"))
    assert list(stored)[-1] == "quality"
    q = stored["quality"]
    assert q["contents"] == {
        "source": "outline",
        "expected": 9,
        "found": 9,
        "share": 1.0,
        "missing": [],
        "unlisted": [],
    }
    assert q["furniture_lines"] == 0 and q["false_headings"] == [] and q["warnings"] == []
    assert check.check(new_shelf, strict=True) == []


def test_a_partial_outline_is_checked_against_the_bodys_numbering(new_shelf: Path, manual_pdf: Path) -> None:
    """An outline that lists «2.1» and «3.2» but not the «2.2» and «3.1» the body heads is partial: the
    record and the warnings say so instead of counting the outline's own entries as the whole map."""
    partial = new_shelf.parent / "manual-partial-outline.pdf"
    with pymupdf.open(manual_pdf) as doc:
        doc.set_toc([e for e in doc.get_toc(simple=True) if e[1] not in ("2.2 Configuration", "3.1 Daily Checks")])
        doc.save(partial)
    (doc,) = shelf.add(new_shelf, [partial], DocOptions("", "manuals"), progress=_quiet)
    q = doc.meta.to_json()["quality"]
    assert q["contents"]["unlisted"] == ["2.2", "3.1"]
    (warning,) = [w for w in q["warnings"] if "leaves out" in w]
    assert "outline leaves out 2 numbered heading(s)" in warning and "2.2, 3.1" in warning
    full = shelf.add(new_shelf, [manual_pdf], DocOptions("", "manuals", id="Manual full"), progress=_quiet)
    whole = full[0].meta.to_json()["quality"]
    assert whole["contents"]["unlisted"] == []  # a whole outline: nothing unlisted
    assert q["headings"] == whole["headings"] == 9  # the body's «2.2» and «3.1» are headings all the same


def test_strict_check_fails_a_document_below_the_contents_floor(new_shelf: Path, phantom_pdf: Path) -> None:
    (doc,) = shelf.add(new_shelf, [phantom_pdf], DocOptions("", "manuals"), progress=_quiet)
    q = doc.meta.to_json()["quality"]["contents"]
    assert (q["found"], q["expected"], q["missing"]) == (9, 11, ["Maintenance Contracts", "Warranty Terms"])
    assert [p.kind for p in check.check(new_shelf)] == []  # a warning, not a problem, without --strict
    (problem,) = check.check(new_shelf, strict=True)
    assert problem.kind == "quality" and "9 of 11 contents entries" in problem.message
    assert check.quality_notes(new_shelf) == [(doc.id, doc.meta.to_json()["quality"]["warnings"][0])]
    assert "missing: Maintenance Contracts, Warranty Terms" in doc.meta.to_json()["quality"]["warnings"][0]


def test_the_floor_comes_from_the_shelf_config(new_shelf: Path, phantom_pdf: Path) -> None:
    shelf.add(new_shelf, [phantom_pdf], DocOptions("", "manuals"), progress=_quiet)
    config = json.loads((new_shelf / ".docshelf.json").read_text(encoding="utf-8"))
    assert config["quality"] == {"min_contents_found": 0.95, "max_furniture_lines": 0, "min_labels_addressed": 0.8}
    config["quality"]["min_contents_found"] = 0.8
    (new_shelf / ".docshelf.json").write_text(json.dumps(config), encoding="utf-8")
    assert check.check(new_shelf, strict=True) == []


def test_cli_prints_quality_at_add_and_check_strict_exits_1(new_shelf: Path, phantom_pdf: Path) -> None:
    runner = CliRunner()
    added = runner.invoke(cli, ["add", str(phantom_pdf), "--shelf", str(new_shelf), "--json"])
    assert added.exit_code == 0, added.output
    (row,) = json.loads(added.stdout)
    assert row["quality"]["contents"]["share"] == pytest.approx(9 / 11, abs=0.001)
    plain = runner.invoke(cli, ["check", "--shelf", str(new_shelf)])
    assert plain.exit_code == 0 and "quality: " in plain.stderr and "9 of 11 entries" in plain.stderr
    strict = runner.invoke(cli, ["check", "--strict", "--shelf", str(new_shelf)])
    assert strict.exit_code == 1 and ": quality: " in strict.stdout
    rebuilt = runner.invoke(cli, ["rebuild", "--no-commit", "--json", "--shelf", str(new_shelf)])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert [n["warning"][:9] for n in json.loads(rebuilt.stdout)["quality"]] == ["contents:"]


def test_a_meta_that_is_a_symlink_is_a_problem_not_a_crash(new_shelf: Path, manual_pdf: Path, tmp_path: Path) -> None:
    shelf.add(new_shelf, [manual_pdf], DocOptions("", "manuals"), progress=_quiet)
    outside = tmp_path / "elsewhere.json"
    outside.write_text("{}", encoding="utf-8")
    (new_shelf / "docs" / "manuals" / "stray.meta.json").symlink_to(outside)
    dangling = new_shelf / "docs" / "manuals" / "gone.meta.json"
    dangling.symlink_to(tmp_path / "missing.json")
    problems = check.check(new_shelf)
    assert sorted((p.path, p.kind) for p in problems) == [
        ("docs/manuals/gone.meta.json", "symlink"),
        ("docs/manuals/stray.meta.json", "symlink"),
    ]


def test_json_that_is_not_a_document_meta_is_a_problem_not_a_crash(new_shelf: Path, manual_pdf: Path) -> None:
    shelf.add(new_shelf, [manual_pdf], DocOptions("", "manuals"), progress=_quiet)
    (new_shelf / "docs" / "manuals" / "hand.meta.json").write_text('{"title": "no id"}', encoding="utf-8")
    (new_shelf / "docs" / "manuals" / "bent.meta.json").write_text(
        '{"id": "X", "sections": [{"title": "no path"}]}', encoding="utf-8"
    )
    problems = check.check(new_shelf)
    assert sorted((p.path, p.kind) for p in problems if p.kind == "bad-meta") == [
        ("docs/manuals/bent.meta.json", "bad-meta"),
        ("docs/manuals/hand.meta.json", "bad-meta"),
    ]


def test_rebuild_refuses_a_source_that_is_a_committed_symlink_and_check_reports_it(
    new_shelf: Path, manual_pdf: Path, tmp_path: Path
) -> None:
    """A link in sources/ would have rebuild convert a file from outside the shelf and commit its text."""
    (doc,) = shelf.add(new_shelf, [manual_pdf], DocOptions("", "manuals"), progress=_quiet)
    source = new_shelf / doc.meta.source.file
    secret = tmp_path / "outside.txt"
    secret.write_text("A file outside the shelf that must never reach docs/.\n", encoding="utf-8")
    source.unlink()
    source.symlink_to(secret)
    gitrepo.commit(new_shelf, "A source replaced by a link")
    before = gitrepo.resolve(new_shelf)
    with pytest.raises(ShelfError, match=r"is a symbolic link: a shelf holds only regular files"):
        shelf.rebuild(new_shelf, progress=_quiet)
    assert gitrepo.resolve(new_shelf) == before  # nothing committed
    assert ("not-regular", doc.meta.source.file) in {(p.kind, p.path) for p in check.check(new_shelf)}


def test_check_reports_a_section_linked_to_a_binary_file_and_odd_files_without_crashing(
    new_shelf: Path, manual_pdf: Path, tmp_path: Path
) -> None:
    (doc,) = shelf.add(new_shelf, [manual_pdf], DocOptions("", "manuals"), progress=_quiet)
    first, second = doc.meta.sections[0].path, "index.md"  # a section, and a table of contents
    binary = tmp_path / "blob.bin"
    binary.write_bytes(bytes(range(256)) * 8)
    (new_shelf / first).unlink()
    (new_shelf / first).symlink_to(binary)
    (new_shelf / second).write_bytes(b"\xff\xfe not utf-8 \x80")
    found = {(p.path, p.kind) for p in check.check(new_shelf)}
    assert (first, "not-regular") in found and (second, "not-text") in found


def test_a_docs_folder_that_is_a_link_is_refused_before_anything_is_written(new_shelf: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (new_shelf / "docs").rename(elsewhere)
    (new_shelf / "docs").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ShelfError, match=r"docs/ of the shelf is a symbolic link"):
        shelf.rebuild(new_shelf, commit=False, progress=_quiet)
