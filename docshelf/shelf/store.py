"""The shelf on disk: init, add and rebuild, each all-or-nothing.

Conversion happens in memory first, so a bad source fails before anything is written. Writing is
guarded too: on any error the working tree is put back to the commit it started from (which is
why ``add`` refuses to run over uncommitted changes unless ``--no-commit`` is given).
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from docshelf.build import toc
from docshelf.build.pipeline import BuiltDoc, DocOptions, build_document, sha256
from docshelf.errors import ConversionError, DocShelfError, DuplicateIdError, ShelfError
from docshelf.law.editions import check_relations
from docshelf.shelf import gitrepo
from docshelf.shelf.config import CONFIG_FILE, ShelfConfig, load

Progress = Callable[[str], None]


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def template_dir() -> Path:
    """The shelf template: packaged into wheels, or the checkout's ``shelf-template/`` in development."""
    packaged = Path(str(resources.files("docshelf") / "shelf_template"))
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "shelf-template"


def init(root: Path, *, name: str | None = None) -> Path:
    """Create a new shelf repository from the template and make its first commit."""
    if root.exists() and any(root.iterdir()):
        raise ShelfError(f"{root} exists and is not empty. Choose a new directory for the shelf.")
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(template_dir(), root, dirs_exist_ok=True)
    config = ShelfConfig(name=name or root.resolve().name)
    (root / CONFIG_FILE).write_text(config.to_json(), encoding="utf-8")
    (root / "index.md").write_text(toc.render_index(config.name, config.description, []), encoding="utf-8")
    gitrepo.init(root)
    gitrepo.commit(root, f"Create shelf {config.name}")
    return root


def metas(root: Path) -> list[dict[str, Any]]:
    """All document metas in the working tree, in a stable order."""
    out = []
    for path in sorted((root / "docs").rglob("*.meta.json")):
        out.append(json.loads(path.read_text(encoding="utf-8")))
    return out


def _read_sources(paths: Sequence[Path]) -> list[tuple[Path, bytes]]:
    out = []
    for p in paths:
        if not p.exists():
            raise ConversionError(f"{p}: no such file. Check the path.", source=str(p))
        if p.is_dir():
            raise ConversionError(f"{p} is a directory. Pass the files in it (e.g. {p}/*.pdf).", source=str(p))
        out.append((p, p.read_bytes()))
    return out


def _source_name(root: Path, path: Path, data: bytes) -> str:
    """The file name under sources/: the original name unless another file already took it."""
    existing = root / "sources" / path.name
    if not existing.exists() or sha256(existing.read_bytes()) == sha256(data):
        return path.name
    return f"{path.stem}-{sha256(data)[:8]}{path.suffix}"


def add(
    root: Path,
    sources: Sequence[Path],
    options: DocOptions,
    *,
    branch: str | None = None,
    commit: bool = True,
    update: bool = False,
    progress: Progress = _stderr,
) -> list[BuiltDoc]:
    """Convert ``sources`` and add them to the shelf in one commit (see the module docstring).

    With ``update``, a source whose id is already on the shelf is a new edition of that document: its
    sections are replaced in the same commit, and the old text stays readable at the older commits.
    """
    config = load(root)
    if len(sources) > 1 and (options.id or options.title):
        raise ShelfError("--id and --title name one document: add the files one at a time to use them.")
    existing = {m["id"]: m for m in metas(root)}
    built: list[tuple[BuiltDoc, str, bytes]] = []
    replaced: list[dict[str, Any]] = []
    for n, (path, data) in enumerate(_read_sources(sources), start=1):
        progress(f"[{n}/{len(sources)}] converting {path.name} ({len(data) / 1024:.0f} KB)…")
        name = _source_name(root, path, data)
        old = existing.get(options.id) if update and options.id else None
        opts = replace(options, source=name, category=options.category or (old["category"] if old else ""))
        doc = build_document(data, opts, config)
        old = existing.get(doc.id) if update else None
        _refuse_duplicates(path, doc, existing, built, old)
        if old is not None:
            replaced.append(old)
        progress(f"      {doc.id}: {len(doc.meta['sections'])} section(s), {doc.meta['pages']} page(s)")
        for warning in doc.meta["warnings"]:
            progress(f"      warning: {warning}")
        built.append((doc, name, data))
    others = [m for m in existing.values() if all(m["id"] != r["id"] for r in replaced)]
    for _path, _kind, message in check_relations([*others, *(d.meta for d, _, _ in built)]):
        progress(f"      warning: {message}")
    with _guarded(root, commit=commit, branch=branch):
        for old in replaced:
            _remove_doc(root, old)
            (root / old["source"]["file"]).unlink(missing_ok=True)  # kept in Git history
        for doc, name, data in built:
            (root / "sources").mkdir(exist_ok=True)
            (root / "sources" / name).write_bytes(data)
            _write_doc(root, doc)
        _write_index(root, config)
        if commit:
            verb = "Update" if replaced else "Add"
            ids = ", ".join(d.id for d, _, _ in built)
            gitrepo.commit(root, f"{verb} {ids}\n\n" + "\n".join(f"- {d.id}: {d.title}" for d, _, _ in built))
    return [d for d, _, _ in built]


