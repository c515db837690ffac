"""Answers as text: headline figures, derivations, citations, templates."""
