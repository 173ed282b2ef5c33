"""Workflows of engineering."""
