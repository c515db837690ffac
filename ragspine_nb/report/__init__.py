"""The shareable report: notebooks executed into self-contained offline HTML."""
