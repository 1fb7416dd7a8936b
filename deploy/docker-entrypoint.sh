#!/bin/sh
# Clone the shelf into the empty volume on first start (DOCSHELF_REMOTE), then run `docshelf ARGS`.
set -eu
if [ -n "${DOCSHELF_REMOTE:-}" ] && [ ! -d /shelf/.git ]; then
    git clone --quiet --no-tags -- "$DOCSHELF_REMOTE" /shelf
fi
exec docshelf "$@"
