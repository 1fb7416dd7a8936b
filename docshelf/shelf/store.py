"""The shelf on disk: init, add, rebuild and remove, each all-or-nothing.

Conversion happens in memory first, so a bad source fails before anything is written. The new
files are then laid out in memory too (``Stage``: the working tree overlaid with the changes) and
committed by ``gitrepo.commit_files``, which builds the commit beside the working tree and moves
the branch in one step before it updates the working tree: an error or a ``kill -9`` at any
moment leaves the shelf at the old commit or the new one. Writes hold the shelf's lock, so two
``add`` runs take turns; ``add`` refuses to run over uncommitted changes unless ``--no-commit``
is given, which writes the files into the working tree instead.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any

from docshelf.build import toc
from docshelf.build.pipeline import BuiltDoc, DocOptions, build_document, sha256
from docshelf.errors import ConversionError, DocShelfError, DuplicateIdError, ShelfError
from docshelf.law.editions import check_relations
from docshelf.records import CATEGORY_PAGES, DocMeta
from docshelf.shelf import files, gitrepo
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


def metas(root: Path) -> list[DocMeta]:
    """All document metas in the working tree, in a stable order (a write reads them once)."""
    docs = root / "docs"
    return [DocMeta.loads(path.read_bytes()) for path in sorted(_meta_files(docs))] if docs.is_dir() else []


def _meta_files(folder: Path) -> Iterator[Path]:
    """``*.meta.json`` under ``folder``, not looking inside document folders (``x/`` beside ``x.meta.json``).

    A document folder holds only its sections and subindex pages; skipping it keeps a write on a
    large shelf from listing every section file.
    """
    with os.scandir(folder) as listing:
        entries = list(listing)
    names = {e.name for e in entries}
    for entry in entries:
        if entry.name.endswith(".meta.json") and entry.is_file(follow_symlinks=False):
            yield Path(entry.path)
        elif entry.is_dir(follow_symlinks=False) and f"{entry.name}.meta.json" not in names:
            yield from _meta_files(Path(entry.path))


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
    if len(sources) > 1 and (options.id or options.title):
        raise ShelfError("--id and --title name one document: add the files one at a time to use them.")
    with _writing(root, commit=commit, progress=progress):
        config = load(root)
        stage = Stage(root, metas(root))
        existing = {m.id: m for m in stage.base}
        built: list[tuple[BuiltDoc, str, bytes]] = []
        replaced: list[DocMeta] = []
        for n, (path, data) in enumerate(_read_sources(sources), start=1):
            progress(f"[{n}/{len(sources)}] converting {path.name} ({len(data) / 1024:.0f} KB)…")
            name = _source_name(root, path, data)
            old = existing.get(options.id) if update and options.id else None
            opts = replace(options, source=name, category=options.category or (old.category if old else ""))
            doc = build_document(data, opts, config)
            old = existing.get(doc.id) if update else None
            _refuse_duplicates(path, doc, existing, built, old)
            if old is not None:
                replaced.append(old)
            progress(f"      {doc.id}: {len(doc.meta.section_data)} section(s), {doc.meta.pages} page(s)")
            for warning in doc.meta.warnings:
                progress(f"      warning: {warning}")
            built.append((doc, name, data))
        gone = {r.id for r in replaced}
        others = [m for m in existing.values() if m.id not in gone]
        for _path, _kind, message in check_relations([*others, *(d.meta for d, _, _ in built)]):
            progress(f"      warning: {message}")
        for old in replaced:
            _remove_doc(stage, old)
            stage.remove(old.source.file)  # kept in Git history
        for doc, name, data in built:
            stage.write_bytes(f"sources/{name}", data)
            _write_doc(stage, doc)
        _write_index(stage, config)
        verb = "Update" if replaced else "Add"
        ids = ", ".join(d.id for d, _, _ in built)
        _save(stage, commit, f"{verb} {ids}\n\n" + "\n".join(f"- {d.id}: {d.title}" for d, _, _ in built), branch)
    return [d for d, _, _ in built]


def remove(root: Path, ids: Sequence[str], *, commit: bool = True, progress: Progress = _stderr) -> list[DocMeta]:
    """Take documents off the shelf in one commit: sections, subindex pages, meta and source.

    The commits before this one still hold them, so every earlier answer can be read again.

    Raises:
        ShelfError: an id names no document on the shelf.
    """
    with _writing(root, commit=commit, progress=progress):
        config = load(root)
        stage = Stage(root, metas(root))
        by_id = {m.id: m for m in stage.base}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise ShelfError(
                f"No document {', '.join(map(repr, missing))} on the shelf. Document ids: "
                f"{', '.join(sorted(by_id)) or 'none'} (see `docshelf read-index`)."
            )
        gone = [by_id[i] for i in dict.fromkeys(ids)]
        for meta in gone:
            _remove_doc(stage, meta)
            stage.remove(meta.meta_path)
            stage.remove(meta.source.file)
        for _path, _kind, message in check_relations([m for m in stage.base if m not in gone]):
            progress(f"      warning: {message}")
        _write_index(stage, config)
        listed = "\n".join(f"- {m.id}: {m.title}" for m in gone)
        _save(stage, commit, f"Remove {', '.join(m.id for m in gone)}\n\n{listed}", None)
    return gone


def _refuse_duplicates(
    path: Path, doc: BuiltDoc, existing: dict[str, DocMeta], built: list[Any], old: DocMeta | None
) -> None:
    if (doc.id in existing and old is None) or any(b.id == doc.id for b, _, _ in built):
        raise DuplicateIdError(
            f"{path.name}: a document with id {doc.id!r} is already on the shelf. Pass a different --id, "
            "or add it with --update to make this file the document's new edition."
        )
    taken = {m.entry for m in existing.values() if m is not old} | {b.entry_path for b, _, _ in built}
    if doc.entry_path in taken:
        raise DuplicateIdError(f"{path.name}: {doc.entry_path} already exists. Pass a different --id.")


def rebuild(root: Path, *, commit: bool = True, progress: Progress = _stderr) -> bool:
    """Regenerate every document from its stored source and options; True when anything changed."""
    with _writing(root, commit=commit, progress=progress):
        config = load(root)
        stage = Stage(root, metas(root))
        docs = stage.base
        for n, meta in enumerate(docs, start=1):
            progress(f"[{n}/{len(docs)}] rebuilding {meta.id}…")
            src = files.regular(root, meta.source.file)  # a link in sources/ would read outside the shelf
            if not src.is_file():
                raise ShelfError(f"{meta.source.file} is missing; restore it from Git history to rebuild {meta.id}.")
            if not isinstance(meta.edition, dict):
                raise ShelfError(f"{meta.meta_path}: edition is not a JSON object; fix it (docshelf check says how).")
            opts = DocOptions(
                source=src.name,
                category=meta.category,
                quality=meta.options["quality"],
                split=meta.options["split"],
                edition=meta.edition,
            )
            _remove_doc(stage, meta)
            _write_doc(stage, _rebuilt(src.read_bytes(), opts, meta, config))
        _write_index(stage, config)
        return _save(stage, commit, "Rebuild shelf", None)


def _rebuilt(data: bytes, opts: DocOptions, meta: DocMeta, config: ShelfConfig) -> BuiltDoc:
    """The document built again. An id never changes (citations and paths name it), but where it was read
    from the document it is read again, so the quality record still says where it came from. A title given
    with ``--title`` is kept; one read from the document is read again, so a better reading reaches the
    shelf; a meta from before titles had a recorded source keeps its title unless today's reading is the same."""
    recorded = meta.quality or {}
    given_id, given_title = recorded.get("id_source") == "given", recorded.get("title_source") == "given"
    doc = build_document(
        data, replace(opts, id=meta.id if given_id else "", title=meta.title if given_title else ""), config
    )
    id_moved = doc.id != meta.id
    title_moved = recorded.get("title_source") is None and doc.title != meta.title
    if id_moved or title_moved:
        kept = replace(
            opts, id=meta.id if given_id or id_moved else "", title=meta.title if given_title or title_moved else ""
        )
        doc = build_document(data, kept, config)
    return doc


