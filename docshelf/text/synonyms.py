"""Search synonyms: a shelf's own ``synonyms.json`` merged with the dictionary shipped with DocShelf.

The shelf file lives at the shelf root and is read from Git at the searched commit, so a search
at an old commit uses that commit's dictionary. Its format::

    {
      "use_default_synonyms": true,
      "трансграничная передача": ["за рубеж", "за границу", "в другие страны"],
      "искусственный интеллект": ["ИИ", "нейросеть"],
      "хранение": ["хранить"]
    }

* Every other key is a canonical term, its value a list of variants; a group works both ways
  (any member finds every other member). Members may be several words.
* ``"use_default_synonyms": false`` switches off the shipped dictionary
  (``docshelf/data/synonyms-default.json``: personal data and information security vocabulary);
  otherwise the shelf's groups extend it, and a shelf group whose canonical term is also a
  default one adds its variants to that group.
* Members are analysed like any text (:mod:`docshelf.analyzer`), so case, ё/е and word forms do
  not matter: a Russian member word matches a query word of the same dictionary lemma
  (:mod:`docshelf.text.lemmas`: «лимит» matches «лимита», which Snowball stems apart), and a member that
  fired is searched in the common forms of its words. A member matches a query when all its content
  words occur in the query within a small window, in any order; in the index its words must stand
  within a small window too (FTS5 ``NEAR``), also in any order. Stopwords inside a member («за рубеж»)
  are kept for that.
* Stemming cannot join derived words (передавать/передача, хранить/хранение); list them here.

Changing synonyms needs no reindex: expansion happens at query time.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from docshelf.errors import SearchError, SectionNotFoundError
from docshelf.shelf import gitrepo
from docshelf.text import lemmas
from docshelf.text.analyzer import Token, is_ref_key, query_tokens, tokens

SHELF_FILE = "synonyms.json"
SWITCH = "use_default_synonyms"
_DIGIT = re.compile(r"\d")
MAX_CONCEPTS = 24  # a 10k-character query must not become a 1,500-term MATCH expression
_WINDOW_SLACK = 1  # extra query words allowed between the words of a matched member


@dataclass(frozen=True)
class Phrase:
    """One member of a group, analysed: every key in order, the content keys (no stopwords), and per content
    word what a query word may be to match it (its key, and its lemmas for a Russian word)."""

    text: str
    seq: tuple[str, ...]
    content: tuple[str, ...]
    matches: tuple[frozenset[str], ...] = ()
    words: tuple[str, ...] = ()  # the normalized word of each key of ``seq`` ("" where it has no forms)

    def spellings(self) -> frozenset[tuple[str, ...]]:
        """``seq`` and the same words in their other common forms, as the text may say them (a few at most)."""
        return _spellings(self.seq, self.words)


MAX_SPELLINGS = 8  # forms of one member searched (a long member's product of forms is cut, its own form kept)


@lru_cache(maxsize=20_000)
def _spellings(seq: tuple[str, ...], words: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    options = [lemmas.form_keys(w) if w else (k,) for k, w in zip(seq, words or ("",) * len(seq), strict=True)]
    out = {seq}
    for combo in itertools.product(*options):
        if len(out) >= MAX_SPELLINGS:
            break
        out.add(combo)
    return frozenset(out)  # cached and shared: never to be changed by a caller


def query_matches(tok: Token) -> frozenset[str]:
    """What a query word offers to a member: its keys and, for a Russian word, its lemmas."""
    return frozenset(tok.alts) | lemmas.lemma_keys(tok.word)


@dataclass(frozen=True)
class Concept:
    """One thing the query asks for, with every way the index may say it.

    Each alternative is one key or several keys that must stand close together (a phrase).
    """

    label: str
    alts: tuple[tuple[str, ...], ...]
    ident: bool  # an identifier or reference: a hit in a title or clause counts extra
    first: int  # position of its first and last query word, for the adjacency bonus
    last: int


def _phrase(text: str) -> Phrase | None:
    toks = tokens(text)
    kept = [t for t in toks if not t.stop] or toks
    if not kept:
        return None
    matches = tuple(frozenset({t.key}) | lemmas.lemma_keys(t.word) for t in kept)
    words = tuple(t.word if t.kind == "word" and not t.stop else "" for t in toks)
    return Phrase(text, tuple(t.key for t in toks), tuple(t.key for t in kept), matches, words)


@dataclass(frozen=True)
class Synonyms:
    """Analysed synonym groups, ready to turn query tokens into concepts."""

    groups: tuple[tuple[Phrase, ...], ...]

    @cached_property
    def _order(self) -> dict[tuple[Phrase, int], int]:
        members = ((p, g) for g, group in enumerate(self.groups) for p in group)
        return {pg: n for n, pg in enumerate(sorted(members, key=lambda pg: -len(pg[0].content)))}

    @cached_property
    def _by_first_key(self) -> dict[str, list[tuple[Phrase, int]]]:
        """Members by their first content word's key and lemmas: a query looks only at members it could match."""
        out: dict[str, list[tuple[Phrase, int]]] = {}
        for pg in self._order:
            for key in pg[0].matches[0]:
                out.setdefault(key, []).append(pg)
        return out

    def concepts(self, toks: list[Token]) -> list[Concept]:
        """The query's concepts: synonym groups it mentions, then each remaining word on its own."""
        toks = toks[: MAX_CONCEPTS * 2]
        owner: dict[int, int] = {}  # query token index -> concept index
        found: list[tuple[list[int], set[tuple[str, ...]]]] = []
        offered = [query_matches(t) for t in toks]
        said = set().union(*offered) if offered else set()
        members = list(dict.fromkeys(pg for key in said for pg in self._by_first_key.get(key, ())))
        # Longest members first (a longer match wins an overlap); the dictionary's order on a tie.
        for phrase, g in sorted(members, key=lambda pg: (-len(pg[0].content), self._order[pg])):
            where = _locate(phrase.matches, offered)
            if where is None:
                continue
            if all(i not in owner for i in where):
                for i in where:
                    owner[i] = len(found)
                found.append((where, set()))
            elif any(i not in owner for i in where) or found[owner[where[0]]][0] != where:
                continue  # overlaps a longer match: the longer one wins
            # Same words as an earlier match (передача: two groups): one concept, both groups' forms.
            found[owner[where[0]]][1].update(s for p in self.groups[g] for s in p.spellings())
        out = [_synonym_concept(toks, where, alts) for where, alts in found]
        out += [_word_concept(toks, i) for i in range(len(toks)) if i not in owner]
        out.sort(key=lambda c: (c.first, c.last))
        unique = list({c.alts: c for c in reversed(out)}.values())[::-1]  # «ИИ и ИИ» is one concept
        return unique[:MAX_CONCEPTS]


