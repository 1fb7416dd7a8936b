"""``docshelf serve``: the shelf as a read-only, pinned, audited MCP server (``mcp>=2.3,<3``).

Modules:

* ``app``       ``create_server(root, pin=…, audit=…)``: tools, resources, instructions
* ``tools``     the thin tool functions over the library (result models: ``docshelf.results``)
* ``pin``       ``Pin``: the commit every request is answered from, swapped atomically
* ``follow``    ``--follow BRANCH``: fetch and re-pin on an interval
* ``audit``     ``AuditLog`` (JSON lines), the audit middleware and ``read_audit``
* ``auth``      hashed bearer tokens (``add_token``) and the SDK ``TokenVerifier`` over them
* ``httpapp``   the Starlette app for streamable HTTP (``/mcp`` + ``/healthz``) and uvicorn
* ``run``       ``serve_shelf``: what ``docshelf serve`` does (checks, pin, audit log, transport)
* ``commands``  the click commands ``serve``, ``token`` and ``audit`` (the SDK is imported lazily)

Only this package imports the MCP SDK. Git is reached only through ``docshelf.shelf.gitrepo``.
"""

# Defaults of ``serve`` options, here rather than in the modules that use them so the command's options
# are known without importing Git, Starlette or the SDK (``docshelf --help`` stays fast).
DEFAULT_INTERVAL_S = 30.0  # how often ``--follow`` looks for a new commit
MAX_STREAMS = 64  # held GET /mcp event streams at once (``streams``)
MAX_STREAMS_PER_CLIENT = 4
STREAM_IDLE_S = 300.0
ROLES = ("client", "investigator", "admin")  # what a token may do (``auth``): `token add --role`
