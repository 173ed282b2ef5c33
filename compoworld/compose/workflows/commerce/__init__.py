"""Workflows of commerce."""
