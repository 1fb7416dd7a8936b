"""``docshelf web``: the investigator's desk, read-only web pages over a shelf and its audit log.

Modules:

* ``app``         ``create_web_app``: routes, the Host/Origin fence and the token login
* ``casefile``    each page put together from the record, the shelf and the evidence
* ``evidence``    a call read again at its commit; quotes re-checked at a later commit (data only)
* ``auditindex``  the audit log indexed by byte offset: pages and call ids without full reads
* ``pages``       the pages' HTML; ``html`` escaping, the frame, word diffs, clause marks
* ``command``     the click command ``web`` (Starlette and uvicorn are imported lazily)

A face beside ``docshelf.server``: it reads the library and reuses the server's tokens, audit
schema and fence. It writes nothing, not even to the audit log.
"""