def _write_doc(stage: Stage, doc: BuiltDoc) -> None:
    for rel, text in sorted(doc.files.items()):
        stage.write(rel, text)


def _remove_doc(stage: Stage, meta: DocMeta) -> None:
    """Delete a document's files (sections, table pages) so a rebuild writes exactly the new set.

    The table pages are the ones the shelf holds, not the ones this code would render from the old
    meta: a shelf built by older code may hold pages its paging made and today's does not (other
    group folders, other nesting), which would otherwise stay behind as orphans.
    """
    paths = [s.path for s in meta.sections] + [meta.entry]
    if meta.entry.endswith("/subindex.md"):
        paths += _table_pages(stage, PurePosixPath(meta.entry).parent)
    for rel in paths:
        stage.remove(rel)


def _table_pages(stage: Stage, folder: PurePosixPath) -> list[str]:
    """Every ``subindex.md`` in the working tree under a document's ``folder``, the group folders included.

    Only there: not through a symlink, and not inside a folder that is a document of its own (``x/``
    beside ``x.meta.json``), so nothing of another document, no section and no source is touched.
    """
    top = stage.root / folder
    if top.is_symlink() or not top.resolve().is_relative_to(stage.root.resolve() / folder):
        return []  # a folder reached through a link is not the shelf's own to clean
    found = []
    for here, dirs, names in os.walk(top):  # os.walk does not descend into symlinked folders
        dirs[:] = [d for d in dirs if not os.path.isfile(os.path.join(here, f"{d}.meta.json"))]
        page = Path(here, "subindex.md")
        if "subindex.md" in names and not page.is_symlink():
            found.append(page.relative_to(stage.root).as_posix())
    return sorted(found)


