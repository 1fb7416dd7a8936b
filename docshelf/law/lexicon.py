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
