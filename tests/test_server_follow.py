"""``--follow``: the pin moves to new commits of the branch within the interval; a request never mixes commits."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from server_support import HANG_S, doc_path, git, make_small_shelf, make_version, payload

from docshelf.errors import ShelfError, UnknownCommitError
from docshelf.server.app import create_server
from docshelf.server.follow import Follower
from docshelf.server.pin import Pin
from docshelf.shelf import gitrepo
from docshelf.text import warmup


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return make_small_shelf(tmp_path / "small")


def test_step_follows_the_local_branch_without_a_remote(small: Path) -> None:
    pin = Follower.start_pin(small, "main")
    follower = Follower(small, "main", pin, interval=1.0, log=lambda _m: None)
    assert pin.current == gitrepo.resolve(small) and not follower.step()
    new = make_version(small, "V2")
    assert follower.step() and pin.current == new


def test_a_new_tip_is_prepared_before_it_is_served_and_one_that_cannot_be_is_not_served(small: Path) -> None:
    pin = Follower.start_pin(small, "main")
    seen: list[tuple[str, str]] = []  # (the commit prepared, the commit served while preparing it)

    def prepare(commit: str) -> None:
        seen.append((commit, pin.current))
        warmup.prepare(small, commit)

    follower = Follower(small, "main", pin, interval=1.0, log=lambda _m: None, prepare=prepare)
    old, new = pin.current, make_version(small, "V2")
    assert follower.step() and seen == [(new, old)] and pin.current == new
    (small / "synonyms.json").write_text("{not json", encoding="utf-8")
    gitrepo.commit(small, "A broken synonyms file")
    assert not follower.step() and pin.current == new and follower.failures == 1  # still the last good one


def test_step_fetches_from_the_remote_and_leaves_the_working_tree_alone(tmp_path: Path) -> None:
    upstream = tmp_path / "upstream.git"
    author = make_small_shelf(tmp_path / "author")
    git(tmp_path, "clone", "--quiet", "--bare", str(author), str(upstream))
    git(author, "remote", "add", "origin", str(upstream))
    served = tmp_path / "served"
    git(tmp_path, "clone", "--quiet", str(upstream), str(served))
    head_before = gitrepo.resolve(served, "HEAD")
    messages: list[str] = []
    pin = Follower.start_pin(served, "main")
    follower = Follower(served, "main", pin, interval=1.0, log=messages.append)
    new = make_version(author, "V2")
    git(author, "push", "--quiet", "origin", "main")
    assert follower.step() and pin.current == new and "now serving" in messages[-1]
    # The served clone's branch and files are untouched: only refs/remotes/origin/main moved.
    assert gitrepo.resolve(served, "HEAD") == head_before and git(served, "status", "--porcelain") == ""
    assert "MARKER-V1" in (served / doc_path(served)).read_text(encoding="utf-8")
    git(served, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    assert not follower.step() and follower.failures == 1 and pin.current == new and "failed" in messages[-1]


@pytest.mark.parametrize("branch", ["-x", "--upload-pack=sh", "a..b", "main~1", "HEAD@{1}", "m ain", "x\x00"])
def test_bad_branch_names_are_refused(small: Path, branch: str) -> None:
    with pytest.raises((ShelfError, UnknownCommitError)):
        Follower.start_pin(small, branch)


def test_pin_refuses_option_like_refs(small: Path) -> None:
    with pytest.raises(UnknownCommitError):
        Pin.at(small, "--all")
    with pytest.raises(UnknownCommitError):
        Pin.at(small).resolve("-1")


class CountingFollower(Follower):
    """A follower that numbers its steps and remembers which one first moved the pin."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.started = 0
        self.moved_at: int | None = None

    def step(self) -> bool:
        self.started += 1
        number = self.started
        moved = super().step()
        if moved and self.moved_at is None:
            self.moved_at = number
        return moved


@pytest.mark.anyio
async def test_a_new_commit_is_served_from_the_next_tick(small: Path) -> None:
    """Counted in ticks, not seconds: the first step that starts after the commit serves it."""
    pin = Follower.start_pin(small, "main")
    follower = CountingFollower(small, "main", pin, interval=0.3, log=lambda _m: None)
    async with anyio.create_task_group() as tg, Client(create_server(small, pin=pin, audit=None)) as client:
        tg.start_soon(follower.run)
        first = (await client.call_tool("read_index", {})).structured_content["commit"]
        new = await anyio.to_thread.run_sync(make_version, small, "V2")
        before = follower.started  # steps that began before the commit was complete
        seen, deadline = first, time.monotonic() + HANG_S  # a guard against hanging, not a measure
        while seen != new and follower.started <= before + 3 and time.monotonic() < deadline:
            await anyio.sleep(0.05)
            seen = (await client.call_tool("read_index", {})).structured_content["commit"]
        tg.cancel_scope.cancel()
    assert seen == new
    assert follower.moved_at is not None and follower.moved_at <= before + 1


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_request_never_mixes_commits(small: Path, mode: str) -> None:
    """While the pin flips between two editions every millisecond, each answer is wholly one edition."""
    one = gitrepo.resolve(small)
    two = make_version(small, "V2")
    expect = {one: ("MARKER-V1", "Положение о тестовом хранении"), two: ("MARKER-V2", "Положение (V2)")}
    pin = Pin(small, one)
    stop = threading.Event()

    def flip() -> None:
        for i in range(100_000):  # bounded; stopped by the event long before
            if stop.wait(0.001):
                return
            pin.swap(two if i % 2 else one)

    flipper = threading.Thread(target=flip)
    flipper.start()
    seen = set()
    try:
        async with Client(create_server(small, pin=pin, audit=None), mode=mode) as client:
            for _ in range(40):
                fetch = payload(await client.call_tool("fetch", {"path": doc_path(small)}))
                marker, title = expect[fetch["commit"]]
                assert marker in fetch["text"] and fetch["title"] == title  # section and meta from one commit
                index = payload(await client.call_tool("read_index", {}))
                assert ("edition V2" in index["text"]) == (index["commit"] == two)
                seen |= {fetch["commit"], index["commit"]}
    finally:
        stop.set()
        flipper.join(timeout=HANG_S)
    assert seen == {one, two}
