"""Workflows of scheduling."""
