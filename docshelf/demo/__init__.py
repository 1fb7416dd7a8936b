"""Built-in demo documents shipped with DocShelf (package data, read via importlib.resources).

* ``zakon-o-testovyh-dannyh.pdf`` — a fictional federal law, regenerate with
  ``python tests/make_demo_pdf.py``;
* ``polozhenie-o-dostupe.md`` — a fictional internal regulation in Markdown;
* ``glossary.txt`` — a short English–Russian glossary.

All texts are invented for DocShelf and describe no real legal act.
"""
