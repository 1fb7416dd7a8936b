"""What documents say about themselves: the clause grammar, clause tables, editions. Pure data and functions."""
