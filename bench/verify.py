"""Quote verification: the sweep figures and the latency against fetching the same section, in one run.

Builds a shelf from ../shared/corpus (or from a generated 100-page law when the corpus is absent), then

* the sweep of tests/test_verify_sweep.py: genuine sentences sampled from every document, cited by
  section path and by the innermost clause id of the meta table (in a model's typography) — the ok
  rate, every miss, the known citation-grammar gaps — and their alterations (one word, a number, a
  negation, a modal verb, a splice): false ``ok`` and crashes;
* latency in CPU milliseconds per call for quotes of 8–16 words sampled from clauses (fixed seed):
  genuine (ok), one word changed (not_found), cited to another article, batches of 20; the baseline
  is ``reader.fetch`` of the cited section, measured in the same run.

    python bench/verify.py [--sweep 2000] [--quotes 200]   # --sweep 100000: every sentence of the shelf
    python bench/verify.py --big DIR   # at scale: the shelf `bench/search.py --generated DIR` made (100k sections)

With ``--big DIR`` it measures the big shelf instead: the first scan of its commit (CPU seconds and the
peak memory it adds), then quotes of ten words cut from random sections, cited by section path, genuine
(``ok``) and with one word changed (``not_found``): p50 and p95 CPU ms and the ratio ``not_found`` / ``ok``.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from docshelf.build.pipeline import DocOptions  # noqa: E402
from docshelf.shelf import gitrepo, reader  # noqa: E402
from docshelf.shelf import store as shelf  # noqa: E402
from docshelf.shelf.reader import metas_at  # noqa: E402
from docshelf.text.verify import verify_quote, verify_quotes  # noqa: E402


def build(root: Path) -> Path:
    shelf.init(root)
    corpus = REPO.parent / "shared" / "corpus"
    if corpus.is_dir():
        from conftest import IDS

        files = sorted(p for p in corpus.rglob("*") if p.is_file() and p.name != "SOURCES.md")
        for path in files:
            opts = DocOptions(source="", category=path.parent.parent.name, id=IDS.get(path.name, ""))
            shelf.add(root, [path], opts, progress=lambda _m: None)
    else:
        import pdfgen

        pdf = pdfgen.make_long_regulation_pdf(root.parent / "law.pdf", pages=100)
        shelf.add(root, [pdf], DocOptions(source="", id="888-ФЗ"), progress=lambda _m: None)
    return root


def samples(root: Path, commit: str, n: int) -> list[dict[str, Any]]:
    """Quotes of 8–16 words from clauses of law text (no editorial lines), with their refs."""
    rng = random.Random(20261130)
    clauses = []
    for meta in metas_at(root, commit):
        for s, c in meta.clauses():
            if c.id.startswith(("ст.", "п.", "§", "Требования")) and c.end - c.start > 200:
                clauses.append((meta.id, s.path, c.id, c.start, c.end))
    out = []
    for doc_id, path, cid, a, b in rng.sample(clauses, min(n, len(clauses))):
        text = gitrepo.read(root, path, commit).decode("utf-8")[a:b]
        # A model quotes prose from one paragraph: not headings, notes, tables, code or list bullets.
        paragraphs = [ln.split() for ln in text.splitlines() if not ln.startswith(("#", ">", "|", "```", "- "))]
        paragraphs = [p for p in paragraphs if len(p) >= 16]
        if not paragraphs:
            continue
        words = rng.choice(paragraphs)
        k = rng.randrange(0, len(words) - 15)
        quote = " ".join(words[k : k + rng.randrange(8, 17)])
        out.append({"quote": quote, "ref": f"{doc_id} {cid}", "path": path, "doc": doc_id})
    return out


def timed(fn: Callable[[], Any]) -> float:
    start = time.process_time()
    fn()
    return (time.process_time() - start) * 1000


def report(name: str, values: list[float], base: float, against: str = "fetch") -> None:
    values = sorted(values)
    p50, p95 = statistics.median(values), values[int(0.95 * (len(values) - 1))]
    print(f"{name:44} n={len(values):5d}  p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  p50/{against} {p50 / base:5.2f}")


def run_sweep(root: Path, n: int) -> None:
    from test_verify_sweep import explain, sweep

    start = time.process_time()
    result = sweep(root, n)
    spent = time.process_time() - start
    genuine = sum(result.genuine.values())
    altered = sum(result.altered.values())
    print(f"\nsweep: {result.documents} documents, {result.sentences} sentences {dict(result.languages)}, "
          f"{genuine} genuine checks (path + clause), {altered} altered; {spent:.1f} s CPU")  # fmt: skip
    print(f"genuine ok: {result.genuine['ok']}/{genuine - len(result.gaps)} = {result.ok_rate:.4%} "
          f"(known citation-grammar gaps, unknown_ref, not counted: {len(result.gaps)})")  # fmt: skip
    print(f"misses: {len(result.misses)}; false ok: {len(result.false_ok)} of {altered} altered "
          f"{dict(result.altered)}; crashes: {len(result.crashes)}")  # fmt: skip
    details = explain(result).splitlines()[1:]
    if details:
        print("\n".join(details))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sweep", type=int, default=2000, help="genuine sentences in the sweep (0: no sweep)")
    ap.add_argument("--quotes", type=int, default=200, help="quotes timed against fetch")
    ap.add_argument("--big", type=Path, metavar="DIR", help="the big shelf of `bench/search.py --generated DIR`")
    args = ap.parse_args()
    if args.big:
        at_scale(args.big / "shelf", args.quotes)
        return
    root = build(Path(tempfile.mkdtemp(prefix="docshelf-bench-verify-")) / "shelf")
    commit = gitrepo.resolve(root)
    warm = timed(lambda: verify_quote(root, "слово " * 8, "no-such-document ст. 1"))
    print(f"shelf: {len(metas_at(root, commit))} documents; first shelf-wide scan (cold cache): {warm:.0f} ms CPU")
    if args.quotes:
        latency(root, commit, args.quotes)
    if args.sweep:
        run_sweep(root, args.sweep)


def at_scale(root: Path, n: int) -> None:
    """First scan, ``ok`` and ``not_found`` on a big shelf (path-cited: its generated metas have no clause tables)."""
    from docshelf.text import normstore, verify
    from docshelf.text.sections import read_sections

    commit = gitrepo.resolve(root)
    rows = read_sections(root, commit)
    normstore.store_path(root).unlink(missing_ok=True)  # the cold case first: no scan has stored a text
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    first = timed(lambda: verify.prepare(root, commit)) / 1000
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - peak
    # A server started again on the commit, or a shelf grown by `add` (which stores what it commits): every
    # section's normalized text is in the store.
    verify._shelf_text.cache_clear()
    stored = timed(lambda: verify.prepare(root, commit)) / 1000
    rng = random.Random(3)
    quotes: list[tuple[str, str, str]] = []
    for row in rng.sample(rows, min(len(rows), n * 3)):
        said = " ".join(ln for ln in row.text.splitlines() if ln and not ln.startswith((">", "#", "|"))).split()
        if len(said) >= 14 and len(quotes) < n:
            at = rng.randrange(0, len(said) - 12)
            words = said[at : at + 10]
            changed = [*words[:5], words[5] + "ь", *words[6:]]  # one word altered: a word the text never has
            quotes.append((row.path, " ".join(words), " ".join(changed)))
    ok = [timed(lambda p=p, q=q: verify_quote(root, q, p, at=commit)) for p, q, _c in quotes]
    missing = [timed(lambda p=p, c=c: verify_quote(root, c, p, at=commit)) for p, _q, c in quotes]
    print(f"big shelf: {len(rows)} sections; first scan of the commit {first:.1f} CPU-s (+{grown:.0f} MiB peak)")
    print(f"first scan with the texts stored: {stored:.1f} CPU-s (target <= 5); store {_mib(root):.0f} MiB")
    base = statistics.median(ok)
    report("genuine quote, cited by path -> ok", ok, base, "ok")
    report("one word changed -> not_found", missing, base, "ok")
    print(f"not_found / ok at p50: {statistics.median(missing) / base:.1f} (target <= 5); {len(quotes)} quotes")


def _mib(root: Path) -> float:
    from docshelf.text import normstore

    return sum(p.stat().st_size for p in normstore.store_path(root).parent.glob(normstore.STORE + "*")) / 2**20


def latency(root: Path, commit: str, n: int) -> None:
    quotes = samples(root, commit, n)
    fetch_ms = [timed(lambda q=q: reader.fetch(root, q["path"], at=commit)) for q in quotes]
    base = statistics.median(fetch_ms)
    report("fetch of the cited section", fetch_ms, base)
    ok: list[float] = []
    altered: list[float] = []
    wrong: list[float] = []
    verdicts: dict[str, int] = {}
    for q in quotes:
        ok.append(timed(lambda q=q: verify_quote(root, q["quote"], q["ref"], at=commit)))
        words = q["quote"].split()
        words[len(words) // 2] = "неверно" if any("а" <= c <= "я" for c in q["quote"].lower()) else "wrongly"
        changed = " ".join(words)
        altered.append(timed(lambda w=changed, q=q: verify_quote(root, w, q["ref"], at=commit)))
        verdict = verify_quote(root, changed, q["ref"], at=commit).verdict
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
        wrong.append(timed(lambda q=q: verify_quote(root, q["quote"], f"{q['doc']} ст. 1", at=commit)))
    report("genuine quote, cited clause (ok)", ok, base)
    report("one word changed (not_found)", altered, base)
    report("cited elsewhere (wrong_clause/unknown_ref)", wrong, base)
    batches = [quotes[i : i + 20] for i in range(0, len(quotes) - 19, 20)]
    batch_ms = [
        timed(lambda b=b: verify_quotes(root, [{"quote": q["quote"], "ref": q["ref"]} for q in b], at=commit))
        for b in batches
    ]
    report("batch of 20 genuine quotes", batch_ms, base)
    genuine_ok = sum(verify_quote(root, q["quote"], q["ref"], at=commit).verdict == "ok" for q in quotes)
    print(f"timed quotes verified ok: {genuine_ok}/{len(quotes)}; one word changed: {verdicts}")


if __name__ == "__main__":
    main()
