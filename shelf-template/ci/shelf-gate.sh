#!/bin/sh
# The shelf gate on a maintainer's machine, or on a CI system without a definition here (Jenkins,
# TeamCity…): the same three steps as .gitlab-ci.yml and the .github / .gitea workflows.
#   sh ci/shelf-gate.sh        (DocShelf installed, run inside the shelf)
# Exit 0: the shelf is consistent. Exit 1: a problem or drift (the rebuilt files are left in the
# working tree for you to review and commit). Exit 2: uncommitted changes before the gate ran.
set -eu
cd "$(git rev-parse --show-toplevel)"
if [ -n "$(git status --porcelain)" ]; then
  echo "The working tree has uncommitted changes; commit or stash them first, so the gate can see" >&2
  echo "what docshelf rebuild changes." >&2
  exit 2
fi
docshelf check --strict
docshelf rebuild --no-commit
if [ -n "$(git status --porcelain)" ]; then
  echo "docshelf rebuild changed files: generated files differ from what the sources produce."
  git status --porcelain
  git --no-pager diff --stat
  echo "Review and commit the rebuilt files (git add -A && git commit); do not edit generated files by hand."
  exit 1
fi
echo "shelf gate: ok"
