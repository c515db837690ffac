"""The ragspine-nb command line (:mod:`ragspine_nb.cli.commands`)."""
