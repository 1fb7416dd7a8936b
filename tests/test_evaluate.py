"""`docshelf eval`: metrics, gold matching and the queries file, on a tiny shelf with scripted engines."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from docshelf.build.pipeline import DocOptions
from docshelf.errors import SearchError
from docshelf.shelf import gitrepo
from docshelf.shelf import store as shelf
from docshelf.text.evaluate import Engine, Ranking, evaluate, load_queries

LAW = """# Закон

## Статья 1. Хранение

Хранение персональных данных осуществляется не дольше, чем этого требуют цели обработки.

## Статья 2. Передача

Трансграничная передача «персональных» данных осуществляется в соответствии с законом.

## Статья 3. Учёт

Учёт машинных носителей ведётся оператором; передача носителей учитывается.
"""


@pytest.fixture(scope="module")
def law(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = shelf.init(tmp_path_factory.mktemp("eval") / "shelf", name="Eval")
    config = json.loads((root / ".docshelf.json").read_text(encoding="utf-8"))
    config["split"]["min_split_chars"] = 0
    (root / ".docshelf.json").write_text(json.dumps(config), encoding="utf-8")
    gitrepo.commit(root, "Split short documents")
    src = root.parent / "law.md"
    src.write_text(LAW, encoding="utf-8")
    shelf.add(root, [src], DocOptions(source="", category="laws", id="1-ФЗ"), progress=lambda _m: None)
    return root


@pytest.fixture(scope="module")
def paths(law: Path) -> dict[str, str]:
    """Article number -> section path."""
    meta = shelf.metas(law)[0]
    return {s.clause.removeprefix("ст. "): s.path for s in meta.sections if s.clause}


def scripted(answers: dict[str, Ranking]) -> Engine:
    return lambda query, _limit: answers[query]


def test_ranks_and_metrics(law: Path, paths: dict[str, str]) -> None:
    queries = [
        {"query": "a", "gold": "не дольше, чем этого требуют цели", "kind": "morph"},
        {"query": "b", "gold": "не дольше, чем этого требуют цели", "kind": "morph"},
        {"query": "c", "gold": 'ТРАНСГРАНИЧНАЯ передача "персональных" данных', "kind": "paraphrase"},  # normalized
        {"query": "d", "gold": "нет такого текста на полке", "kind": "paraphrase"},
    ]
    engine = scripted(
        {
            "a": Ranking([paths["1"], paths["2"]]),
            "b": Ranking([paths["3"], paths["2"], paths["1"]]),
            "c": Ranking([paths["2"]]),
            "d": Ranking([]),
        }
    )
    report = evaluate(law, queries, k=2, engine=engine)
    assert [q.rank for q in report.queries] == [1, 3, 1, None]
    m = report.by_kind["morph"]
    assert (m.n, m.hit_at_1, m.hit_at_k, m.mrr) == (2, 0.5, 0.5, pytest.approx((1 + 1 / 3) / 2))
    assert m.ndcg == pytest.approx((1 + 1 / math.log2(4)) / 2)
    assert report.overall.empty_rate == 0.25
    assert report.queries[3].relevant == 0 and report.queries[3].ndcg == 0.0
    # «d»'s answer is on no section of this shelf: the report names it and scores the other three apart.
    assert report.unreachable == ["d"] and report.reachable is not None
    assert (report.reachable.n, report.reachable.hit_at_1) == (3, pytest.approx(2 / 3))
    table = report.format_table()
    assert "1 of 4 labelled queries have their answer in no section of this shelf" in table and "'d'" in table
    assert "the other 3 queries: hit@1 0.67, hit@2 0.67" in table


def test_a_shelf_holding_every_answer_reports_none_unreachable(law: Path, paths: dict[str, str]) -> None:
    queries = [{"query": "a", "gold": "не дольше, чем этого требуют цели", "kind": "morph"}]
    report = evaluate(law, queries, k=2, engine=scripted({"a": Ranking([paths["1"]])}))
    assert report.unreachable == [] and report.reachable is None
    assert "no section of this shelf" not in report.format_table()


def test_low_confidence_is_scored_against_whether_the_first_hit_is_right(law: Path, paths: dict[str, str]) -> None:
    gold = "не дольше, чем этого требуют цели"  # in section 1
    queries = [{"query": q, "gold": gold} for q in ("right", "right-flagged", "wrong", "wrong-flagged")]
    queries += [{"query": "nothing", "gold": None}, {"query": "nothing-confident", "gold": None}]
    engine = scripted(
        {
            "right": Ranking([paths["1"]]),
            "right-flagged": Ranking([paths["1"]], low_confidence=True),
            "wrong": Ranking([paths["3"], paths["1"]]),
            "wrong-flagged": Ranking([paths["3"]], low_confidence=True),
            "nothing": Ranking([paths["2"]], low_confidence=True),
            "nothing-confident": Ranking([paths["2"]]),
        }
    )
    m = evaluate(law, queries, engine=engine).overall
    assert (m.low_when_right, m.low_when_wrong) == (0.5, 0.5)  # 1 of 2 right flagged; 2 of 4 wrong flagged


def test_gold_path_and_list(law: Path, paths: dict[str, str]) -> None:
    queries = [
        {"query": "p", "gold": paths["3"], "kind": "ident"},
        {"query": "l", "gold": ["Хранение персональных данных", "Учёт машинных носителей"], "kind": "ident"},
        {"query": "x", "gold": "передача", "kind": "plain"},  # a fragment found in two sections
    ]
    engine = scripted(
        {"p": Ranking([paths["3"]]), "l": Ranking([paths["3"], paths["2"], paths["1"]]), "x": Ranking([paths["3"]])}
    )
    report = evaluate(law, queries, engine=engine)
    p, lst, x = report.queries
    assert (p.rank, p.relevant) == (1, 1)
    assert (lst.rank, lst.relevant) == (1, 2)
    assert lst.ndcg == pytest.approx((1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3)))
    assert x.relevant == 2 and x.ndcg == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_unanswerable_queries_succeed_by_abstaining(law: Path) -> None:
    queries = [{"query": q, "gold": None, "kind": "unanswerable"} for q in ("empty", "flagged", "confident")]
    engine = scripted(
        {"empty": Ranking([]), "flagged": Ranking(["x"], low_confidence=True), "confident": Ranking(["x"])}
    )
    report = evaluate(law, queries, engine=engine)
    assert [q.rank for q in report.queries] == [1, 1, None]
    assert report.overall.hit_at_1 == pytest.approx(2 / 3)
    assert "confident" in report.format_table()


def test_docshelf_search_is_the_default_engine(law: Path) -> None:
    queries = [
        {"query": "можно ли передавать данные за рубеж", "gold": "Трансграничная передача", "kind": "paraphrase"},
        {"query": "как долго хранить", "gold": "не дольше, чем этого требуют цели", "kind": "paraphrase"},
        {"query": "ипотека для молодых семей", "gold": None, "kind": "unanswerable"},
    ]
    report = evaluate(law, queries)
    assert report.overall.hit_at_1 == 1.0 and report.commit == gitrepo.resolve(law)
    data = json.loads(json.dumps(report.to_dict(), ensure_ascii=False))
    assert set(data) == {"commit", "k", "overall", "by_kind", "queries", "unreachable", "reachable"}
    table = report.format_table()
    assert "overall" in table and "paraphrase" in table and "unanswerable" in table


def test_load_queries(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"query": "a", "gold": "b", "kind": "k"}\n\n{"query": "c", "gold": null}\n', encoding="utf-8")
    assert [q["query"] for q in load_queries(path)] == ["a", "c"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json\n", "q.jsonl:1: not valid JSON"),
        ('{"gold": "x"}\n', "q.jsonl:1: .*query"),
        ('{"query": "a", "gold": 5}\n', "q.jsonl:1: .*gold"),
        ('{"query": "a", "gold": []}\n', "q.jsonl:1: .*gold"),
        ('{"query": "a", "gold": "x", "kind": 3}\n', "q.jsonl:1: .*kind"),
        ('{"query": "a", "gold": "x"}\n[1]\n', "q.jsonl:2: .*query"),
        ("\n", "no queries"),
    ],
)
def test_bad_queries_file(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SearchError, match=message):
        load_queries(path)


def test_bad_arguments(law: Path) -> None:
    with pytest.raises(SearchError):
        evaluate(law, [{"query": "a", "gold": "b"}], k=0)
    with pytest.raises(SearchError, match="query 1"):
        evaluate(law, [{"query": ""}])
