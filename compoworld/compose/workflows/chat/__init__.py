"""Workflows of chat."""
