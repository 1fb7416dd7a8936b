"""The shelf on disk and in Git: configuration, the one Git door, reading at a commit, writing, checks."""
