# Sourced by the set-up scripts: make .venv with msolver and its extras.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${MSOLVER_VENV:-$ROOT/.venv}"
PY="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
fi
STAMP="$VENV/.msolver-installed"
if [ ! -f "$STAMP" ] || [ "$ROOT/pyproject.toml" -nt "$STAMP" ]; then
    "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
    # plot: the --plot tests draw. No pynput extra: on Linux it needs a C
    # compiler (evdev), and these two scripts must run on a desktop without one.
    "$VENV/bin/python" -m pip install -q -e "$ROOT[test,dev,plot]"
    touch "$STAMP"
fi
export PATH="$VENV/bin:$PATH"
cd "$ROOT"
