"""Facts about Russian spelling that several stages rely on."""

from __future__ import annotations

# First halves of words Russian writes with a hyphen: a line break after them keeps it. Shared by the
# PDF extractor and text normalization. Not экс/мини/топ: «экс-⏎пертиза», «мини-⏎стерство», «топ-⏎ливо»
# are plain word breaks.
COMPOUND_HEADS = frozenset(
    "интернет веб бизнес онлайн офлайн кибер пресс вице северо юго восточно западно кое "
    "научно технико социально военно финансово организационно информационно программно аппаратно "
    "историко административно".split()
)

# The words that join a list's items, after the «;» or «,» of the one before: «…; and» «2) …», «…, или».
ITEM_JOINS = r"(?:and|or|и|или|либо)"


def name_forms(name: str) -> set[str]:
    """A part's name in the cases a citation puts it in: «п. 1 Требований», «Правилами», «Методики»."""
    n = name.casefold()
    base = n[:-1]
    if n.endswith("ия"):  # «требования» (plural) or «инструкция» (singular)
        return {n, *(base + e for e in ("й", "ям", "ями", "ях", "и", "ю", "ей"))}
    if n.endswith("ие"):  # «положение»
        return {n, *(base + e for e in ("я", "ю", "ем", "и"))}
    if n.endswith("а"):  # «правила» (plural) or «методика» (singular)
        return {n, *(base + e for e in ("", "ам", "ами", "ах", "ы", "и", "е", "у", "ой"))}
    return {n}
