#!/usr/bin/env bash
# Formats the whole tree once with the project's formatter (ruff format, [tool.ruff] in pyproject.toml).
#
# Run by the lead, once, after every branch of a round has merged (formatting the tree on a branch
# would conflict with every other branch). It
#   1. removes the `# fmt: skip` markers: the hand-wrapped statements they kept from the formatter
#      take the formatter's layout now (a real hand-aligned table keeps `# fmt: off` / `# fmt: on`);
#   2. applies ruff's safe fixes (import order, unused imports, stale `noqa`, sorted __all__);
#   3. formats every file;
#   4. checks: `ruff check`, `ruff format --check` and `mypy` must report nothing.
# Then run the tests (`python -m pytest -q`) and commit the result as one commit that only formats.
#
# Usage: tools/format_all.sh            (from anywhere; uses ruff and mypy on PATH, or RUFF=/MYPY=)
set -euo pipefail
cd "$(dirname "$0")/.."
RUFF=${RUFF:-ruff}
MYPY=${MYPY:-mypy}

# 1. The markers (always at a line's end, after the code they kept).
{ git grep -lz -e '# fmt: skip$' -- '*.py' || true; } | xargs -0 --no-run-if-empty \
    sed -i -E 's/[[:space:]]*# fmt: skip$//'
# 2. Safe fixes only (no --unsafe-fixes): import order, unused imports, stale noqa, __all__ order.
"$RUFF" check --fix --exit-zero --quiet
# 3. The formatter. 4. The checks; a fix can leave a line the formatter then rewraps, so check after.
"$RUFF" format --quiet
"$RUFF" check
"$RUFF" format --check
"$MYPY"
echo "Formatted; now run the tests (python -m pytest -q) and commit this as one formatting commit."
