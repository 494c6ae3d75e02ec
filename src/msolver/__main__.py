"""`python -m msolver`: the same as the `msolver` command."""

from __future__ import annotations

import sys

from msolver.app.main import main

if __name__ == "__main__":
    sys.exit(main())
