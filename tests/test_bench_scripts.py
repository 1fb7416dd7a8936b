"""Every bench script still imports against the library it measures (a renamed or removed name breaks it here)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

SCRIPTS = sorted((REPO / "bench").glob("*.py"))
# Benchmarks of optional engines import them at the top (bench/README.md says which need what).
OPTIONAL = {"numpy", "navec", "natasha", "pymorphy3", "tantivy"}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_the_bench_script_imports(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"bench_{script.stem}"
    spec = importlib.util.spec_from_file_location(name, script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)  # dataclasses look their module up while it loads
    monkeypatch.setattr(sys, "path", list(sys.path))  # the scripts put the checkout on sys.path
    try:
        spec.loader.exec_module(module)  # the scripts run nothing at import: main() is behind __name__
    except ModuleNotFoundError as exc:
        if exc.name not in OPTIONAL:
            raise
        pytest.skip(f"{script.name} needs {exc.name}, an optional benchmark dependency that is not installed")
    assert callable(getattr(module, "main", None)), f"{script.name} has no main()"


# Each script that has a quick mode runs it end to end here, so a figure's script that no longer runs is
# found by the suite, not by the next person to measure (bench/shelf.py had stopped at its ping baseline
# once the metrics began to name only the product's tools). The arguments shrink the input, not the code path.
QUICK = {
    "convert.py": (["--skip-corpus", "--pages", "3", "--no-layout"], "ALL: "),
    "hostile.py": (["--n", "10", "--k", "2"], "old-commit builds:"),
    "shelf.py": (["--sizes", "0", "30", "--repeat", "1", "--fetch-calls", "20"], "flat in shelf size"),
    "web.py": (["--records", "500", "--repeat", "2"], "/doc/<id>"),
    "wire.py": (["--calls", "5"], "fetch calls per mode"),
}


@pytest.mark.parametrize("name", sorted(QUICK))
def test_the_bench_script_runs_on_a_small_input(name: str) -> None:
    args, summary = QUICK[name]
    run = subprocess.run(
        [sys.executable, str(REPO / "bench" / name), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert summary in run.stdout, run.stdout[-3000:]
