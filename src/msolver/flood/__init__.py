"""Flood-It: board model and solver (pure), reader and player for sgt-flood.

`core` and `solver` are pure (no screen, no mouse, no files); `vision` turns
pixels into a `FloodBoard`; `play` wires capture, reader, solver and mouse.
"""
