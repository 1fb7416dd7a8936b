"""The web desk in a real browser: Playwright driving the system Chromium against ``docshelf web`` on uvicorn.

The walk an investigator makes: an MCP client makes calls (fetch, verify ok and not_found) → the
list shows them → a record shows the text exactly as the blob at its commit → a new edition
changes the clause → the diff shows the change and says the quote is no longer verbatim today.

Skipped when ``/usr/bin/chromium`` (Debian's ``chromium`` package) or Playwright is absent; no
browser is ever downloaded. ``DOCSHELF_SCREENSHOT=1`` saves the README's picture to ``docs/web-desk.png``.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from server_support import HANG_S, doc_path, free_port, read_lines
from web_support import NEW_WORD, OLD_WORD, build, make_calls, new_edition, relabel_clients

from docshelf.server.auth import add_token
from docshelf.shelf import gitrepo
from docshelf.web.app import create_web_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOT = Path(__file__).resolve().parents[1] / "docs" / "web-desk.png"

if not CHROMIUM.is_file():
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` on uvicorn on a free loopback port, in a thread; yields the base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + HANG_S
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the web desk did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=HANG_S)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


def calls_in_a_thread(root: Path, log: Path) -> dict[str, Any]:
    """The MCP calls, from another thread: Playwright's sync API keeps an event loop on this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(make_calls, root, log).result()


def test_the_investigators_walk(tmp_path: Path, browser: Any) -> None:
    root, log = build(tmp_path)
    calls = calls_in_a_thread(root, log)
    then, path = gitrepo.resolve(root), doc_path(root)
    ids = {name: result.meta["docshelf/call_id"] for name, result in calls.items()}
    with serving(create_web_app(root, log)) as base:
        page = browser.new_page(viewport={"width": 1200, "height": 560})
        page.goto(f"{base}/")
        rows = page.locator("table.audit tbody tr")
        assert rows.count() == len(read_lines(log))
        for name in ("fetch", "verify_ok", "verify_bad"):
            assert page.locator(f'a[href="/call/{ids[name]}"]').count() == 1
        # Open the fetch record: the text shown is the blob at the call's commit.
        page.click(f'a[href="/call/{ids["fetch"]}"]')
        assert page.url == f"{base}/call/{ids['fetch']}"
        blob = gitrepo.read(root, path, then).decode("utf-8")
        assert page.locator("#returned-text").text_content() == blob
        # A permalink with a clause: the browser itself lands on the clause's anchor.
        page.goto(f"{base}/at/{then}/{path}#ст.1_ч.1")
        assert page.locator(":target").get_attribute("id") == "ст.1_ч.1"
        assert page.locator("#section-text").text_content() == blob
        # A new edition changes the quoted clause; the ok quote's call is compared with today.
        now = new_edition(root)
        page.goto(f"{base}/call/{ids['verify_ok']}")
        assert page.locator("mark#match").text_content() == calls["verify_ok"].structured_content["match"]
        page.click("text=compare with today")
        assert page.locator("table.clauses del").first.text_content() == OLD_WORD
        assert page.locator("table.clauses ins").first.text_content() == NEW_WORD
        verdict = page.locator("strong.recheck").text_content() or ""
        assert verdict.startswith("no longer verbatim today") and "ст. 1 ч. 1" in verdict
        assert now[:12] in page.locator("h1").text_content()
        if os.environ.get("DOCSHELF_SCREENSHOT") == "1":
            page.screenshot(path=str(SCREENSHOT), full_page=True)
        page.goto(f"{base}/call/{ids['verify_bad']}")
        assert page.locator(".beside del").first.text_content() == OLD_WORD


def test_a_browser_logs_in_with_a_token(tmp_path: Path, browser: Any) -> None:
    root, log = build(tmp_path)
    calls_in_a_thread(root, log)
    tokens = tmp_path / "tokens.json"
    token = add_token(tokens, "investigator", "investigator")
    with serving(create_web_app(root, log, tokens_file=tokens)) as base:
        page = browser.new_page()
        page.goto(f"{base}/doc/ПТХ")
        assert page.url.startswith(f"{base}/login")
        page.fill("input[name=token]", token + "x")
        page.click("button[type=submit]")
        assert "not valid" in (page.locator(".warning").text_content() or "")
        page.fill("input[name=token]", token)
        page.click("button[type=submit]")
        assert page.url == f"{base}/doc/%D0%9F%D0%A2%D0%A5" and "investigator" in page.locator("nav").text_content()
        page.click("text=Audit")
        assert page.locator("table.audit tbody tr").count() == len(read_lines(log))


def test_a_client_token_sees_its_own_calls_and_opens_one_by_its_id(tmp_path: Path, browser: Any) -> None:
    root, log = build(tmp_path)
    calls_in_a_thread(root, log)
    ids = relabel_clients(log, ["model-a", "model-b"])
    tokens = tmp_path / "tokens.json"
    token = add_token(tokens, "model-a")  # a client's token: its own calls only
    with serving(create_web_app(root, log, tokens_file=tokens)) as base:
        page = browser.new_page()
        page.goto(f"{base}/")
        page.fill("input[name=token]", token)
        page.click("button[type=submit]")
        rows = page.locator("table.audit tbody tr")
        assert rows.count() == len(ids["model-a"]) and "model-b" not in (
            page.locator("table.audit").text_content() or ""
        )
        page.fill("input[name=id]", ids["model-a"][0])
        page.click("text=Open")
        assert page.url == f"{base}/call/{ids['model-a'][0]}"
        page.goto(f"{base}/call/{ids['model-b'][0]}")
        assert "among your calls" in (page.locator(".warning").text_content() or "")
