"""The shelf end to end: init, add, rebuild (idempotent), check, and failures that leave no trace."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pdfgen
import pytest

from docshelf.build.pipeline import DocOptions
from docshelf.errors import ConversionError, DuplicateIdError, ShelfError
from docshelf.shelf import check, gitrepo, reader
from docshelf.shelf import store as shelf


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True, encoding="utf-8").stdout


def _state(root: Path) -> tuple[str, str, str]:
    return (
        _git(root, "rev-parse", "HEAD"),
        _git(root, "status", "--porcelain", "--untracked-files=all"),
        _git(root, "branch"),
    )


def _quiet(_msg: str) -> None:
    pass


def test_init_makes_a_committed_shelf(new_shelf: Path) -> None:
    assert (new_shelf / ".docshelf.json").is_file()
    assert (new_shelf / "index.md").read_text(encoding="utf-8").startswith("# Test shelf\n\n> ")
    assert (new_shelf / "README.md").is_file()
    assert _git(new_shelf, "status", "--porcelain") == ""
    assert "Create shelf" in _git(new_shelf, "log", "--format=%s")


def test_init_refuses_non_empty_dir(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "file").write_text("hi", encoding="utf-8")
    with pytest.raises(ShelfError, match="not empty"):
        shelf.init(tmp_path / "x")


def test_added_regulation_layout(regulation_shelf: Path) -> None:
    meta = json.loads((regulation_shelf / "docs/laws/999-fz.meta.json").read_text(encoding="utf-8"))
    assert meta["id"] == "999-ФЗ"
    assert meta["title"] == "Федеральный закон от 01.02.2024 № 999-ФЗ «О защите тестовых данных»"
    assert meta["source"]["file"] == "sources/regulation.pdf"
    assert len(meta["source"]["sha256"]) == 64
    assert meta["converter"]["name"] == "docshelf-pdf" and meta["pages"] == 7
    clauses = [s["clause"] for s in meta["sections"]]
    assert clauses[1:14] == [f"ст. {n}" for n in ["1", "2", "3", "4", "5", "5.1", "6", "7", "8", "9", "10", "11", "12"]]
    for s in meta["sections"]:
        assert (regulation_shelf / s["path"]).is_file()
        assert s["pages"][0] >= 1 and s["bytes"] > 0 and s["tokens"] > 0
    sub = (regulation_shelf / "docs/laws/999-fz/subindex.md").read_text(encoding="utf-8")
    assert "## Глава 2. Порядок обработки тестовых данных" in sub
    assert "- [Статья 5.1. Особенности обработки" in sub and "ст. 5.1 · p. 3" in sub
    index = (regulation_shelf / "index.md").read_text(encoding="utf-8")
    assert "## laws" in index and "(docs/laws/999-fz/subindex.md): 999-ФЗ · " in index
    assert (regulation_shelf / "sources/regulation.pdf").is_file()
    assert "Add 999-ФЗ" in _git(regulation_shelf, "log", "-1", "--format=%B")


def test_check_passes_on_a_fresh_shelf(regulation_shelf: Path) -> None:
    assert check.check(regulation_shelf) == []


def test_rebuild_is_idempotent(tmp_path: Path, regulation_pdf: Path) -> None:
    root = shelf.init(tmp_path / "s")
    shelf.add(root, [regulation_pdf], DocOptions(source="", category="laws"), progress=_quiet)
    head = _git(root, "rev-parse", "HEAD")
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert shelf.rebuild(root, progress=_quiet) is False
    assert _git(root, "rev-parse", "HEAD") == head and _git(root, "status", "--porcelain") == ""
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert before == after
    (meta,) = shelf.metas(root)
    assert meta.quality["id_source"] == "document"  # read from the law's opening lines, and read again


def test_an_id_from_the_file_name_is_recorded_as_such_and_kept_by_rebuild(tmp_path: Path) -> None:
    root = shelf.init(tmp_path / "s")
    note = tmp_path / "regulations-of-the-lab.txt"
    note.write_text("Lab rules\n\n1. Visitors sign in at the desk.\n2. Samples stay in the lab.\n", encoding="utf-8")
    (doc,) = shelf.add(root, [note], DocOptions(source="", category="rules"), progress=_quiet)
    assert (doc.id, doc.meta.quality["id_source"]) == ("regulations-of-the-lab", "file name")
    assert shelf.rebuild(root, progress=_quiet) is False


def test_rebuild_keeps_a_given_title_and_reads_a_documents_own_again(tmp_path: Path, regulation_pdf: Path) -> None:
    root = shelf.init(tmp_path / "s")
    shelf.add(root, [regulation_pdf], DocOptions(source="", category="laws", title="Мой заголовок"), progress=_quiet)
    (read,) = shelf.metas(root)
    sources = (read.quality["title_source"], read.quality["id_source"])
    assert (read.title, *sources) == ("Мой заголовок", "given", "document")
    assert shelf.rebuild(root, progress=_quiet) is False  # given: kept as given

    # A title read from the document is read again (here: an older build's reading, edited into the meta).
    meta_path = root / read.meta_path
    raw = json.loads(meta_path.read_text(encoding="utf-8"))
    raw["title"], raw["quality"]["title_source"] = "ОБ УТВЕРЖДЕНИИ", "document"
    meta_path.write_text(json.dumps(raw, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    _git(root, "commit", "-qam", "an older reading")
    assert shelf.rebuild(root, progress=_quiet) is True
    (again,) = shelf.metas(root)
    assert again.title not in ("ОБ УТВЕРЖДЕНИИ", "Мой заголовок") and again.quality["title_source"] == "document"

    # A meta from before titles had a source: its title is kept unless today's reading is the same.
    for title, kept, source in ((again.title, again.title, "document"), ("Мой заголовок", "Мой заголовок", "given")):
        raw = json.loads(meta_path.read_text(encoding="utf-8"))
        raw["title"] = title
        del raw["quality"]["title_source"]
        meta_path.write_text(json.dumps(raw, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        _git(root, "commit", "-qam", "an older build")
        shelf.rebuild(root, progress=_quiet)
        (now,) = shelf.metas(root)
        assert (now.title, now.quality["title_source"]) == (kept, source)


def test_failed_add_leaves_shelf_exactly_as_before(new_shelf: Path, regulation_pdf: Path, gen_dir: Path) -> None:
    bad = pdfgen.make_truncated_pdf(gen_dir / "broken.pdf")
    state = _state(new_shelf)
    with pytest.raises(ConversionError):
        shelf.add(new_shelf, [regulation_pdf, bad], DocOptions(source=""), progress=_quiet)
    assert _state(new_shelf) == state
    with pytest.raises(ConversionError, match="no such file"):
        shelf.add(new_shelf, [new_shelf / "missing.pdf"], DocOptions(source=""), progress=_quiet)
    with pytest.raises(ConversionError, match="is a directory"):
        shelf.add(new_shelf, [gen_dir], DocOptions(source=""), progress=_quiet)
    assert _state(new_shelf) == state


def test_failure_during_write_rolls_back(
    new_shelf: Path, regulation_pdf: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _state(new_shelf)

    def boom(root: Path, config: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(shelf, "_write_index", boom)
    with pytest.raises(OSError):
        shelf.add(new_shelf, [regulation_pdf], DocOptions(source="", id="A"), branch="add-a", progress=_quiet)
    assert _state(new_shelf) == state  # the branch made for the add is gone too


def test_duplicate_id_refused(regulation_shelf: Path, regulation_pdf: Path) -> None:
    state = _state(regulation_shelf)
    with pytest.raises(DuplicateIdError, match="999-ФЗ"):
        shelf.add(regulation_shelf, [regulation_pdf], DocOptions(source="", category="laws"), progress=_quiet)
    assert _state(regulation_shelf) == state


def test_branch_and_no_commit(new_shelf: Path, regulation_pdf: Path, manual_pdf: Path) -> None:
    start, tree = _git(new_shelf, "branch", "--show-current").strip(), sorted(p.name for p in new_shelf.iterdir())
    shelf.add(new_shelf, [regulation_pdf], DocOptions(source="", id="999-ФЗ"), branch="add-999", progress=_quiet)
    # The add is on its branch, for a pull request; the shelf stays on the branch it started on, untouched.
    assert _git(new_shelf, "branch", "--show-current").strip() == start and start not in ("", "add-999")
    assert "Add 999-ФЗ" in _git(new_shelf, "log", "-1", "--format=%s", "add-999")
    assert sorted(p.name for p in new_shelf.iterdir()) == tree and not (new_shelf / "docs" / "laws").exists()
    assert _git(new_shelf, "status", "--porcelain") == ""
    head = _git(new_shelf, "rev-parse", "HEAD")
    shelf.add(new_shelf, [manual_pdf], DocOptions(source="", category="manuals"), commit=False, progress=_quiet)
    assert _git(new_shelf, "rev-parse", "HEAD") == head
    assert "docs/manuals/" in _git(new_shelf, "status", "--porcelain", "--untracked-files=all")


def test_check_finds_hand_edits_orphans_and_broken_links(tmp_path: Path, regulation_pdf: Path) -> None:
    root = shelf.init(tmp_path / "s")
    shelf.add(root, [regulation_pdf], DocOptions(source="", category="laws", id="999-ФЗ"), progress=_quiet)
    sub = root / "docs/laws/999-fz/subindex.md"
    sub.write_text(sub.read_text(encoding="utf-8") + "\n- [x](nowhere.md)\n", encoding="utf-8")
    (root / "docs/laws/999-fz/stray.md").write_text("# stray\n", encoding="utf-8")
    first = next(p for p in sorted((root / "docs/laws/999-fz").glob("0*.md")))
    first.unlink()
    kinds = {(p.kind, Path(p.path).name) for p in check.check(root)}
    assert ("stale", "subindex.md") in kinds
    assert ("broken-link", "subindex.md") in kinds
    assert ("orphan", "stray.md") in kinds
    assert ("missing", first.name) in kinds


def test_check_finds_missing_article(tmp_path: Path, regulation_pdf: Path) -> None:
    root = shelf.init(tmp_path / "s")
    shelf.add(root, [regulation_pdf], DocOptions(source="", category="laws", id="999-ФЗ"), progress=_quiet)
    meta_path = root / "docs/laws/999-fz.meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["sections"] = [s for s in meta["sections"] if s["clause"] != "ст. 7"]
    meta_path.write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
    messages = [p.message for p in check.check(root) if p.kind == "numbering"]
    assert any("ст. 7 is missing" in m for m in messages)


def test_pinned_reads_come_from_git_not_the_work_tree(regulation_shelf: Path) -> None:
    commit = gitrepo.resolve(regulation_shelf)
    page = reader.read_index(regulation_shelf, "docs/laws/999-fz")
    assert page.path == "docs/laws/999-fz/subindex.md" and page.commit == commit
    meta = json.loads((regulation_shelf / "docs/laws/999-fz.meta.json").read_text(encoding="utf-8"))
    sec = next(s for s in meta["sections"] if s["clause"] == "ст. 9")
    res = reader.fetch(regulation_shelf, sec["path"], max_chars=200)
    assert res.clauses == ["ст. 9"] and res.doc_id == "999-ФЗ" and res.commit == commit
    assert res.text.startswith("# Статья 9. Уровни защищённости тестовых данных")
    assert res.next_start == 200 and res.total_chars > 200
    rest = reader.fetch(regulation_shelf, sec["path"], start=200, max_chars=10**6)
    assert rest.next_start is None and rest.sha256 == res.sha256


@pytest.mark.parametrize(
    "path",
    [
        "../outside.md",
        "/etc/passwd",
        "docs/../../x.md",
        "%2e%2e/x.md",
        "docs/%252e%252e/%252e%252e/x.md",
        "a\x00b.md",
        "..\\x.md",
        "C:/x.md",
    ],
)
def test_paths_outside_the_shelf_are_refused(regulation_shelf: Path, path: str) -> None:
    from docshelf.errors import PathOutsideShelfError, SectionNotFoundError

    with pytest.raises((PathOutsideShelfError, SectionNotFoundError)):
        reader.fetch(regulation_shelf, path)


# --- one Git door ---------------------------------------------------------------------------------

PACKAGE = Path(__file__).resolve().parents[1] / "docshelf"
GIT_DOOR = PACKAGE / "shelf" / "gitrepo"
_PROCESS_MODULES = {"git", "gitdb", "subprocess", "pty"}
_PROCESS_CALLS = {"system", "popen", "create_subprocess_exec", "create_subprocess_shell", "spawnv", "execv"}


def git_doors(source: str) -> list[str]:
    """What in ``source`` could reach Git other than through gitrepo: GitPython, processes, a "git" argv."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in _PROCESS_MODULES]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in _PROCESS_MODULES:
            found.append(f"from {node.module}")
        elif isinstance(node, ast.Attribute) and node.attr in _PROCESS_CALLS:
            found.append(f".{node.attr}")
        elif isinstance(node, ast.Constant) and node.value == "git":
            found.append('"git"')
    return found


