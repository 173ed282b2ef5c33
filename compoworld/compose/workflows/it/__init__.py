"""Workflows of it."""
