"""``docshelf web`` over HTTP (Starlette's TestClient): its pages over a real shelf, MCP calls and audit log."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx2
import pytest
from click.testing import CliRunner
from server_support import HANG_S, child_env, doc_path, free_port, git, make_small_shelf, read_lines, wait_until_ready
from starlette.testclient import TestClient
from web_support import NEW_WORD, OLD_WORD, QUOTE_BAD, QUOTE_OK, REF, build, make_calls, new_edition, relabel_clients

from docshelf.errors import ServeError
from docshelf.server.audit import AuditLog
from docshelf.server.auth import add_token, revoke_tokens
from docshelf.server.httpapp import allowed_hosts_for
from docshelf.shelf import gitrepo
from docshelf.web.app import SESSION_COOKIE, Sessions, create_web_app
from docshelf.web.command import web

BASE = "http://127.0.0.1:8766"


class Desk:
    """The shelf after the calls and a new edition: ``calls`` by name, ``ids`` of the log in order."""

    def __init__(self, tmp: Path) -> None:
        self.root, self.log = build(tmp)
        self.calls = make_calls(self.root, self.log)
        self.then = gitrepo.resolve(self.root)
        self.now = new_edition(self.root)
        self.path = doc_path(self.root)
        self.records = read_lines(self.log)

    def call_id(self, name: str) -> str:
        return str(self.calls[name].meta["docshelf/call_id"])


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Desk:
    return Desk(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def client(desk: Desk) -> TestClient:
    return TestClient(create_web_app(desk.root, desk.log), base_url=BASE)


def call_ids(page: str) -> list[str]:
    return re.findall(r'href="/call/([0-9a-fo-][^"/?]*)"', page)


def element(page: str, tag: str, ident: str) -> str:
    """The text inside ``<tag id=ident>`` (tags inside it removed), unescaped."""
    match = re.search(rf'<{tag}[^>]* id="{ident}"[^>]*>(.*?)</{tag}>', page, re.S)
    assert match, f"no <{tag} id={ident}>"
    return html.unescape(re.sub(r"<[^>]+>", "", match[1]))


def test_the_list_shows_every_call_newest_first(desk: Desk, client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'href="/static/desk.css"' in page.text
    assert call_ids(page.text) == [r["id"] for r in reversed(desk.records)]
    assert "verify_quote" in page.text and "not_found" in page.text and desk.then[:12] in page.text
    assert page.headers["content-security-policy"].startswith("default-src 'none'; style-src 'self'")
    assert page.headers["x-content-type-options"] == "nosniff"


def test_records_from_before_call_ids_are_named_by_offset(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    old = {"ts": "2026-11-01T10:00:00.000000Z", "client": "old", "method": "tools/call", "tool": "fetch"}
    log.write_text(json.dumps(old) + "\n" + json.dumps({**old, "client": "older"}) + "\n", encoding="utf-8")
    client = TestClient(create_web_app(tmp_path, log), base_url=BASE)
    second = len(json.dumps(old)) + 1
    assert call_ids(client.get("/").text) == [f"o{second}", "o0"]
    page = client.get(f"/call/o{second}")
    assert page.status_code == 200 and "older" in page.text and "read no commit" in page.text


@pytest.mark.parametrize(
    ("query", "expect"),
    [
        ({"tool": "verify_quote"}, lambda r: r["tool"] == "verify_quote"),
        ({"verdict": "not_found"}, lambda r: r["verdict"] == "not_found"),
        ({"tool": "fetch", "doc": "ptkh"}, lambda r: r["tool"] == "fetch" and r["paths"]),
        ({"doc": "ПТХ СТ. 1"}, lambda r: r["tool"] == "verify_quote"),
        ({"tool": "resources/read"}, lambda r: r["method"] == "resources/read"),
        ({"client": "nobody"}, lambda r: False),
        ({"since": "2999-01-01"}, lambda r: False),
        ({"until": "2000-01-01"}, lambda r: False),
    ],
)
def test_filters(desk: Desk, client: TestClient, query: dict[str, str], expect: Any) -> None:
    page = client.get("/", params=query)
    assert page.status_code == 200
    assert call_ids(page.text) == [r["id"] for r in reversed(desk.records) if expect(r)]


def test_paging_newest_first(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    with AuditLog(log) as audit:
        ids = [audit.write(_record(i)) for i in range(120)]
    client = TestClient(create_web_app(tmp_path, log), base_url=BASE)
    first, third, beyond = (client.get("/", params={"page": n}).text for n in (1, 3, 9))
    assert call_ids(first) == ids[::-1][:50] and "older →" in first and "← newer" not in first
    assert call_ids(third) == ids[::-1][100:] and "older →" not in third and "page 3 of 3 · 120 record(s)" in third
    assert call_ids(beyond) == call_ids(third)
    c1 = client.get("/", params={"client": "c1"}).text
    assert call_ids(c1) == [i for n, i in enumerate(ids) if n % 3 == 1][::-1] and "page 1 of 1 · 40 record(s)" in c1
    until = client.get("/", params={"until": "2026-11-08", "page": 2}).text  # days 1-8: the first 80 records
    assert call_ids(until) == ids[:80][::-1][50:] and "← newer" in until


def _record(n: int) -> dict[str, Any]:
    return {
        "ts": f"2026-11-{1 + n // 10:02d}T10:00:{n % 60:02d}.000000Z",
        "client": f"c{n % 3}",
        "method": "tools/call",
        "tool": "fetch",
        "arguments": {"path": f"docs/a/{n}.md"},
        "commit": None,
        "paths": [],
        "verdict": None,
        "outcome": "ok",
    }


def test_a_missing_log_is_named(desk: Desk, tmp_path: Path) -> None:
    page = TestClient(create_web_app(desk.root, tmp_path / "none.jsonl"), base_url=BASE).get("/")
    assert page.status_code == 200 and "No audit log at" in page.text and "none.jsonl" in page.text
    assert call_ids(page.text) == []


def test_a_fetch_call_shows_the_blob_at_its_commit(desk: Desk, client: TestClient) -> None:
    call_id = desk.call_id("fetch")
    page = client.get(f"/call/{call_id}").text
    blob = gitrepo.read(desk.root, desk.path, desk.then).decode("utf-8")
    assert element(page, "pre", "returned-text") == blob and OLD_WORD in blob
    assert f"from={desk.then}" in page and f"call={call_id}" in page and "compare with today" in page
    assert "edition status" not in page  # the small shelf's document records no edition


def test_verify_calls_show_the_match_or_the_word_diff(desk: Desk, client: TestClient) -> None:
    ok = client.get(f"/call/{desk.call_id('verify_ok')}").text
    match = desk.calls["verify_ok"].structured_content["match"]
    assert element(ok, "mark", "match") == match and match in QUOTE_OK
    bad = client.get(f"/call/{desk.call_id('verify_bad')}").text
    assert f"<del>{OLD_WORD}</del>" in bad and "<ins>шестидесяти</ins>" in bad and html.escape(QUOTE_BAD) in bad


def test_a_batch_call_shows_every_verdict_and_rechecks_every_quote(desk: Desk, client: TestClient) -> None:
    call_id = desk.call_id("verify_batch")
    page = client.get(f"/call/{call_id}").text
    assert page.count('class="check"') == 2 and '<mark id="match">' in page and f"<del>{OLD_WORD}</del>" in page
    diff = client.get("/diff", params={"from": desk.then, "to": "HEAD", "doc": "ПТХ", "call": call_id}).text
    summaries = re.findall(r'<strong class="recheck">(.*?)</strong>', diff)
    assert summaries == [
        "no longer verbatim today: changed in ПТХ ст. 1 ч. 1",
        "not verbatim then, nor today (not_found)",
    ]


def test_failed_and_other_calls_have_pages(desk: Desk, client: TestClient) -> None:
    missing = client.get(f"/call/{desk.call_id('missing')}")
    assert missing.status_code == 200 and "tool_error" in missing.text and "No file" in missing.text
    search = client.get(f"/call/{desk.call_id('search')}").text
    hit = desk.calls["search"].structured_content["hits"][0]
    assert hit["path"] == desk.path and html.escape(hit["snippet"]) in search
    index = client.get(f"/call/{desk.call_id('read_index')}").text
    assert element(index, "pre", "returned-text") == gitrepo.read(desk.root, "index.md", desk.then).decode("utf-8")
    resource = client.get(f"/call/{desk.call_id('resource')}").text
    assert "resources/read" in resource and element(resource, "pre", "returned-text").startswith("# Small shelf")


def test_the_diff_shows_the_change_and_rechecks_the_quotes(desk: Desk, client: TestClient) -> None:
    params = {"from": desk.then, "to": "HEAD", "doc": "ПТХ", "call": desk.call_id("verify_ok")}
    page = client.get("/diff", params=params).text
    assert f"<del>{OLD_WORD}</del>" in page and f"<ins>{NEW_WORD}</ins>" in page and "ст. 1 ч. 1" in page
    assert "no longer verbatim today: changed in ПТХ ст. 1 ч. 1" in page
    never = client.get("/diff", params={**params, "call": desk.call_id("verify_bad")}).text
    assert "not verbatim then, nor today (not_found)" in never
    same = client.get("/diff", params={**params, "to": desk.then}).text
    assert "No changes" in same and f"still verbatim at {desk.then[:12]}" in same


def test_a_text_at_a_commit_marks_its_clauses(desk: Desk, client: TestClient) -> None:
    page = client.get(f"/at/{desk.then}/{desk.path}", params={"clause": "ст. 1"}).text
    blob = gitrepo.read(desk.root, desk.path, desk.then).decode("utf-8")
    assert element(page, "pre", "section-text") == blob
    assert '<span class="clause target" id="ст.1"' in page and 'id="ст.1_ч.1"' in page
    assert 'href="#ст.2_ч.1"' in page  # the clause list links to the anchors


def test_a_binary_file_at_a_commit_is_refused_with_advice(tmp_path: Path) -> None:
    root = make_small_shelf(tmp_path / "shelf")
    (root / "sources" / "scan.pdf").write_bytes(b"%PDF-1.7\n\xff\xfe\x00binary")
    sha = gitrepo.commit(root, "a binary source")
    client = TestClient(create_web_app(root, tmp_path / "audit.jsonl"), base_url=BASE)
    page = client.get(f"/at/{sha}/sources/scan.pdf")
    assert page.status_code == 404 and "is not a text file" in page.text and f"git show {sha[:12]}:" in page.text


def test_a_document_history_lists_its_commits(desk: Desk, client: TestClient) -> None:
    page = client.get("/doc/ПТХ").text
    assert desk.now[:12] in page and desk.then[:12] in page and "Edition 2" in page
    assert f"from={desk.then}&amp;to={desk.now}" in page


def test_the_answer_check_and_its_exports(desk: Desk, client: TestClient) -> None:
    items = "\n".join(json.dumps({"quote": q, "ref": REF}, ensure_ascii=False) for q in (QUOTE_OK, QUOTE_BAD))
    form = {"items": items, "at": desk.then}
    page = client.post("/check", data={**form, "format": "page"})
    assert page.status_code == 200 and "FAIL" in page.text and "1 of 2 quotes verified" in page.text
    assert "<mark" in page.text and "<del>" in page.text
    data = client.post("/check", data={**form, "format": "json"})
    assert "attachment" in data.headers["content-disposition"]
    report = data.json()["report"]
    assert report["commit"] == desk.then and report["counts"] == {"ok": 1, "not_found": 1}
    exported = client.post("/check", data={**form, "format": "html"})
    assert "attachment" in exported.headers["content-disposition"]
    _self_contained(exported.text)
    today = client.post("/check", data={"items": items, "at": "", "format": "json"}).json()["report"]
    assert today["commit"] == desk.now and today["counts"] == {"not_found": 2}
    bad = client.post("/check", data={"items": "not json", "at": "", "format": "page"})
    assert bad.status_code == 400 and "Line 1 is not JSON" in bad.text


def _self_contained(page: str) -> None:
    assert "<style>" in page and "<script" not in page and "http://" not in page and "https://" not in page
    assert 'rel="stylesheet"' not in page


def test_a_record_exports_as_json_and_html(desk: Desk, client: TestClient) -> None:
    call_id = desk.call_id("fetch")
    data = client.get(f"/call/{call_id}/export", params={"format": "json"})
    assert data.headers["content-disposition"] == f'attachment; filename="call-{call_id}.json"'
    body = data.json()
    assert body["record"]["id"] == call_id and body["record"]["commit"] == desk.then
    assert body["reread"]["result"]["text"] == gitrepo.read(desk.root, desk.path, desk.then).decode("utf-8")
    page = client.get(f"/call/{call_id}/export", params={"format": "html"})
    _self_contained(page.text)
    assert element(page.text, "pre", "returned-text") == body["reread"]["result"]["text"]
    on_desk = client.get(f"/call/{call_id}").text
    assert 'href="/at/' in on_desk and 'href="/' not in page.text  # a case file opened offline has no dead links
    assert desk.path in page.text  # the paths stay, as text


@pytest.mark.parametrize(
    "path",
    [
        "/call/0123456789ab-00000000",
        "/call/0123456789ab-00000000/export",
        "/at/0000000000000000000000000000000000000000/index.md",
        "/at/HEAD/docs/none.md",
        "/at/HEAD/..%2F..%2Fetc%2Fpasswd",
        "/at/--output=x/index.md",
        "/doc/НЕТ",
        "/diff?from=nope&to=HEAD",
        "/diff",
    ],
)
def test_unknown_things_get_a_404_that_says_what_to_do(client: TestClient, path: str) -> None:
    page = client.get(path)
    assert page.status_code == 404 and 'class="warning"' in page.text and "Traceback" not in page.text


# --- the fence: as the MCP server's -----------------------------------------------------------------


@pytest.fixture
def tokens(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "tokens.json"
    return {"file": path, "alice": add_token(path, "alice", "investigator"), "bob": add_token(path, "bob", "admin")}


BAD_AUTH = [
    {"Authorization": "Bearer"},
    {"Authorization": "Bearer "},
    {"Authorization": "Bearer dsk_not-a-real-token"},
    {"Authorization": "Basic YWxpY2U6cGFzcw=="},
    {"Authorization": "Token abc"},
]
PAGES = ["/", "/call/x", "/diff?from=HEAD", "/at/HEAD/index.md", "/doc/ПТХ", "/check"]


def test_without_a_login_every_page_is_refused(desk: Desk, tokens: dict[str, Any]) -> None:
    client = TestClient(create_web_app(desk.root, desk.log, tokens_file=tokens["file"]), base_url=BASE)
    for path in PAGES:
        page = client.get(path, follow_redirects=False)
        assert page.status_code == 303 and page.headers["location"].startswith("/login?next=")
        for headers in BAD_AUTH:
            refused = client.get(path, headers=headers, follow_redirects=False)
            assert refused.status_code == 401 and "invalid_token" in refused.headers["www-authenticate"]
    assert client.post("/check", data={"items": "{}"}, follow_redirects=False).status_code == 401
    assert client.get("/static/desk.css").status_code == 200  # the login page's stylesheet
    wrong = client.post("/login", data={"token": tokens["alice"] + "x"}, follow_redirects=False)
    assert wrong.status_code == 401 and SESSION_COOKIE not in wrong.cookies


def test_a_token_logs_in_and_a_revoked_one_stops_working(desk: Desk, tokens: dict[str, Any]) -> None:
    client = TestClient(create_web_app(desk.root, desk.log, tokens_file=tokens["file"]), base_url=BASE)
    login = client.post("/login?next=/doc/ПТХ", data={"token": tokens["bob"]}, follow_redirects=False)
    assert login.status_code == 303 and unquote(login.headers["location"]) == "/doc/ПТХ"
    cookie = login.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower() and tokens["bob"] not in cookie
    page = client.get("/")
    assert page.status_code == 200 and "bob" in page.text and call_ids(page.text)
    bearer = {"Authorization": f"Bearer {tokens['alice']}"}
    assert client.get("/", headers=bearer).status_code == 200
    assert revoke_tokens(tokens["file"], "bob") == 1
    assert client.get("/", follow_redirects=False).status_code == 303
    assert client.get("/", headers=bearer).status_code == 200
    client.post("/login", data={"token": tokens["alice"]}, follow_redirects=False)
    assert client.get("/logout", follow_redirects=False).status_code == 303
    assert client.get("/", follow_redirects=False).status_code == 303


def test_host_and_origin_are_checked(desk: Desk, tokens: dict[str, Any]) -> None:
    hosts = allowed_hosts_for("0.0.0.0", ["docshelf.corp"])
    app = create_web_app(desk.root, desk.log, tokens_file=tokens["file"], allowed_hosts=hosts)
    client = TestClient(app, base_url="http://docshelf.corp:8766")
    bearer = {"Authorization": f"Bearer {tokens['alice']}"}
    for host in ("evil.example:8766", "docshelf.corp.evil.example", "127.0.0.1.evil.example:80"):
        assert client.get("/", headers={**bearer, "Host": host}).status_code == 421
        assert client.get("/login", headers={"Host": host}).status_code == 421
    assert client.get("/", headers=bearer).status_code == 200
    assert client.get("/", headers={**bearer, "Origin": "http://evil.example"}).status_code == 403
    evil_login = client.post("/login", data={"token": tokens["alice"]}, headers={"Origin": "http://evil.example"})
    assert evil_login.status_code == 403
    assert client.get("/", headers={**bearer, "Origin": "http://docshelf.corp:8766"}).status_code == 200


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--host", "0.0.0.0"], "Refusing to serve on 0.0.0.0 without --tokens"),
        (["--host", "10.1.2.3"], "without --tokens"),
        (["--tokens", "missing.json"], "No tokens file"),
        (["--allowed-host", "*"], "Invalid --allowed-host"),
        (["--host", "0.0.0.0", "--tokens", "t.json"], "needs --allowed-host NAME"),
    ],
)
def test_web_refuses_unsafe_settings(desk: Desk, args: list[str], words: str) -> None:
    result = CliRunner().invoke(web, ["--shelf", str(desk.root), *args])
    assert isinstance(result.exception, ServeError) and words in str(result.exception)


def test_the_web_command_serves_the_desk(desk: Desk, tmp_path: Path) -> None:
    """`docshelf web` as an operator runs it: a real process on loopback, the default audit log of the shelf."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "docshelf",
            "web",
            "--shelf",
            str(desk.root),
            "--audit-log",
            str(desk.log),
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env=child_env(),
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_ready(proc, lambda: httpx2.get(url, timeout=HANG_S).status_code == 200, "docshelf web")
        page = httpx2.get(url, timeout=HANG_S)
        assert call_ids(page.text) == [r["id"] for r in reversed(desk.records)]
        evil = httpx2.get(url, headers={"Host": "evil.example"}, timeout=HANG_S)
        assert evil.status_code == 421
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=HANG_S)
    assert f"http://127.0.0.1:{port}/" in err