def test_the_door_finder_sees_each_kind_of_door() -> None:
    for snippet in ("import git", "from git import Repo", "import subprocess", "from subprocess import run",
                    "os.system('ls')", "asyncio.create_subprocess_exec('x')", "cmd = ['git', 'log']"):  # fmt: skip
        assert git_doors(snippet), snippet
    assert git_doors("from docshelf.shelf import gitrepo\ngitrepo.resolve(root)") == []


def test_gitrepo_is_the_only_git_door() -> None:
    doors = {
        str(path.relative_to(PACKAGE)): found
        for path in sorted(PACKAGE.rglob("*.py"))
        if GIT_DOOR not in path.parents and (found := git_doors(path.read_text(encoding="utf-8")))
    }
    assert doors == {}
    door = "".join(p.read_text(encoding="utf-8") for p in GIT_DOOR.glob("*.py"))
    assert git_doors(door)  # the door itself is found, so the scan works


def test_one_set_of_ref_rules_for_every_caller(regulation_shelf: Path) -> None:
    from docshelf.errors import UnknownCommitError

    for ref in ("-x", "--output=/tmp/x", "HEAD\x00", "main\nHEAD", "x" * (gitrepo.MAX_REF_CHARS + 1)):
        with pytest.raises(UnknownCommitError, match="Invalid ref"):
            gitrepo.resolve(regulation_shelf, ref)
        with pytest.raises(UnknownCommitError, match="Invalid ref"):
            reader.fetch(regulation_shelf, "docs/x.md", at=ref)
    for sha in ("0" * 40, "12" * 20):  # a full sha is trusted only once it has been resolved
        with pytest.raises(UnknownCommitError, match="Unknown commit"):
            gitrepo.resolve(regulation_shelf, sha)


