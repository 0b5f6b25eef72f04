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
                for d in json.loads(part.read_text(encoding="utf-8")):
                    r = record_from_data(d)
                    by_index[r.index] = r
        except (OSError, ValueError, KeyError, TypeError) as e:
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
