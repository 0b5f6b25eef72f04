"""Schema checks of the bundled sets: `cardsmith.sets._schemaquick` against jsonschema, in one run.

    python benchmarks/schema.py

Prints, for each bundled set, the CPU time of checking set.yaml and every card item against the
package schemas with jsonschema (the baseline) and with the quick check, and their ratio; then
what importing jsonschema costs a fresh process, and which of jsonschema and referencing a
`cardsmith validate` of each set imported (none, when every file is valid). Timings on a shared
machine are noisy: read the ratios, and run it twice.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REPEAT = 5
_PROBE = """import sys
sys.argv = ['cardsmith', 'validate', sys.argv[1]]
from cardsmith.cli import main
try:
    main()
except SystemExit:
    pass
print('loaded:', *(m for m in ('jsonschema', 'referencing') if m in sys.modules), file=sys.stderr)
"""


def _cpu(fn) -> float:
    """CPU seconds of one call of `fn`, the best of REPEAT (the least disturbed by other processes)."""
    best = float("inf")
    for _ in range(REPEAT):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def compare(set_dir: Path) -> tuple[int, float, float]:
    """Items checked, jsonschema's CPU seconds and the quick check's, for one set."""
    from cardsmith.sets import validate
    from cardsmith.sets.loader import load_yaml
    from cardsmith.sets._schemaquick import quick_valid

    sdoc = load_yaml(set_dir / "set.yaml").data
    items = [c for f in validate.card_files(set_dir) for c in load_yaml(f).data.get("cards") or []]
    schemas, item = validate._schemas(), validate._item_schema()
    whole, one = validate.validator("set"), validate._item_validator()

    def slow() -> None:
        assert not any(True for _ in whole.iter_errors(sdoc))
        assert not any(True for c in items for _ in one.iter_errors(c))

    def quick() -> None:
        assert quick_valid(schemas["set.schema.json"], sdoc, resources=schemas)
        assert all(quick_valid(item, c, resources=schemas) for c in items)

    slow()  # jsonschema builds its validators on first use: not counted
    return len(items), _cpu(slow), _cpu(quick)


def import_cost() -> float:
    """CPU seconds a fresh Python spends importing jsonschema (with referencing, attrs, rpds)."""
    code = ("import time; t = time.process_time(); import jsonschema, referencing; "
            "print(time.process_time() - t)")
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(3)]
    return min(runs)


def imported_by_validate(set_dir: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-c", _PROBE, str(set_dir)], capture_output=True, text=True, env=env)
    last = p.stderr.strip().splitlines()[-1]
    return last.split()[1:]


def main() -> None:
    sets = sorted(p for p in (ROOT / "cards").iterdir() if (p / "set.yaml").is_file())
    print(f"{'set':16} {'items':>5} {'jsonschema ms':>14} {'quick ms':>9} {'ratio':>6}  validate imports")
    for d in sets:
        n, slow, quick = compare(d)
        loaded = imported_by_validate(d)
        print(f"{d.name:16} {n:5d} {slow * 1000:14.1f} {quick * 1000:9.1f} {slow / quick:6.1f}x  {', '.join(loaded) or 'neither'}")
    print(f"importing jsonschema + referencing in a fresh process: {import_cost() * 1000:.0f} ms CPU")
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