def test_a_resolved_sha_is_not_looked_up_again(regulation_shelf: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lookups: list[str] = []
    real = gitrepo.refs._lookup  # the one place a ref is looked up

    def counting(root: Path, ref: str) -> str:
        lookups.append(ref)
        return real(root, ref)

    monkeypatch.setattr(gitrepo.refs, "_lookup", counting)
    sha = gitrepo.resolve(regulation_shelf, "main")
    assert lookups == ["main"]
    assert gitrepo.resolve(regulation_shelf, sha) == sha and reader.read_index(regulation_shelf, at=sha).commit == sha
    assert lookups == ["main"]
    assert gitrepo.resolve(regulation_shelf, sha.upper()) == sha  # not the trusted spelling: looked up
    assert lookups == ["main", sha.upper()]


def test_a_new_branch_is_rolled_back_with_the_work_tree(new_shelf: Path) -> None:
    before = _state(new_shelf)
    with pytest.raises(RuntimeError), gitrepo.rollback_on_error(new_shelf, branch="topic", rollback=True):
        (new_shelf / "index.md").write_text("changed", encoding="utf-8")
        (new_shelf / "stray.md").write_text("new", encoding="utf-8")
        assert "* topic" in _git(new_shelf, "branch")
        raise RuntimeError("the body failed")
    assert _state(new_shelf) == before
