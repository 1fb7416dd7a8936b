"""Russian words by their dictionary lemma (pymorphy3 with its OpenCorpora dictionary package, offline).

Snowball stems one lemma's forms apart («лимит» → «лим», «лимита» → «лимит»; «норм» ≠ «норматив»), so a
synonym member written in the nominative would miss the inflected word a question uses, and its words
searched in the text would miss the forms the text uses. Two readings fix both, for the synonym
dictionary only (expanding every query word this way was measured and lost: bench/README, «Query expansion»):

* :func:`lemma_keys`: what a word may be the form of, as keys apart from stems («~лимит»); a member matches a
  query word when they share one;
* :func:`form_keys`: the analyzer keys of the common forms of a word's lemma (cases and numbers of a noun or
  adjective; the infinitive, third persons and past of a verb — no imperatives, comparatives or participles), so a
  member that fired is searched in every form the text may say it in.

The dictionary is read from the package on first use (~0.2 s); nothing is downloaded. Without the package
(a broken install) both fall back to the word's own key: matching by stem, as before. The lemmas of the shipped
synonym dictionary's words are shipped too (``data/synonyms-default.lemmas.json``, written by ``python -m
docshelf.text.lemmas``, checked against the analyzer by a test), so a process does not parse its 1,900 words.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from docshelf.text.analyzer import CYRILLIC, tokens, word_key

LEMMA_MARK = "~"  # a lemma key never equals an analyzer key (those have no «~»)
_VERB = frozenset({"INFN", "VERB"})
_SKIPPED = frozenset({"impr", "excl", "incl", "Supr", "Cmp2", "COMP", "PRTF", "PRTS", "GRND", "1per", "2per"})
MAX_FORM_KEYS = 4  # a lemma whose forms stem more ways than this keeps the most common ones


@lru_cache(maxsize=1)
def _analyzer() -> Any:
    try:
        import pymorphy3
    except ImportError:
        return None
    return pymorphy3.MorphAnalyzer()


def available() -> bool:
    """Whether the morphological dictionary is installed (it is a core dependency)."""
    return _analyzer() is not None


SHIPPED = "synonyms-default.lemmas.json"


@lru_cache(maxsize=1)
def _shipped() -> dict[str, list[str]]:
    path = resources.files("docshelf.data") / SHIPPED
    table: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return table


def _lemmas(word: str) -> list[str]:
    morph = _analyzer()
    return [] if morph is None else sorted({p.normal_form.replace("ё", "е") for p in morph.parse(word)})


@lru_cache(maxsize=100_000)
def lemma_keys(word: str) -> frozenset[str]:
    """The lemmas a normalized Russian word may be a form of, marked with :data:`LEMMA_MARK`; empty otherwise."""
    if not CYRILLIC.fullmatch(word) or len(word) <= 3:
        return frozenset()
    known = _shipped().get(word)
    return frozenset(LEMMA_MARK + lemma for lemma in (known if known is not None else _lemmas(word)))


def default_table() -> dict[str, list[str]]:
    """The lemmas of every Russian content word of the shipped synonym dictionary, as the analyzer reads them."""
    from docshelf.text.synonyms import default_dictionary  # the dictionary's module uses this one

    words = {
        t.word
        for canon, variants in default_dictionary().items()
        for text in (canon, *variants)
        for t in tokens(text)
        if t.kind == "word" and CYRILLIC.fullmatch(t.word) and len(t.word) > 3
    }
    return {w: _lemmas(w) for w in sorted(words)}


@lru_cache(maxsize=100_000)
def form_keys(word: str) -> tuple[str, ...]:
    """The word's own key first, then the keys of its lemma's common forms (at most :data:`MAX_FORM_KEYS`)."""
    own = word_key(word)
    morph = _analyzer()
    if morph is None or not CYRILLIC.fullmatch(word) or len(word) <= 3:
        return (own,)
    first = morph.parse(word)[0]
    kind = _kind(first.tag)
    counts: dict[str, int] = {}
    for form in first.lexeme:
        if _kind(form.tag) != kind or _SKIPPED & set(form.tag.grammemes):
            continue
        key = word_key(form.word.replace("ё", "е"))
        counts[key] = counts.get(key, 0) + 1
    others = sorted((k for k in counts if k != own), key=lambda k: (-counts[k], k))
    return (own, *others[: MAX_FORM_KEYS - 1])


def _kind(tag: Any) -> str:
    pos = str(tag.POS)
    return "VERB" if pos in _VERB else pos


if __name__ == "__main__":  # python -m docshelf.text.lemmas: write the shipped table after editing the dictionary
    target = Path(__file__).resolve().parents[1] / "data" / SHIPPED
    rows = [
        f"{json.dumps(w, ensure_ascii=False)}: {json.dumps(ls, ensure_ascii=False)}"
        for w, ls in default_table().items()
    ]
    target.write_text("{\n" + ",\n".join(rows) + "\n}\n", encoding="utf-8")
    print(f"wrote {target}")
