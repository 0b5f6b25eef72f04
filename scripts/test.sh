#!/usr/bin/env bash
# Install everything the tests need, then run the whole test suite.
#   system packages: those listed in scripts/system-packages.txt (poppler for PDF checks, a browser for
#   gallery tests), installed with apt-get when missing; Python: cardsmith with its `test` extra.
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

python3 -m pip install -q -e '.[test]'
python3 -m pytest "$@"