def test_sessions_end_after_their_age_and_the_oldest_go_first(desk: Desk, tokens: dict[str, Any]) -> None:
    sessions = Sessions(max_age_s=3600, max_sessions=2)
    first, second, third = (sessions.open(t) for t in ("a", "b", "c"))
    assert sessions.token(first) is None and sessions.token(second) == "b" and sessions.token(third) == "c"
    expired = Sessions(max_age_s=0)
    app = create_web_app(desk.root, desk.log, tokens_file=tokens["file"], sessions=expired)
    client = TestClient(app, base_url=BASE)
    assert client.post("/login", data={"token": tokens["alice"]}, follow_redirects=False).status_code == 303
    assert client.get("/", follow_redirects=False).status_code == 303  # the session is already over


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/?page=0", 200),
        ("/?page=-3", 200),
        ("/?page=abc", 200),
        ("/?page=99999999999999999999999", 200),
        ("/?since=<script>alert(1)</script>", 200),
        ("/?doc=%00", 200),
        ("/call/%00", 404),
        ("/call/" + "a" * 5000, 404),
        ("/at/HEAD/%2e%2e/%2e%2e/etc/passwd", 404),
        ("/at/HEAD%00/index.md", 404),
        ("/diff?from=HEAD&to=-x", 404),
        ("/diff?from=HEAD&to=HEAD&doc=../..", 404),
        ("/doc/%2e%2e", 404),
        ("/doc/%00", 404),
    ],
)
def test_odd_inputs_get_a_page_not_a_crash(client: TestClient, path: str, status: int) -> None:
    page = client.get(path)
    assert page.status_code == status and "<script>" not in page.text and "Traceback" not in page.text