def _locate(content: tuple[frozenset[str], ...], offered: list[frozenset[str]]) -> list[int] | None:
    """Query token indices matching every content word of a member, close together, in any order."""
    window = len(content) + _WINDOW_SLACK
    for start, said in enumerate(offered):
        if not content[0] & said:
            continue
        picked = [start]
        for accepted in content[1:]:
            near = [
                i
                for i in range(max(0, start - window), min(len(offered), start + window + 1))
                if i not in picked and accepted & offered[i]
            ]
            if not near:
                break
            picked.append(near[0])
        else:
            if max(picked) - min(picked) < window:
                return sorted(picked)
    return None


def _is_ident(tok: Token) -> bool:
    # Short bare numbers («2 года») are too common in titles to earn the identifier bonus.
    return tok.kind in ("ident", "ref") or (tok.kind == "number" and (len(tok.key) >= 3 or "_" in tok.key))


def names_an_id(concept: Concept) -> bool:
    """Whether the concept names a clause or an act by its id («ст. 19», «УПД.1», «152-ФЗ», «3.2.1», «AC-7»).

    A query naming one is matched, not meant: it keeps its word ranking. A year, a level or a count in a
    sentence («в 2022 году», «IAL2», «3 дня») is an identifier for the bonus of a title saying it, but a word
    for everything else.
    """
    if not concept.ident:
        return False
    # «152-фз», «упд_1», «ст_19»; or a name that carries its number as a word of its own («RFC 8446», «закон 152»)
    return any(is_ref_key(k) or ("_" in k and _DIGIT.search(k)) for alt in concept.alts for k in alt) or any(
        len(alt) > 1 and any(k.isdigit() for k in alt) for alt in concept.alts
    )


def _word_concept(toks: list[Token], i: int) -> Concept:
    tok = toks[i]
    return Concept(tok.word, tuple((a,) for a in tok.alts), _is_ident(tok), i, i)


def _synonym_concept(toks: list[Token], where: list[int], alts: set[tuple[str, ...]]) -> Concept:
    if len(where) == 1:
        # Keep a word's extra forms (a raw acronym, a reference's bare number); its plain form is a member.
        alts |= {(a,) for a in toks[where[0]].alts[1:]}
    label = " ".join(toks[i].word for i in where)
    ordered = tuple(sorted(alts, key=lambda a: (len(a), a)))
    return Concept(label, ordered, any(_is_ident(toks[i]) for i in where), where[0], where[-1])


def default_dictionary() -> dict[str, list[str]]:
    """The dictionary shipped with DocShelf (``docshelf/data/synonyms-default.json``)."""
    text = (resources.files("docshelf.data") / "synonyms-default.json").read_text(encoding="utf-8")
    data: dict[str, list[str]] = json.loads(text)
    return data


def _validate(data: Any, source: str) -> tuple[bool, dict[str, list[str]]]:
    if not isinstance(data, dict):
        raise SearchError(f"{source}: expected a JSON object {{canonical term: [variants…]}}. Fix the file.")
    use_default = data.get(SWITCH, True)
    if not isinstance(use_default, bool):
        raise SearchError(f"{source}: {SWITCH!r} must be true or false.")
    groups: dict[str, list[str]] = {}
    for canon, variants in data.items():
        if canon == SWITCH:
            continue
        if isinstance(variants, str):
            variants = [variants]
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise SearchError(f"{source}: the value of {canon!r} must be a list of strings (its variants).")
        groups[canon] = variants
    return use_default, groups


