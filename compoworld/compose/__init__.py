"""Compositional tasks: walk -> gold calls, rubric and instruction; task verification."""
