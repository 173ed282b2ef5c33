"""Prefect flows: thin, one flow per file, only sequencing and fan-out."""
