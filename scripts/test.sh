#!/usr/bin/env bash
# Install everything the tests need, type-check cardsmith with mypy, then run the whole test suite on
# each Python the README promises that this machine has: the default python3, and Python 3.13 when it
# is installed too.
#   system packages: those listed in scripts/system-packages.txt (poppler for PDF checks, a browser for
#   gallery tests), installed with apt-get when missing; Python: cardsmith with its `test` extra, and
#   its `distributed` extra (Dask), so that the cluster tests run instead of being skipped, into each
#   Python's own environment. Arguments go to every pytest run.
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

# The default Python: the active virtual environment; else the checkout's .venv (README's first
# command makes it); else a new .venv when this Python refuses global installs (PEP 668); else python3.
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

# The second Python: 3.13 (the newest cardsmith is tested on), as `python3.13` on PATH or from pyenv, in
# its own .venv-3.13/; none when it is not installed or is the default Python already.
second=3.13
python_at() {  # a command that runs Python $1, if one does (a pyenv shim for a version not selected does not)
  local cand v
  if command -v "python$1" >/dev/null && "python$1" -c 'import sys' 2>/dev/null; then
    echo "python$1"; return
  fi
  if command -v pyenv >/dev/null; then
    v=$(pyenv versions --bare 2>/dev/null | grep -E "^${1//./\\.}(\\.[0-9]+)?\$" | sort -V | tail -n 1 || true)
    cand="$(pyenv root)/versions/$v/bin/python3"
    if [ -n "$v" ] && "$cand" -c 'import sys' 2>/dev/null; then
      echo "$cand"
    fi
  fi
}
version_of() { "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])'; }

# One pytest worker per core this process may use, counted as cardsmith's --jobs counts them (xdist's
# `-n auto` counts physical cores: it may see one on a two-vCPU machine), each given whole test files
# (a file's module fixtures are set up once).
run_suite() {
  echo "== Python $(version_of "$1") ($1): installing cardsmith[test,distributed], mypy, then the tests"
  "$1" -m pip install -q -e '.[test,distributed]' || return 1  # (`set -e` does not reach into a `||`)
  # Type-check first (settings in pyproject.toml's [tool.mypy]): a type error fails the run as a test would.
  "$1" -m mypy cardsmith || return 1
  local workers
  workers=$("$1" -c 'import os; print(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)')
  "$1" -m pytest -n "$workers" --dist loadfile "${@:2}"
}

failed=()
run_suite "$py" "$@" || failed+=("$(version_of "$py")")
if [ "$(version_of "$py")" = "$second" ]; then
  :  # the default Python is 3.13 already
elif py2=$(python_at "$second") && [ -n "$py2" ]; then
  if [ -x ".venv-$second/bin/python" ] || "$py2" -m venv ".venv-$second"; then
    run_suite ".venv-$second/bin/python" "$@" || failed+=("$second")
  else
    echo "warning: Python $second ($py2) cannot make a virtual environment (on Debian: apt install python$second-venv); its run is skipped" >&2
  fi
else
  echo "Python $second is not installed (neither python$second on PATH nor in pyenv): the suite ran on $(version_of "$py") only"
fi
if ((${#failed[@]})); then
  echo "the tests failed on Python ${failed[*]}" >&2
  exit 1
fi
