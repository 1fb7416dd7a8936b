"""The repository's own root is a shelf of DocShelf's documentation: it must pass check and rebuild cleanly."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from conftest import REPO

from docshelf.shelf import check, config
from docshelf.shelf import store as shelf


def test_root_config_shows_every_key() -> None:
    cfg = config.load(REPO)
    raw = (REPO / ".docshelf.json").read_text(encoding="utf-8")
    for key in ("name", "description", "base_url", "default_language", "default_category", "pdf_engine"):
        assert f'"{key}"' in raw
    assert '"max_section_chars"' in raw and '"min_split_chars"' in raw
    assert cfg.split.max_section_chars == config.SplitOptions().max_section_chars


def test_project_docs_are_a_healthy_shelf(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    for name in (".docshelf.json", "index.md"):
        shutil.copy(REPO / name, root / name)
    for folder in ("docs", "sources"):
        shutil.copytree(REPO / folder, root / folder)
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "copy"]):
        subprocess.run(["git", *args], cwd=root, check=True)
    assert check.check(root) == []
    before = {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}
    shelf.rebuild(root, commit=False, progress=lambda _m: None)
    after = {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert before == after, "docs/ drifted from sources/: run `docshelf rebuild --no-commit` in the repository"
