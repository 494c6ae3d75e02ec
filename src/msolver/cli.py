"""`python -m msolver.cli` and `msolver.cli:main`: the command layer, at its old name."""

from __future__ import annotations

import sys

from msolver.app.main import build_parser, main

__all__ = ["build_parser", "main"]

if __name__ == "__main__":
    sys.exit(main())
