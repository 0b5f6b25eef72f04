#!/usr/bin/env bash
# Install everything the tests need, type-check cardsmith with mypy, then run the whole test suite.
#   system packages: those listed in scripts/system-packages.txt (poppler for PDF checks, a browser for
#   gallery tests), installed with apt-get when missing; Python: cardsmith with its `test` extra, and
#   its `distributed` extra (Dask), so that the cluster tests run instead of being skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
while read -r pkg _; do
  [[ -z "$pkg" || "$pkg" == \#* ]] && continue
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done < scripts/system-packages.txt
if ((${#missing[@]})); then
  if command -v apt-get >/dev/null; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "installing system packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "warning: install these system packages by hand, or the tests that need them fail: ${missing[*]}" >&2
  fi
fi

# Which Python: the active virtual environment; else the checkout's .venv (README's first command
# makes it); else a new .venv when this Python refuses global installs (PEP 668); else python3.
py=python3
if [ -z "${VIRTUAL_ENV:-}" ]; then
  if [ -x .venv/bin/python ]; then
    py=.venv/bin/python
  elif python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))'; then
    echo "this Python refuses global installs (PEP 668): using a virtual environment in .venv/"
    python3 -m venv .venv
    py=.venv/bin/python
  fi
fi

"$py" -m pip install -q -e '.[test,distributed]'
# Type-check first (settings in pyproject.toml's [tool.mypy]): a type error fails the run as a test would.
"$py" -m mypy cardsmith
# One pytest worker per core this process may use, counted as cardsmith's --jobs counts them (xdist's
# `-n auto` counts physical cores: it may see one on a two-vCPU machine), each given whole test files
# (a file's module fixtures are set up once).
workers=$("$py" -c 'import os; print(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)')
"$py" -m pytest -n "$workers" --dist loadfile "$@"
