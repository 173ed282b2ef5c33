"""Workflows of projects."""
