"""CompoWorld: compositional environment scaling for general tool-using agents.

The library is plain Python: it never imports prefect, flows, tasks or models, so every
piece is testable alone (DESIGN.md, Layout).
"""

__version__ = "0.1.0"
