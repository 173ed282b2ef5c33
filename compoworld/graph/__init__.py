"""Semantic types (shared interfaces) and the dependency graph.

`semtypes` gives every parameter and returned field a type; it imports nothing of
compoworld, so the stages before the graph (specs, world) use it too. `depgraph` connects
tools where an output's type matches an input's (DESIGN.md, "Graph, walk, task"). The
random walk over the graph is `compose.walk`.
"""
