"""The security gate: competitor names screened on the raw question, before anything runs."""
