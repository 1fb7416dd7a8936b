"""``--quality high``: marker-pdf, an optional extra that needs its models in a local cache.

marker downloads a font and layout/OCR models from the internet on first use; DocShelf never
downloads anything at build time, so this converter checks the offline caches first and refuses
with what to install or copy when they are missing.
"""

from __future__ import annotations

import os
from pathlib import Path

from docshelf.errors import MissingDependencyError
from docshelf.model import Block, Converted

_LAYOUT_MODEL = "models--datalab-to--surya_layout2"


def _hf_cache() -> Path:
    home = os.environ.get("HF_HUB_CACHE") or os.path.join(
        os.environ.get("HF_HOME") or os.path.join(Path.home(), ".cache", "huggingface"), "hub"
    )
    return Path(home)


def convert_marker(data: bytes, *, name: str) -> Converted:
    try:
        import marker
    except ImportError as exc:
        raise MissingDependencyError(
            f"{name}: --quality high needs marker-pdf. Install it with `pip install 'docshelf[marker]'` "
            "(with CPU torch: `pip install torch==2.13.0` first), or use --quality fast.",
            source=name,
        ) from exc
    cache = _hf_cache() / _LAYOUT_MODEL
    if not cache.is_dir():
        raise MissingDependencyError(
            f"{name}: marker's models are not in the offline cache ({cache} is missing). On a machine with "
            "internet access run marker once to fill the Hugging Face cache and the datalab font cache, copy "
            "both here, and set HF_HUB_OFFLINE=1; or use --quality fast.",
            source=name,
        )
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import tempfile

    from marker.converters.pdf import PdfConverter
    from marker.models import create_model_dict

    with tempfile.NamedTemporaryFile(suffix=".pdf") as tmp:
        tmp.write(data)
        tmp.flush()
        rendered = PdfConverter(artifact_dict=create_model_dict())(tmp.name)
    from docshelf.convert.pdf_layout import _page_blocks

    blocks: list[Block] = _page_blocks(str(rendered.markdown), 0)
    return Converted(
        blocks=tuple(blocks),
        converter="marker-pdf",
        converter_version=str(getattr(marker, "__version__", "")),
    )