@lru_cache(maxsize=16)
def parse(shelf_text: str | None, source: str = SHELF_FILE) -> Synonyms:
    """Synonyms from a shelf file's text (``None``: no file) merged with the default dictionary."""
    use_default, own = (True, {}) if shelf_text is None else _validate(_loads(shelf_text, source), source)
    merged: dict[tuple[str, ...], list[str]] = {}
    for canon, variants in [*(default_dictionary().items() if use_default else []), *own.items()]:
        key = tuple(t.key for t in query_tokens(canon))
        merged.setdefault(key, [canon]).extend(variants)
    groups = []
    for members in merged.values():
        phrases = {p.seq: p for p in map(_phrase, members) if p is not None}
        if len(phrases) > 1:
            groups.append(tuple(phrases.values()))
    return Synonyms(tuple(groups))


def dumps(parsed: Synonyms) -> str:
    """The analysed groups as JSON, kept in the search index: a one-shot process reads them instead of analysing
    some three thousand members again (a third of a second)."""
    return json.dumps(
        [
            [[p.text, p.seq, p.content, [sorted(m) for m in p.matches], p.words] for p in group]
            for group in parsed.groups
        ],
        ensure_ascii=False,
    )


@lru_cache(maxsize=4)
def loads(text: str) -> Synonyms:
    """The groups :func:`dumps` kept."""
    return Synonyms(
        tuple(
            tuple(
                Phrase(t, tuple(seq), tuple(content), tuple(map(frozenset, m)), tuple(w)) for t, seq, content, m, w in g
            )
            for g in json.loads(text)
        )
    )


def _loads(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SearchError(f"{source} is not valid JSON ({exc.msg}, line {exc.lineno}). Fix the file.") from exc


def read_shelf_file(root: Path, commit: str) -> str | None:
    """The text of the shelf's ``synonyms.json`` at ``commit``, or ``None`` when it has none."""
    try:
        return gitrepo.read(root, SHELF_FILE, commit).decode("utf-8")
    except SectionNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise SearchError(f"{SHELF_FILE} at {commit[:12]} is not UTF-8 text. Save it as UTF-8.") from exc


# --- concepts as FTS5 query expressions (only quoted keys: user text never reaches MATCH) -------

NEAR_WINDOW = 2  # words allowed between two adjacent query words for the adjacency bonus
PHRASE_GAP = 3  # words allowed per gap inside a phrase: «отзыва субъектом персональных данных согласия»


def _quote(key: str, prefix: bool) -> str:
    star = "*" if prefix and len(key) >= 3 else ""  # "и"* would match half the shelf
    return '"' + key.replace('"', '""') + '"' + star


def _alt_expr(alt: tuple[str, ...], prefix: bool) -> str:
    if len(alt) == 1:
        return _quote(alt[0], prefix)
    return f"NEAR({' '.join(_quote(k, prefix) for k in alt)}, {PHRASE_GAP * (len(alt) - 1)})"


def fts_expr(concept: Concept, prefix: bool = False) -> str:
    """The concept as an FTS5 expression: any of its alternatives (``"key"*`` with ``prefix``)."""
    return "(" + " OR ".join(_alt_expr(a, prefix) for a in concept.alts) + ")"


# --- the same semantics over a stored key string (" k1 k2 k3 "), for reranking a few candidates ---


def _key_re(key: str, prefix: bool) -> str:
    return re.escape(key) + (r"\S*" if prefix and len(key) >= 3 else "")


@lru_cache(maxsize=8192)
def _near_re(left: tuple[str, ...], right: tuple[str, ...], gap: int, prefix: bool) -> re.Pattern[str]:
    """Any of ``left`` and any of ``right`` with at most ``gap`` keys between them, in either order."""
    a = "|".join(_key_re(k, prefix) for k in left)
    b = "|".join(_key_re(k, prefix) for k in right)
    between = rf"(?: \S+){{0,{gap}}} "
    return re.compile(rf" (?:(?:{a}){between}(?:{b})|(?:{b}){between}(?:{a})) ")


def _alt_in(alt: tuple[str, ...], keys: str, prefix: bool) -> bool:
    if not all((f" {k}" if prefix and len(k) >= 3 else f" {k} ") in keys for k in alt):
        return False  # the cheap test first: substring search runs in C
    return all(_near_re((x,), (y,), PHRASE_GAP, prefix).search(keys) for x, y in itertools.pairwise(alt))


def found_in(concept: Concept, keys: str, prefix: bool = False) -> bool:
    """Whether a space-padded key string holds the concept (as :func:`fts_expr` would match it)."""
    return any(_alt_in(alt, keys, prefix) for alt in concept.alts)


def adjacent_in(a: Concept, b: Concept, keys: str, prefix: bool = False) -> bool:
    """Whether one-word forms of ``a`` and ``b`` stand within a few keys of each other."""
    left = tuple(x[0] for x in a.alts if len(x) == 1)
    right = tuple(y[0] for y in b.alts if len(y) == 1)
    return bool(left and right and _near_re(left, right, NEAR_WINDOW, prefix).search(keys))
