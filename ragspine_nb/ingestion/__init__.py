"""Ingestion: a folder of report files into a workspace (fact store, chunk store, index)."""