REFUSED = "not readable on this server|not a commit sha, tag or branch|not in the history of a ref this server reads"


def test_the_desk_reads_exactly_the_refs_serve_reads(tmp_path: Path) -> None:
    """An unreviewed branch, a commit on no reviewed ref and revision syntax are refused by the pages as by `serve`."""
    root = make_small_shelf(tmp_path / "shelf")
    path = doc_path(root)
    reviewed = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "-b", "draft")
    section = root / path
    section.write_text(section.read_text(encoding="utf-8") + "\nНе утверждено.\n", encoding="utf-8")
    draft = gitrepo.commit(root, "An unreviewed change")
    git(root, "checkout", "-q", "-")  # back on the served branch
    client = TestClient(create_web_app(root, tmp_path / "audit.jsonl"), base_url=BASE)
    assert client.get(f"/at/{reviewed}/{path}").status_code == 200
    assert client.get(f"/diff?from={reviewed}&to=HEAD").status_code == 200  # «today» as the operator set it
    for rev in ("draft", draft, draft[:12], ":/unreviewed", "draft~0", "HEAD@{1}"):
        page = client.get(f"/at/{rev}/{path}")
        assert page.status_code == 404 and "Не утверждено" not in page.text, rev
        assert re.search(REFUSED, page.text), rev
    refused = client.get("/diff", params={"from": reviewed, "to": "draft"})
    assert refused.status_code == 404 and "refs/heads/draft" in refused.text
    item = json.dumps({"quote": "Не утверждено.", "ref": path}, ensure_ascii=False)
    check = client.post("/check", data={"items": item, "at": "draft"})
    assert check.status_code == 400 and "not readable on this server" in check.text
    widened = TestClient(create_web_app(root, tmp_path / "audit.jsonl", refs=["refs/heads/"]), base_url=BASE)
    shown = widened.get(f"/at/draft/{path}")
    assert shown.status_code == 200 and "Не утверждено" in shown.text  # the operator's --refs, as for serve


