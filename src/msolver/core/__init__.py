"""The pure core: board model, simulator, solver. No screen, no mouse, no files."""
