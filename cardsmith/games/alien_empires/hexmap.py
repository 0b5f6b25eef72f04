"""The starfield: hexes by axial coordinate (q, r), read from the set's hex board; neighbours and distances."""

from __future__ import annotations

from dataclasses import dataclass, field

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True)
class HexMap:
    """Hexes 0..n-1 with their labels ("q,r"), distances between every two and each hex's neighbours."""

    labels: tuple[str, ...]
    dist: tuple[tuple[int, ...], ...]
    adjacent: tuple[tuple[int, ...], ...]
    _within: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    # label -> hex: the rules' hot paths read it directly for labels their own actions carry
    at: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    # hex -> the hex and its neighbours: "is a seat's token in or next to this space?" is then one
    # set operation (the Attack phase asks it of every space an opponent holds)
    close: list[frozenset[int]] = field(default_factory=list, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.at.update((lab, i) for i, lab in enumerate(self.labels))
        self.close.extend(frozenset((h, *near)) for h, near in enumerate(self.adjacent))

    @classmethod
    def from_coords(cls, coords: list[tuple[int, int]]) -> "HexMap":
        labels = tuple(f"{q},{r}" for q, r in coords)
        dist = tuple(tuple((abs(q - a) + abs(r - b) + abs(q + r - a - b)) // 2 for a, b in coords) for q, r in coords)
        index = {c: i for i, c in enumerate(coords)}
        adjacent = tuple(tuple(index[(q + dq, r + dr)] for dq, dr in _STEPS if (q + dq, r + dr) in index) for q, r in coords)
        return cls(labels, dist, adjacent)

    @classmethod
    def hexagon(cls, radius: int) -> "HexMap":
        """A hexagon of hexes `radius` steps from the centre, row by row (as boards list them)."""
        coords = [(q, r) for r in range(-radius, radius + 1) for q in range(-radius, radius + 1) if abs(q + r) <= radius]
        return cls.from_coords(coords)

    def __len__(self) -> int:
        return len(self.labels)

    def within(self, hex_: int, reach: int) -> tuple[int, ...]:
        """Hexes 1..reach steps from `hex_` (not `hex_` itself), in index order."""
        got = self._within.get((hex_, reach))
        if got is None:
            row = self.dist[hex_]
            got = self._within[(hex_, reach)] = tuple(h for h, d in enumerate(row) if 0 < d <= reach)
        return got

    def index(self, label: str) -> int:
        """The hex labelled `label` (ValueError when the map has none)."""
        try:
            return self.at[label]
        except KeyError:
            raise ValueError(f"{label!r} is not a hex of the map") from None
