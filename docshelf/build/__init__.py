"""Pure build stages: clean → structure → split → clause tables → tables of contents. No disk, no Git."""