def _is_category_page(stage: Stage, rel: str) -> bool:
    """docs/<category>/subindex.md: not a document's subindex, not a chapter page inside one."""
    folder = PurePosixPath(rel).parent
    return not stage.exists(f"{folder}.meta.json") and not stage.exists(f"{folder.parent}.meta.json")


def _write_index(stage: Stage, config: ShelfConfig) -> None:
    """The root index and the category pages; a category page no longer needed is removed."""
    pages = toc.render_indexes(config.name, config.description, stage.metas())
    # Category pages exist only for categories that had documents before this write.
    for old in sorted({f"docs/{m.category}/subindex.md" for m in stage.base}):
        if old not in pages and stage.exists(old) and _is_category_page(stage, old):
            stage.remove(old)
    for cat in sorted({m.category for m in stage.base}):  # range pages of a category that has fewer now
        ranges = stage.root / "docs" / cat / CATEGORY_PAGES
        for found in sorted(ranges.rglob("subindex.md")) if ranges.is_dir() else []:
            rel = found.relative_to(stage.root).as_posix()
            if rel not in pages and stage.exists(rel):
                stage.remove(rel)
    for rel, text in pages.items():
        stage.write(rel, text)


class Stage:
    """The shelf's files as this write will leave them: the working tree overlaid with ``changes``.

    Nothing reaches the disk until ``_save``: a commit (``gitrepo.commit_files``) or, with
    ``--no-commit``, ``apply`` into the working tree.
    """

    def __init__(self, root: Path, base: list[DocMeta]) -> None:
        self.root = root
        self.base = base  # the documents' metas before this write, read once
        self.changes: dict[str, bytes | None] = {}  # shelf-relative path -> new bytes, or None: deleted

    def write(self, rel: str, text: str) -> None:
        self.changes[rel] = text.encode("utf-8")

    def write_bytes(self, rel: str, data: bytes) -> None:
        self.changes[rel] = data

    def remove(self, rel: str) -> None:
        self.changes[rel] = None

    def exists(self, rel: str) -> bool:
        if rel in self.changes:
            return self.changes[rel] is not None
        return (self.root / rel).is_file()

    def metas(self) -> list[DocMeta]:
        """Every document meta after the changes, in the order ``metas`` reads them, without reading the disk."""
        by_path = {m.meta_path: m for m in self.base}
        for rel, data in self.changes.items():
            if rel.startswith("docs/") and rel.endswith(".meta.json"):
                if data is None:
                    by_path.pop(rel, None)
                else:
                    by_path[rel] = DocMeta.loads(data)
        return [by_path[rel] for rel in sorted(by_path, key=PurePosixPath)]

    def changed(self) -> dict[str, bytes | None]:
        """The changes that differ from the working tree (a rebuild rewrites many files byte for byte)."""
        out: dict[str, bytes | None] = {}
        for rel, data in self.changes.items():
            path = self.root / rel
            if data is None and path.is_file():
                out[rel] = None
            elif data is not None and (not path.is_file() or path.read_bytes() != data):
                out[rel] = data
        return out

    def apply(self, changes: dict[str, bytes | None]) -> None:
        """Write ``changes`` into the working tree (``--no-commit``), removing folders they leave empty."""
        for rel, data in sorted(changes.items()):
            target = self.root / rel
            if data is None:
                target.unlink(missing_ok=True)
                _prune_empty(target.parent, self.root)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(target.name + ".tmp")
            tmp.write_bytes(data)
            tmp.replace(target)


def _prune_empty(folder: Path, root: Path) -> None:
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def _save(stage: Stage, commit: bool, message: str, branch: str | None) -> bool:
    """Commit the stage (or write it into the working tree with ``--no-commit``); True if anything changed."""
    changes = stage.changed()
    if commit:
        if changes or branch:
            gitrepo.commit_files(stage.root, changes, message, branch=branch)
    else:
        stage.apply(changes)
    return bool(changes)


@contextmanager
def _writing(root: Path, *, commit: bool, progress: Progress) -> Iterator[None]:
    """Hold the shelf's write lock (finishing an interrupted write first) and refuse a dirty working tree."""
    gitrepo.require_repo(root)
    files.refuse_linked_folders(root)
    lock = gitrepo.write_lock(root, say=progress) if commit else nullcontext()
    with lock:
        if commit and gitrepo.is_dirty(root):
            raise ShelfError(
                f"{root} has uncommitted changes. Commit or discard them first (git status), or use --no-commit."
            )
        yield


__all__ = ["DocShelfError", "add", "init", "metas", "rebuild", "remove", "template_dir"]
