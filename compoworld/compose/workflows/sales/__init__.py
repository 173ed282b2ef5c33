"""Workflows of sales."""
