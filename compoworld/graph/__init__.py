"""The dependency graph: semantic types (shared interfaces), tool graph and random walk.

`semtypes` gives every parameter and returned field a type; tools connect where an
output's type matches an input's (DESIGN.md, "Graph, walk, task").
"""
