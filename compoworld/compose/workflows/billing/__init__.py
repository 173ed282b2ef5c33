"""Workflows of billing."""
