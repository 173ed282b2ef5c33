"""Rewards: rubric criteria evaluated on a rollout's end state and answer, and CFRR."""
