"""Reading the text: normalization, search, quote verification, citations, history and diffs."""
