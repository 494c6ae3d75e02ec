"""msolver: a desktop auto-player for native Minesweeper and Flood-It."""

__version__ = "0.1.0"
