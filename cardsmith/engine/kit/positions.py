"""Positions as text: a state's `position()` data written as YAML or JSON, and read back.

A position starts with a header naming the game and the format version; the rest is the game's own.
The engine never opens files: callers read and write the text.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

import yaml

from cardsmith.engine.contract import PositionError

FORMAT = 1


def position_header(game: str, seats: int) -> dict[str, Any]:
    """The keys every position starts with."""
    return {"game": game, "format": FORMAT, "seats": seats}


def dump_position(position: Mapping[str, Any], fmt: str = "yaml") -> str:
    """`position` as YAML (block style, keys in the game's order) or JSON."""
    if fmt == "json":
        return json.dumps(position, indent=2) + "\n"
    return yaml.safe_dump(dict(position), sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)


def parse_position(text: str, game: str | None = None) -> dict[str, Any]:
    """Position data from YAML or JSON text (JSON is YAML); checks the header (and the game name)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise PositionError(f"the position is not valid YAML or JSON{where}") from None
    if not isinstance(data, dict):
        raise PositionError("a position is a mapping that starts with `game:`, `format:` and `seats:`")
    for key in ("game", "format", "seats"):
        if key not in data:
            raise PositionError(f"the position has no `{key}:` entry")
    if data["format"] != FORMAT:
        raise PositionError(f"position format {data['format']!r} is not one this cardsmith reads ({FORMAT})")
    if game is not None and data["game"] != game:
        raise PositionError(f"the position is a {data['game']!r} game, not {game!r}")
    return data


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, scalars; tuples become lists), faster than deepcopy."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_copy(v) for v in value]
    return value