@pytest.fixture
def clients_desk(desk: Desk, tmp_path: Path) -> tuple[Path, dict[str, list[str]], dict[str, str], Path]:
    """The desk's log as two clients' calls, and a tokens file: carol (client), ivan (investigator)."""
    log = tmp_path / "audit.jsonl"
    log.write_text(desk.log.read_text(encoding="utf-8"), encoding="utf-8")
    ids = relabel_clients(log, ["carol", "dave"])
    path = tmp_path / "tokens.json"
    tokens = {"carol": add_token(path, "carol"), "ivan": add_token(path, "ivan", "investigator")}
    return log, ids, tokens, path


def test_a_client_token_reads_its_own_calls_and_an_investigator_every_call(
    desk: Desk, clients_desk: tuple[Path, dict[str, list[str]], dict[str, str], Path]
) -> None:
    log, ids, tokens, path = clients_desk
    client = TestClient(create_web_app(desk.root, log, tokens_file=path), base_url=BASE)
    carol = {"Authorization": f"Bearer {tokens['carol']}"}
    own = client.get("/", headers=carol)
    assert own.status_code == 200 and sorted(call_ids(own.text)) == sorted(ids["carol"])
    assert sorted(call_ids(client.get("/?client=dave", headers=carol).text)) == sorted(ids["carol"])  # still hers
    assert client.get(f"/call/{ids['carol'][0]}", headers=carol).status_code == 200
    for other in (f"/call/{ids['dave'][0]}", f"/call/{ids['dave'][0]}/export?format=json"):
        refused = client.get(other, headers=carol)
        assert refused.status_code == 404 and "among your calls" in refused.text  # not which ids exist
    ivan = {"Authorization": f"Bearer {tokens['ivan']}"}
    everyone = client.get("/", headers=ivan)
    assert sorted(call_ids(everyone.text)) == sorted(ids["carol"] + ids["dave"])
    assert client.get(f"/call/{ids['dave'][0]}", headers=ivan).status_code == 200


