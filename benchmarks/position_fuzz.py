"""Mistakes in hand-written positions: how many a game names, and how many still crash it.

    python benchmarks/position_fuzz.py [--games trf transwar ...] [--seed 3] [--steps 40]

For each game, plays `--steps` random actions from a new game (seed `--seed`), takes its position,
and at every entry (the first three items of each list) makes one mistake at a time: the entry left
out, or replaced by text, -7, 99, a list or null. Each mutated position goes to
`game.from_position`; a state that loads then plays 60 random actions. It prints, per game: the
mutations tried, those refused with a PositionError (the wanted answer), those accepted (many
are harmless: a count left out takes its default), and crashes at load or in play, with the first
few crashes. A mid-game position shows more entries: Solar Empires' combat is in the position after
`--seed 0 --steps 94`, an effect's pick after `--seed 0 --steps 119`.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardsmith.decks import load_deck  # noqa: E402
from cardsmith.engine.contract import PositionError  # noqa: E402
from cardsmith.engine.kit import plain_copy  # noqa: E402
from cardsmith.sets.validate import load_set  # noqa: E402

# set folder -> (rules package, decks per seat)
GAMES = {"trf": ("trf", ["dolash", "omnae"]), "transwar": ("transwar", ["standard"] * 2),
         "alien-empires": ("alien_empires", ["standard"] * 3), "rm2k-anime": ("rm2k_anime", ["flame-war", "otaku-convention"]),
         "solar-empires": ("solar_empires", ["terracorp", "chain"])}
GONE = object()
VALUES = (("left out", GONE), ("text", "zzz-nope"), ("-7", -7), ("99", 99), ("a list", [5]), ("null", None))


def entries(d: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(d, dict):
        for k, v in d.items():
            yield from entries(v, path + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d[:3]):
            yield from entries(v, path + (i,))


def mutated(base: dict, path: tuple, value: Any) -> dict | None:
    d = plain_copy(base)
    try:
        at = d
        for p in path[:-1]:
            at = at[p]
        if value is GONE:
            del at[path[-1]]
        else:
            at[path[-1]] = value
    except (KeyError, IndexError, TypeError):
        return None
    return d


def random_play(state: Any, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        seat = state.to_act()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)


def fuzz(folder: str, seed: int, steps: int, show: int) -> None:
    package, names = GAMES[folder]
    rules = importlib.import_module(f"cardsmith.games.{package}").RULES
    cardset = load_set(ROOT / "cards" / folder)
    game = rules.make_game(cardset)
    decks = [load_deck(ROOT / "cards" / folder / "decks" / f"{n}.yaml", cardset) for n in names]
    state = game.new_game(decks, seed)
    random_play(state, random.Random(seed), steps)
    base = state.position()
    counts: Counter[str] = Counter()
    crashes: list[str] = []
    for path in entries(base):
        if not path or path[0] in ("game", "format"):
            continue
        for label, value in VALUES:
            data = mutated(base, path, value)
            if data is None:
                continue
            counts["tried"] += 1
            where = ".".join(map(str, path)) + f" {label}"
            try:
                loaded = game.from_position(data)
            except PositionError:
                counts["refused"] += 1
                continue
            except Exception as e:  # noqa: BLE001 -- counting crashes is the point
                counts["crash at load"] += 1
                crashes.append(f"{where}: {type(e).__name__}: {e}")
                continue
            try:
                random_play(loaded, random.Random(1), 60)
                counts["accepted"] += 1
            except Exception as e:  # noqa: BLE001
                counts["crash in play"] += 1
                crashes.append(f"{where} (in play): {type(e).__name__}: {e}")
    print(f"{folder}: " + ", ".join(f"{k} {counts[k]}" for k in ("tried", "refused", "accepted", "crash at load", "crash in play")))
    for line in crashes[:show]:
        print("   ", line[:160])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--steps", type=int, default=40, help="random actions before the position is taken")
    ap.add_argument("--show", type=int, default=5, help="crashes printed per game")
    args = ap.parse_args()
    for folder in args.games:
        fuzz(folder, args.seed, args.steps, args.show)


if __name__ == "__main__":
    main()
