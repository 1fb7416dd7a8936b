"""Data files shipped with DocShelf (the default search synonyms)."""
