"""Rollouts: agents (scripted or LLM) acting on a task through the call protocol."""
