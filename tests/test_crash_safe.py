"""Writes (``add``, ``rm``) survive ``kill -9`` at every step, and two writers take turns on the shelf's lock.

``docshelf add`` runs as a subprocess told (``DOCSHELF_TEST_CRASH_AT``) to SIGKILL itself at one
step of ``gitrepo.commit_files``. Before the branch moves, the shelf must be exactly at the old
commit with an untouched, clean working tree. From the ref update on, the branch is at the new
commit and the journal names the interrupted working-tree update: ``leftovers`` reports it and
the next write finishes it. Either way the next ``add`` works and the history holds no half commit.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from server_support import HANG_S, child_env, git

from docshelf.build.pipeline import DocOptions
from docshelf.shelf import check, gitrepo
from docshelf.shelf import store as shelf

DOC = "# Положение {n}\n\n## Статья 1. Общие положения\n\n1. Настоящее положение номер {n} определяет порядок.\n"
BEFORE_REF = ("staged", "blobs", "tree", "commit", "journal")
AFTER_REF = ("ref", "worktree")


def source(tmp_path: Path, n: int) -> Path:
    path = tmp_path / "src" / f"polozhenie-{n}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(DOC.format(n=n), encoding="utf-8")
    return path


def add(root: Path, src: Path, doc_id: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "docshelf",
            "add",
            str(src),
            "--shelf",
            str(root),
            "--category",
            "internal",
            "--id",
            doc_id,
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=child_env(**env),
        timeout=HANG_S,
    )


def status(root: Path) -> str:
    return git(root, "status", "--porcelain", "--untracked-files=all")


def tracked(root: Path) -> set[str]:
    return set(git(root, "ls-files").splitlines())


def test_the_crash_steps_are_the_write_steps() -> None:
    assert (*BEFORE_REF, *AFTER_REF) == gitrepo.WRITE_STEPS


@pytest.mark.parametrize("step", gitrepo.WRITE_STEPS)
def test_kill_at_every_write_step_leaves_the_old_or_the_new_commit(tmp_path: Path, step: str) -> None:
    root = shelf.init(tmp_path / "shelf", name="Crash shelf")
    old = gitrepo.resolve(root)
    old_files = tracked(root)
    killed = add(root, source(tmp_path, 1), "П-1", DOCSHELF_TEST_CRASH_AT=step)
    assert killed.returncode == -9, killed.stderr
    tip = git(root, "rev-parse", "refs/heads/main")
    if step in BEFORE_REF:
        assert tip == old and status(root) == "" and tracked(root) == old_files
        [left] = gitrepo.leftovers(root)
        assert "never moved the branch" in left
    else:
        assert git(root, "rev-parse", f"{tip}^") == old  # one whole commit on top of the old one
        assert "docs/internal/p-1.md" in git(root, "ls-tree", "-r", "--name-only", tip).splitlines()
        [left] = gitrepo.leftovers(root)
        assert "refs/heads/main moved to its new commit" in left
    reported = [p for p in check.check(root) if p.kind == "interrupted-write"]
    assert [p.message for p in reported] == [left]  # docshelf check says it too
    after = add(root, source(tmp_path, 2), "П-2")
    assert after.returncode == 0, after.stderr
    assert status(root) == "" and gitrepo.leftovers(root) == []
    files = tracked(root)
    assert "docs/internal/p-2.md" in files
    assert ("docs/internal/p-1.md" in files) == (step in AFTER_REF)
    assert git(root, "rev-parse", "HEAD^") == tip


@pytest.mark.parametrize("step", AFTER_REF)
def test_a_branch_write_killed_after_its_ref_moved_leaves_the_shelf_on_its_branch(tmp_path: Path, step: str) -> None:
    """`add --branch` commits for a pull request and never switches the shelf: killed once the new branch
    exists, the next write finds main checked out and clean, and the branch holding the whole commit."""
    root = shelf.init(tmp_path / "shelf", name="Crash shelf")
    old = gitrepo.resolve(root)
    cmd = [sys.executable, "-m", "docshelf", "add", str(source(tmp_path, 1)), "--shelf", str(root), "--id=П-1",
           "--branch", "add-p1"]  # fmt: skip
    killed = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8",
                            env=child_env(DOCSHELF_TEST_CRASH_AT=step), timeout=HANG_S)  # fmt: skip
    assert killed.returncode == -9, killed.stderr
    assert git(root, "branch", "--show-current") == "main" and status(root) == ""
    assert git(root, "rev-parse", "add-p1^") == old
    after = add(root, source(tmp_path, 2), "П-2")
    assert after.returncode == 0, after.stderr
    assert git(root, "branch", "--show-current") == "main" and status(root) == "" and gitrepo.leftovers(root) == []
    assert "docs/internal/p-1.md" not in tracked(root) and "docs/internal/p-2.md" in tracked(root)


def test_a_second_writer_waits_for_the_lock(tmp_path: Path) -> None:
    root = shelf.init(tmp_path / "shelf", name="Lock shelf")
    old = gitrepo.resolve(root)
    said: list[str] = []
    with gitrepo.write_lock(root, say=said.append):
        proc = subprocess.Popen(
            [sys.executable, "-m", "docshelf", "add", str(source(tmp_path, 1)), "--shelf", str(root), "--id=П-1"],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            env=child_env(),
        )
        assert proc.stderr is not None
        first = proc.stderr.readline()  # blocks until the writer reports the wait
        time.sleep(0.5)  # it keeps waiting: nothing is written while the lock is held
        assert "Another docshelf write is running" in first and proc.poll() is None
        assert gitrepo.resolve(root, "refs/heads/main") == old
    assert proc.wait(timeout=HANG_S) == 0
    proc.stderr.close()
    assert git(root, "rev-parse", "HEAD^") == old and status(root) == ""


def test_two_concurrent_adds_both_land(tmp_path: Path) -> None:
    root = shelf.init(tmp_path / "shelf", name="Race shelf")
    old = gitrepo.resolve(root)
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "docshelf",
                "add",
                str(source(tmp_path, n)),
                "--shelf",
                str(root),
                "--category",
                "internal",
                "--id",
                f"П-{n}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=child_env(),
        )
        for n in (1, 2)
    ]
    assert [p.wait(timeout=HANG_S) for p in procs] == [0, 0]
    assert git(root, "rev-parse", "HEAD^^") == old  # two commits, one after the other: none lost
    assert {"docs/internal/p-1.md", "docs/internal/p-2.md"} <= tracked(root)
    assert status(root) == ""


def docshelf(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "docshelf", *args, f"--shelf={root}"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=child_env(**env),
        timeout=HANG_S,
    )


@pytest.fixture
def two_docs(tmp_path: Path) -> Path:
    root = shelf.init(tmp_path / "shelf", name="Rm shelf")
    for n in (1, 2):
        options = DocOptions(source="", category="internal", id=f"П-{n}")
        shelf.add(root, [source(tmp_path, n)], options, progress=lambda _m: None)
    return root


def test_rm_takes_a_document_off_in_one_commit(two_docs: Path) -> None:
    before = gitrepo.resolve(two_docs)
    run = docshelf(two_docs, "rm", "П-1")
    assert run.returncode == 0 and run.stdout == "removed\tП-1\tdocs/internal/p-1.md\n", run.stderr
    files = tracked(two_docs)
    assert not {"docs/internal/p-1.md", "docs/internal/p-1.meta.json", "sources/polozhenie-1.md"} & files
    assert {"docs/internal/p-2.md", "sources/polozhenie-2.md"} <= files
    assert "П-1" not in (two_docs / "index.md").read_text(encoding="utf-8")
    assert git(two_docs, "rev-parse", "HEAD^") == before and status(two_docs) == ""
    assert "docs/internal/p-1.md" in git(two_docs, "ls-tree", "-r", "--name-only", before)


def test_rm_of_an_unknown_id_names_the_ids_on_the_shelf(two_docs: Path) -> None:
    before = gitrepo.resolve(two_docs)
    run = docshelf(two_docs, "rm", "П-9")
    assert run.returncode == 1 and "No document 'П-9' on the shelf. Document ids: П-1, П-2" in run.stderr
    assert gitrepo.resolve(two_docs) == before


@pytest.mark.parametrize("step", ["tree", "ref"])
def test_kill_during_rm_leaves_the_old_or_the_new_commit(two_docs: Path, step: str) -> None:
    before = gitrepo.resolve(two_docs)
    assert docshelf(two_docs, "rm", "П-1", DOCSHELF_TEST_CRASH_AT=step).returncode == -9
    tip = git(two_docs, "rev-parse", "refs/heads/main")
    assert (tip if step in BEFORE_REF else git(two_docs, "rev-parse", f"{tip}^")) == before
    assert ("docs/internal/p-1.md" in git(two_docs, "ls-tree", "-r", "--name-only", tip)) == (step in BEFORE_REF)
    assert docshelf(two_docs, "rm", "П-2").returncode == 0
    assert status(two_docs) == "" and gitrepo.leftovers(two_docs) == []
    assert ("docs/internal/p-1.md" in tracked(two_docs)) == (step in BEFORE_REF)
    assert "docs/internal/p-2.md" not in tracked(two_docs)
