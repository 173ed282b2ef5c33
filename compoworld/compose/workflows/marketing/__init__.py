"""Workflows of marketing."""
