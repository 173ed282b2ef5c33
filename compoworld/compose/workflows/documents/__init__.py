"""Workflows of documents."""
