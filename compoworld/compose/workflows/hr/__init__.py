"""Workflows of hr."""
