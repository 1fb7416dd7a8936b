"""A meaning model the operator brings: an ONNX export the suite makes, and embeddings / rerank endpoints on
127.0.0.1, named in ``.docshelf.json``; a missing one is a clear error, and nothing leaves the perimeter."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from test_encoder import LAW, QUESTION
from test_perimeter import contents, empty_home_env, net_log
from test_search import _make_shelf

from docshelf.errors import ModelError
from docshelf.shelf import gitrepo
from docshelf.text import encoder, models, search

DIM = 16
# The toy model knows one thing: checking a newcomer («проверять») is probation («испытание»).
PROBATION = {"проверять", "испытание", "испытания"}


def _vocabulary() -> dict[str, int]:
    words = sorted(set(re.findall(r"\w+", (LAW + " " + QUESTION).lower())))
    return {"[PAD]": 0, "[UNK]": 1, **{w: n for n, w in enumerate(words, start=2)}}


def _table(vocab: dict[str, int]) -> Any:
    rng = np.random.default_rng(7)
    table = rng.normal(0.0, 0.3, (len(vocab), DIM)).astype(np.float32)
    table[0] = 0.0
    for word in PROBATION:
        table[vocab[word]] = 0.0
        table[vocab[word], 0] = 5.0
    return table


def _embed(text: str) -> list[float]:
    """What the endpoint and the ONNX export compute alike: the unit mean of the words' vectors."""
    vocab = _vocabulary()
    table = _table(vocab)
    rows = [table[vocab.get(w, 1)] for w in re.findall(r"\w+", text.lower())] or [table[1]]
    mean = np.mean(rows, axis=0)
    return [float(x) for x in mean / max(float(np.linalg.norm(mean)), 1e-12)]


@pytest.fixture(scope="module")
def onnx_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real ONNX file (an embedding lookup: token states) and a real tokenizer.json, made here."""
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    tokenizers = pytest.importorskip("tokenizers")
    from onnx import TensorProto, helper, numpy_helper

    folder = tmp_path_factory.mktemp("models") / "toy-encoder"
    folder.mkdir()
    vocab = _vocabulary()
    graph = helper.make_graph(
        [helper.make_node("Gather", ["table", "input_ids"], ["last_hidden_state"])],
        "toy",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "tokens", DIM])],
        [numpy_helper.from_array(_table(vocab), "table")],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(folder / "model.onnx"))
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel(vocab, unk_token="[UNK]"))
    tok.normalizer = tokenizers.normalizers.Lowercase()
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    tok.save(str(folder / "tokenizer.json"))
    return folder


class _Endpoints(BaseHTTPRequestHandler):
    calls: ClassVar[list[str]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])).decode("utf-8"))
        self.calls.append(self.path)
        if self.path == "/v1/embeddings":
            answer: Any = {"data": [{"index": i, "embedding": _embed(t)} for i, t in enumerate(body["input"])]}
        elif self.path == "/v1/rerank":
            q = np.array(_embed(body["query"]))
            scored = [
                {"index": i, "relevance_score": float(np.array(_embed(d)) @ q)} for i, d in enumerate(body["documents"])
            ]
            answer = {"results": sorted(scored, key=lambda r: -r["relevance_score"])}
        else:
            self.send_error(404)
            return
        data = json.dumps(answer).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def endpoints() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Endpoints)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Endpoints.calls = []
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def labour(tmp_path: Path) -> Path:
    return _make_shelf(tmp_path / "shelf", [("labour.md", "laws", "ТК", LAW)])


def _name(root: Path, **settings: Any) -> None:
    """Write model settings into the shelf's ``.docshelf.json`` (an operator's edit, not committed)."""
    path = root / ".docshelf.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, **settings}, ensure_ascii=False), encoding="utf-8")
    models._built.cache_clear()


def _first(root: Path) -> tuple[str, str]:
    """The first hit's clause, and what the note says of meaning models («» when they reordered as asked)."""
    result = search.search(root, QUESTION)
    said = [s for s in result.note.split(". ") if "reordered" in s or "vectors" in s]
    return result.hits[0].clause, ". ".join(said)


