"""Workflows of collaboration."""
