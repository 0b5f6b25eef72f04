"""Boards, tokens and player colours: plain frozen data, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from cardsmith.sets.model import SourceRef, frozen_map

# The set's `components` value (`Components`) and the names validation asks for are in base.py, which
# imports this module for its types only.

GRIDS = ("hex", "square", "track")
HEX_ORIENTATIONS = ("pointy", "flat")
TRACK_PATHS = ("line", "snake", "perimeter")
TOKEN_SHAPES = ("round", "square", "hex")


@dataclass(frozen=True)
class Player:
    """A player colour declared under `players:` in set.yaml."""

    id: str
    name: str
    color: str


@dataclass(frozen=True)
class Cell:
    """One space of a board, in mm from the board's trim top-left corner (y down, as in layouts).

    `label` is how a designer names it in `cells:` (`C4` on a rectangle, `q,r` on a hexagon of
    hexes, the number on a track); `coord` is its grid coordinate; `points` its outline.
    """

    label: str
    coord: tuple[int, ...]
    x: float
    y: float
    points: tuple[tuple[float, float], ...]
    data: Mapping[str, Any] = field(default_factory=frozen_map)

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        xs = [p[0] for p in self.points]
        ys = [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Board:
    """A board: its grid of cells, its trim size in mm and the layout that draws it."""

    id: str
    name: str
    grid: str  # hex, square or track
    size: tuple[float, float]  # trim width, height in mm
    cells: tuple[Cell, ...]
    layout: str = "board"
    cell_size: float = 25.0  # mm: hex across flats, square side, track space side
    orientation: str = "pointy"
    options: Mapping[str, Any] = field(default_factory=frozen_map)  # the board's own keys for its layout
    source: SourceRef | None = None


@dataclass(frozen=True)
class TokenFace:
    """One token design: a kind, optionally one of its items and one player colour, and how many print."""

    kind: str
    item: str | None
    player: str | None
    copies: int
    data: Mapping[str, Any] = field(default_factory=frozen_map)

    @property
    def id(self) -> str:
        return "-".join(p for p in (self.kind, self.item, self.player) if p)


@dataclass(frozen=True)
class TokenKind:
    """A kind of token: its shape and size, front and back layouts and the faces it prints."""

    id: str
    name: str
    shape: str  # round, square or hex
    size: tuple[float, float]  # trim width, height in mm (a round or hex token: across its width)
    front: str = "token-front"
    back: str | None = "token-back"  # None: single-sided
    faces: tuple[TokenFace, ...] = ()
    options: Mapping[str, Any] = field(default_factory=frozen_map)
    source: SourceRef | None = None

    @property
    def count(self) -> int:
        return sum(f.copies for f in self.faces)