def _refuse_duplicates(
    path: Path, doc: BuiltDoc, existing: dict[str, dict[str, Any]], built: list[Any], old: dict[str, Any] | None
) -> None:
    if (doc.id in existing and old is None) or any(b.id == doc.id for b, _, _ in built):
        raise DuplicateIdError(
            f"{path.name}: a document with id {doc.id!r} is already on the shelf. Pass a different --id, "
            "or add it with --update to make this file the document's new edition."
        )
    taken = {m["entry"] for m in existing.values() if m is not old} | {b.entry_path for b, _, _ in built}
    if doc.entry_path in taken:
        raise DuplicateIdError(f"{path.name}: {doc.entry_path} already exists. Pass a different --id.")


def rebuild(root: Path, *, commit: bool = True, progress: Progress = _stderr) -> bool:
    """Regenerate every document from its stored source and options; True when anything changed."""
    config = load(root)
    docs = metas(root)
    with _guarded(root, commit=commit, branch=None):
        for n, meta in enumerate(docs, start=1):
            progress(f"[{n}/{len(docs)}] rebuilding {meta['id']}…")
            src = root / meta["source"]["file"]
            if not src.is_file():
                raise ShelfError(
                    f"{meta['source']['file']} is missing; restore it from Git history to rebuild {meta['id']}."
                )
            opts = DocOptions(
                source=src.name,
                category=meta["category"],
                id=meta["id"],
                title=meta["title"],
                quality=meta["options"]["quality"],
                split=meta["options"]["split"],
                edition=meta.get("edition", {}),
            )
            _remove_doc(root, meta)
            _write_doc(root, build_document(src.read_bytes(), opts, config))
        _write_index(root, config)
        changed = gitrepo.is_dirty(root)
        if commit and changed:
            gitrepo.commit(root, "Rebuild shelf")
    return changed


def _write_doc(root: Path, doc: BuiltDoc) -> None:
    for rel, text in sorted(doc.files.items()):
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(text, encoding="utf-8", newline="\n")
        tmp.replace(target)


def _remove_doc(root: Path, meta: dict[str, Any]) -> None:
    """Delete a document's files (sections, subindex pages) so a rebuild writes exactly the new set."""
    paths = [s["path"] for s in meta["sections"]] + [meta["entry"]]
    if meta["entry"].endswith("/subindex.md"):
        paths += list(toc.render_subindexes(meta))
    for rel in paths:
        (root / rel).unlink(missing_ok=True)
    folder = (root / meta["entry"]).parent
    if meta["entry"].endswith("/subindex.md") and folder.is_dir():
        for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
            if not any(sub.iterdir()):
                sub.rmdir()
        if not any(folder.iterdir()):
            folder.rmdir()


def _is_category_page(path: Path) -> bool:
    """docs/<category>/subindex.md: not a document's subindex, not a chapter page inside one."""
    folder = path.parent
    return not folder.with_suffix(".meta.json").exists() and not folder.parent.with_suffix(".meta.json").exists()


def _write_index(root: Path, config: ShelfConfig) -> None:
    """The root index and the category pages; a category page no longer needed is removed."""
    pages = toc.render_indexes(config.name, config.description, metas(root))
    docs = root / "docs"
    for old in sorted(docs.rglob("subindex.md")) if docs.is_dir() else []:
        if _is_category_page(old) and old.relative_to(root).as_posix() not in pages:
            old.unlink()
    for rel, text in pages.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")


@contextmanager
def _guarded(root: Path, *, commit: bool, branch: str | None) -> Iterator[None]:
    """Put the working tree (and branch) back as it was if the body fails."""
    if commit and gitrepo.is_dirty(root):
        raise ShelfError(
            f"{root} has uncommitted changes. Commit or discard them first (git status), or use --no-commit."
        )
    with gitrepo.rollback_on_error(root, branch=branch, rollback=commit):
        yield


__all__ = ["DocShelfError", "add", "init", "metas", "rebuild", "template_dir"]
