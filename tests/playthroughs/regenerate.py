"""Rewrite the golden playthroughs: play each game of `golden.SPECS` with its agents and write its account.

    python tests/playthroughs/regenerate.py [--game SET] [--out DIR]

The games are played by `cardsmith.engine.runner.play_game` (the agents and seeds of `cardsmith play`),
then written by replaying their actions through the game contract (`golden.account`). The sets are
read from the `cards/` folder beside the `cardsmith` package that is imported, so
`PYTHONPATH=OTHER_TREE python tests/playthroughs/regenerate.py --out /tmp/x` writes another tree's
games for comparison. Prints each file written with its number of actions and the seconds it took.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from golden import ARROW, SPECS, Chooser, Mismatch, Spec, account, load  # noqa: E402


def _recorded(actions: list) -> Chooser:
    """A chooser that hands back the actions the agents played, checking each prints as no other."""
    def choose(step: int, seat: int, legal: tuple):
        played_seat, action = actions[step - 1]
        texts = [str(a) for a in legal]
        if played_seat != seat or texts.count(str(action)) != 1 or ARROW in str(action) or "\n" in str(action):
            return Mismatch(f"cannot write action {action} of seat {played_seat}: not uniquely printable here")
        return action
    return choose


def write(root: Path, spec: Spec, out: Path) -> tuple[Path, int, float]:
    from cardsmith.engine.runner import play_game

    started = time.perf_counter()
    game, decks = load(root, spec.game, spec.decks)
    record = play_game(game, decks, spec.agents, spec.seed, max_actions=spec.cap)
    lines = account(game, decks, spec, _recorded(record.actions), len(record.actions))
    if any(isinstance(line, Mismatch) for line in lines):
        raise SystemExit(f"{spec.path}: {lines[-1]}")
    path = out / spec.path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, len(record.actions), time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    import cardsmith

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="only this set's games (a folder name under cards/)")
    parser.add_argument("--out", type=Path, default=HERE, help="where to write (default: tests/playthroughs/)")
    args = parser.parse_args(argv)
    specs = [s for s in SPECS if args.game in (None, s.game)]
    if not specs:
        known = ", ".join(sorted({s.game for s in SPECS}))
        print(f"no golden games for '{args.game}'; games: {known}", file=sys.stderr)
        return 2
    root = Path(cardsmith.__file__).resolve().parent.parent
    print(f"playing with cardsmith from {root}")
    for spec in specs:
        path, n, seconds = write(root, spec, args.out)
        print(f"{path}: {n} actions, {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
