"""Finished games kept in the output folder while a run goes on, so that `--resume` plays only the rest.

A run's store is a folder (`output/<set>/balance/.tasks/`) holding `run.json`, a key made from
everything the games depend on (the set's files, the decks, every game's seed, seats and agents,
the starting position, cardsmith's version), and one `part-<first>-<last>.json` file per finished
chunk of games, each written atomically (a file is either whole or absent). Records are kept without
their action lists: no figure uses them, and `play --log` plays game 0 again from its seed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any, Mapping, Sequence

from cardsmith.base.atomic import write_text
from cardsmith.engine.runner import GameRecord, GameTask, deck_to_data
from cardsmith.base.errors import CardsmithError
from cardsmith.sets.model import Deck

# The GameRecord fields a stored record keeps (every field but the action list and the readable log).
FIELDS = ("index", "seed", "deck_ids", "decks", "agents", "ranks", "end_reason", "turns", "cards_played",
          "first_actor", "capped", "ceiling_hits", "decisions", "think_seconds", "summary")


def record_to_data(r: GameRecord) -> dict[str, Any]:
    """A record as plain JSON data (without its actions)."""
    return {f: getattr(r, f) for f in FIELDS}


def record_from_data(d: Mapping[str, Any]) -> GameRecord:
    """The record `record_to_data` wrote (tuples where the record has tuples)."""
    def tup(x: Any) -> Any:
        return tuple(tup(v) for v in x) if isinstance(x, list) else x

    values: dict[str, Any] = {f: d.get(f) if f == "summary" else tup(d[f]) for f in FIELDS}
    return GameRecord(**values)


def run_key(set_digest: str, decks: Sequence[Deck], tasks: Sequence[GameTask],
            position: Mapping[str, Any] | None) -> str:
    """A digest of everything a run's games depend on: equal keys, equal games."""
    from cardsmith import __version__

    data = {
        "cardsmith": __version__, "set": set_digest, "decks": [deck_to_data(d) for d in decks],
        "tasks": [[t.index, t.seed, list(t.deck_ids), list(t.agents)] for t in tasks], "position": position,
    }
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _ints(value: Any, seats: int | None = None) -> bool:
    return isinstance(value, list) and all(type(v) is int for v in value) and (seats is None or len(value) == seats)


def _bad_record(d: Any, total: int) -> str | None:
    """Why stored data is not a record of this run (a damaged or edited store), or None (issue 32:
    an index of 10**9 or -5 made "301 games" of a 300-game run; a wrong type failed only at the figures)."""
    if not isinstance(d, dict) or any(f not in d for f in FIELDS if f != "summary"):
        return "not a game record"
    index, seats = d["index"], d["deck_ids"]
    if type(index) is not int or not 0 <= index < total:
        return f"index {index!r} is not one of this run's {total} games"
    if not _ints(seats) or not seats:
        return "deck_ids is not a list of seats"
    n = len(seats)
    if not (_ints(d["ranks"], n) and type(d["seed"]) is int and type(d["turns"]) is int and d["turns"] >= 0
            and type(d["first_actor"]) is int and 0 <= d["first_actor"] < n and isinstance(d["capped"], bool)
            and isinstance(d["end_reason"], str) and _strs(d["decks"], n) and _strs(d["agents"], n)
            and isinstance(d["cards_played"], list) and all(_strs(c) for c in d["cards_played"])
            and _ints(d["ceiling_hits"]) and _ints(d["decisions"])
            and isinstance(d["think_seconds"], list) and all(isinstance(v, (int, float)) for v in d["think_seconds"])):
        return "a field has the wrong type or number of seats"
    return None


def _strs(value: Any, seats: int | None = None) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value) and (seats is None or len(value) == seats)


class TaskStore:
    """The finished chunks of one run, in `folder`."""

    def __init__(self, folder: Path, key: str, total: int):
        self.folder, self.key, self.total = Path(folder), key, total

    def start(self, resume: bool) -> list[GameRecord]:
        """Begin the run: with `resume`, the records already finished (checked to be of this run);
        otherwise whatever an earlier run left is cleared."""
        found: list[GameRecord] = []
        if resume and (self.folder / "run.json").is_file():
            found = self._finished()
        else:
            self.clear()
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text(self.folder / "run.json", json.dumps({"key": self.key, "games": self.total}) + "\n")
        return found

    def _finished(self) -> list[GameRecord]:
        try:
            meta = json.loads((self.folder / "run.json").read_text(encoding="utf-8"))
            if meta.get("key") != self.key:
                raise CardsmithError(
                    f"--resume: the finished games in {self.folder} are of another run (the set, decks, agents, "
                    "games, seed or cardsmith version differ)",
                    hint="run the same command as before with --resume, or leave --resume out to start over", exit_code=2)
            by_index: dict[int, GameRecord] = {}
            for part in sorted(self.folder.glob("part-*.json")):
                entries = json.loads(part.read_text(encoding="utf-8"))
                for n, d in enumerate(entries if isinstance(entries, list) else [entries]):
                    if why := _bad_record(d, self.total):  # checked now, not after every other game is played
                        raise ValueError(f"{part.name}, entry {n}: {why}")
                    r = record_from_data(d)
                    by_index[r.index] = r
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
            raise CardsmithError(f"--resume: cannot read the finished games in {self.folder}: {e}",
                                 hint=f"delete {self.folder} and run without --resume to start over") from None
        return [by_index[i] for i in sorted(by_index)]

    def save(self, records: Sequence[GameRecord]) -> None:
        """Keep a finished chunk (atomically)."""
        if not records:
            return
        first, last = min(r.index for r in records), max(r.index for r in records)
        data = json.dumps([record_to_data(r) for r in sorted(records, key=lambda r: r.index)], separators=(",", ":"))
        write_text(self.folder / f"part-{first:06d}-{last:06d}.json", data)

    def count(self) -> int:
        """How many games the store holds (for messages after a failure)."""
        try:
            return sum(len(json.loads(p.read_text(encoding="utf-8"))) for p in self.folder.glob("part-*.json"))
        except (OSError, ValueError):
            return 0

    def clear(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        with contextlib.suppress(OSError):  # output/<set>/play/ when .tasks was all it held
            self.folder.parent.rmdir()
