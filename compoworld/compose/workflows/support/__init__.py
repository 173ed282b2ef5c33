"""Workflows of support."""
