"""Bearer tokens per client for HTTP: a tokens file holding only SHA-256 hashes, checked by a ``TokenVerifier``.

The tokens file (JSON, mode 0600, replaced atomically on every change)::

    {"docshelf_tokens": 1,
     "tokens": [{"name": "alice", "id": "3f2a9c1b7d04", "sha256": "<hex of sha256(token)>",
                 "created": "2026-11-30T12:00:00.000000Z", "role": "client"}]}

A token is ``dsk_`` + 43 URL-safe characters (256 random bits); it is printed once by ``add_token``
and never stored. ``id`` is the first 12 hex digits of the hash, to tell a client's tokens apart
when rotating. Several tokens may share a name (rotation: add the new one, then revoke by id).
The verifier re-reads the file when it changes, so a revocation takes effect without a restart.

A token carries a role: ``client`` (a model's MCP client: the tools, and on the web desk at most its own
calls), ``investigator`` (the desk: every call, every client) or ``admin`` (the desk, and ``/metrics``).
An entry written before roles existed is a client.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import tempfile
import threading
from pathlib import Path
from typing import Any

from mcp.server.auth.provider import AccessToken

from docshelf.errors import ServeError
from docshelf.server import ROLES
from docshelf.server.audit import utc_now

SCOPE = "shelf:read"
_ROLE_SCOPE = "role:"  # the role travels in the SDK AccessToken's scopes: «role:investigator»
TOKEN_PREFIX = "dsk_"
FORMAT_VERSION = 1
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def load_tokens(tokens_file: Path) -> list[dict[str, str]]:
    """The entries of a tokens file (an absent file has none)."""
    if not tokens_file.exists():
        return []
    try:
        data = json.loads(tokens_file.read_text(encoding="utf-8"))
        entries = data["tokens"]
        if data.get("docshelf_tokens") != FORMAT_VERSION or not isinstance(entries, list):
            raise ValueError("not a DocShelf tokens file")
        return [{k: str(e[k]) for k in ("name", "id", "sha256", "created")} | {"role": _role(e)} for e in entries]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ServeError(
            f"{tokens_file} is not a readable DocShelf tokens file ({exc}). Create one with "
            f"`docshelf token add NAME --tokens {tokens_file}`."
        ) from exc


def _save(tokens_file: Path, entries: list[dict[str, str]]) -> None:
    tokens_file.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"docshelf_tokens": FORMAT_VERSION, "tokens": entries}, ensure_ascii=False, indent=2) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=".tokens-", suffix=".tmp", dir=tokens_file.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:  # mkstemp creates it 0600
            fh.write(text)
        os.replace(tmp, tokens_file)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _role(entry: dict[str, Any]) -> str:
    role = str(entry.get("role", "client"))
    if role not in ROLES:
        raise ValueError(f"token {entry.get('id')} has the unknown role {role!r} (roles: {', '.join(ROLES)})")
    return role


def role_of(access: AccessToken | None) -> str | None:
    """The role a verified token carries (None: no token, as on a loopback server without --tokens)."""
    if access is None:
        return None
    return next((s.removeprefix(_ROLE_SCOPE) for s in access.scopes if s.startswith(_ROLE_SCOPE)), "client")


def add_token(tokens_file: Path, name: str, role: str = "client") -> str:
    """Create a random token for client ``name``, store only its hash in ``tokens_file``, return the token."""
    if not _NAME.match(name):
        raise ServeError(f"Invalid client name {name!r}: use 1–64 letters, digits, '.', '_', '@' or '-'.")
    if role not in ROLES:
        raise ServeError(f"Unknown role {role!r}: choose one of {', '.join(ROLES)}.")
    entries = load_tokens(tokens_file)
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    digest = _hash(token)
    entries.append({"name": name, "id": digest[:12], "sha256": digest, "created": utc_now(), "role": role})
    _save(tokens_file, entries)
    return token


def revoke_tokens(tokens_file: Path, name_or_id: str) -> int:
    """Remove every token of client ``name_or_id`` (or the one token with that id); returns how many."""
    entries = load_tokens(tokens_file)
    kept = [e for e in entries if name_or_id not in (e["name"], e["id"])]
    if len(kept) != len(entries):
        _save(tokens_file, kept)
    return len(entries) - len(kept)


class TokenFileVerifier:
    """The SDK ``TokenVerifier`` over a tokens file: a token is valid if its hash is listed."""

    def __init__(self, tokens_file: Path) -> None:
        self.tokens_file = tokens_file
        self._lock = threading.Lock()
        self._stamp: tuple[int, int, int] | None = None
        self._names: dict[str, tuple[str, str]] = {}  # sha256 -> (client name, role)
        self._reload()
        if not self._names:
            raise ServeError(
                f"{tokens_file} holds no tokens, so no client could connect. "
                f"Add one with `docshelf token add NAME --tokens {tokens_file}`."
            )

    def _reload(self) -> None:
        try:
            st = self.tokens_file.stat()
        except OSError as exc:
            raise ServeError(
                f"No tokens file at {self.tokens_file}. Create it with "
                f"`docshelf token add NAME --tokens {self.tokens_file}`."
            ) from exc
        # The inode too: `token revoke` replaces the file atomically, possibly within one mtime tick and at one size.
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        with self._lock:
            if stamp == self._stamp:
                return
            self._names = {e["sha256"]: (e["name"], e["role"]) for e in load_tokens(self.tokens_file)}
            self._stamp = stamp

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            self._reload()
        except ServeError:
            # The file vanished or broke while serving: refuse everyone rather than serve stale grants.
            with self._lock:
                self._names, self._stamp = {}, None
            return None
        found = self._names.get(_hash(token))
        if found is None:
            return None
        name, role = found
        return AccessToken(token=token, client_id=name, scopes=[SCOPE, _ROLE_SCOPE + role])


def describe(entries: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Token entries without their hashes, for listing."""
    return [{"name": e["name"], "id": e["id"], "created": e["created"], "role": e["role"]} for e in entries]
