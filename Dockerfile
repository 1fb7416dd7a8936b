# DocShelf as an OCI image: one `docshelf serve` replica per container.
#
#   docker build -t docshelf .
#   docker run --read-only --tmpfs /tmp -v shelf:/shelf -p 8765:8765 \
#       -v $PWD/tokens:/run/docshelf:ro -e DOCSHELF_REMOTE=git://git.corp/shelf.git docshelf
#
# The tokens file's folder is mounted, not the file: `docshelf token add/revoke` replace the file
# atomically (a new inode), which a single-file bind mount would never show the running server.
#
# Runs as an unprivileged user on a read-only root filesystem: it writes only to the shelf volume
# (/shelf: the Git clone and its .docshelf/ search cache) and /tmp; the audit log goes to stdout
# as JSON lines for the container's log collector. No network at build time beyond the package
# index, none at run time beyond the Git remote the replica follows.

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY docshelf ./docshelf
COPY shelf-template ./shelf-template
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /nonexistent --shell /usr/sbin/nologin docshelf \
    # Volumes may be owned by another uid on the host; the container holds nothing but the shelf.
    && git config --system --add safe.directory '*' \
    && mkdir /shelf && chown docshelf:docshelf /shelf
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index /wheels/*.whl && rm -rf /wheels
COPY deploy/docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/tmp \
    DOCSHELF_SHELF=/shelf
USER 10001:10001
WORKDIR /shelf
VOLUME ["/shelf"]
EXPOSE 8765
HEALTHCHECK --interval=30s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=2).status != 200)"]
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD ["serve", "--transport", "http", "--host", "0.0.0.0", "--port", "8765", \
     "--tokens", "/run/docshelf/tokens.json", "--allowed-host", "docshelf.corp.local", \
     "--follow", "main", "--audit-log", "-"]