def test_by_words_alone_the_question_misses_its_article(labour: Path) -> None:
    assert search.search(labour, QUESTION).hits[0].clause == "ст. 1"  # what every model below must fix


def test_an_onnx_export_from_a_local_folder_reranks_search(labour: Path, onnx_model: Path) -> None:
    _name(labour, encoder={"onnx": str(onnx_model)})
    assert encoder.wanted(labour)
    clause, note = _first(labour)
    assert clause == "ст. 1" and "have no vectors yet" in note  # named but not embedded: said, not silent
    done, had = encoder.embed_commit(labour, gitrepo.resolve(labour))
    assert done >= 3 and had == 0
    assert _first(labour) == ("ст. 4", "")
    model = encoder.model_for(labour)
    assert model.name.startswith("onnx:toy-encoder:")
    matrix = model.queries([QUESTION])
    assert matrix.shape == (1, DIM) and np.allclose(matrix[0], _embed(QUESTION), atol=1e-4)  # its own pooling


def test_an_embeddings_endpoint_inside_the_perimeter_reranks_search(labour: Path, endpoints: str) -> None:
    _name(labour, encoder={"url": f"{endpoints}/v1/embeddings", "model": "toy"})
    encoder.embed_commit(labour, gitrepo.resolve(labour))
    assert _first(labour) == ("ст. 4", "")
    assert set(_Endpoints.calls) == {"/v1/embeddings"}
    assert encoder.model_for(labour).name == "http:toy"


def test_a_rerank_endpoint_reorders_search_without_vectors(labour: Path, endpoints: str) -> None:
    _name(labour, reranker={"url": f"{endpoints}/v1/rerank", "model": "toy-reranker"})
    assert _first(labour) == ("ст. 4", "")
    assert _Endpoints.calls == ["/v1/rerank"]
    assert search.search(labour, "ст. 1").hits[0].clause == "ст. 1"  # an id is matched, never sent to be meant


def test_a_missing_model_is_a_clear_error_and_search_says_it_kept_the_words(labour: Path, tmp_path: Path) -> None:
    _name(labour, encoder={"onnx": str(tmp_path / "nowhere")})
    with pytest.raises(ModelError, match=r"lacks model\.onnx, tokenizer\.json"):
        encoder.embed_commit(labour, gitrepo.resolve(labour))
    clause, note = _first(labour)
    assert clause == "ст. 1" and "Not reordered by meaning" in note and "lacks model.onnx" in note


def test_an_endpoint_that_is_down_is_a_clear_error(labour: Path, endpoints: str) -> None:
    _name(labour, encoder={"url": "http://127.0.0.1:9/v1/embeddings"}, reranker={"url": "http://127.0.0.1:9/rerank"})
    with pytest.raises(ModelError, match="did not answer"):
        encoder.embed_commit(labour, gitrepo.resolve(labour))
    clause, note = _first(labour)
    assert clause == "ст. 1" and "Not reordered by the reranker" in note and "did not answer" in note


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ({"encoder": {"path": "x"}}, 'needs "onnx" \\(a folder\\) or "url"'),
        ({"encoder": "models/x"}, "must be an object"),
        ({"reranker": {"url": "ftp://host/x"}}, "http:// or https://"),
        ({"reranker": {"onnx": "x"}}, 'needs "url"'),
    ],
)
def test_a_malformed_model_setting_says_what_to_write(labour: Path, setting: dict[str, Any], said: str) -> None:
    _name(labour, **setting)
    with pytest.raises(ModelError, match=said):
        models.specs(labour)


CHILD = """
import sys
from pathlib import Path
from docshelf.text import encoder, search
from docshelf.shelf import gitrepo
root = Path(sys.argv[1])
encoder.embed_commit(root, gitrepo.resolve(root))
print(search.search(root, sys.argv[2]).hits[0].clause)
"""


def test_the_onnx_encoder_looks_nothing_up_and_writes_nothing_outside(
    labour: Path, onnx_model: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    _name(labour, encoder={"onnx": str(onnx_model)})
    env = empty_home_env(home)
    proc = subprocess.run([sys.executable, "-c", CHILD, str(labour), QUESTION], capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ст. 4"
    assert not net_log(home).exists() and contents(home) == []