def test_the_call_id_box_opens_the_call(desk: Desk, client: TestClient) -> None:
    page = client.get("/")
    assert 'action="/call"' in page.text and 'name="id"' in page.text
    jump = client.get("/call", params={"id": f" {desk.call_id('fetch')} "}, follow_redirects=False)
    assert jump.status_code == 303 and jump.headers["location"] == f"/call/{desk.call_id('fetch')}"
    assert client.get("/call", params={"id": ""}, follow_redirects=False).headers["location"] == "/"


def test_the_list_shows_arguments_as_a_reader_scans_them(desk: Desk, client: TestClient) -> None:
    text = html.unescape(client.get("/").text)
    assert "path: docs/" in text and '{"path"' not in text


def test_the_session_cookie_is_secure_behind_tls(desk: Desk, tokens: dict[str, Any]) -> None:
    hosts = ["docshelf.corp.local"]
    app = create_web_app(desk.root, desk.log, tokens_file=tokens["file"], allowed_hosts=hosts)
    published = TestClient(app, base_url="http://docshelf.corp.local")  # the TLS proxy's name, plain behind it
    cookie = published.post("/login", data={"token": tokens["alice"]}, follow_redirects=False).headers["set-cookie"]
    assert "secure" in cookie.lower() and "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
    local = TestClient(create_web_app(desk.root, desk.log, tokens_file=tokens["file"]), base_url=BASE)
    plain = local.post("/login", data={"token": tokens["alice"]}, follow_redirects=False).headers["set-cookie"]
    assert "secure" not in plain.lower()  # a loopback desk over plain HTTP: a Secure cookie would never come back
    forwarded = local.post("/login", data={"token": tokens["alice"]}, headers={"X-Forwarded-Proto": "https"},
                           follow_redirects=False).headers["set-cookie"]  # fmt: skip
    assert "secure" in forwarded.lower()


def test_an_english_desk_page_states_an_edition_in_english() -> None:
    """One language a page: the desk is English, so a call's edition status is too (the act's own name stays)."""
    from datetime import date

    from docshelf.law import editions
    from docshelf.web.pages import record_facts

    status = editions.edition_status({"valid_to": "2026-03-01", "replaced_by": "ext:Приказ ФСТЭК № 117"},
                                     date(2026, 11, 30)).to_dict()  # fmt: skip
    shown = html.unescape(record_facts({"id": "c1", "tool": "fetch", "commit": "a" * 40}, status, "2026-11-30"))
    assert "repealed 2026-03-01, replaced by: Приказ ФСТЭК № 117" in shown
    assert "утратил" not in shown and "заменён" not in shown
