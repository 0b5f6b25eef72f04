"""What every validated set holds of its components, light enough for every validation to import: the
`Components` value (empty for a set that declares none) and the names of the keys and folder that
declare them. The kinds of component (`Player`, `Board`, `TokenKind`...) are in `model`; loading their
classes is a cost only sets with components pay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from cardsmith.sets.model import frozen_map

if TYPE_CHECKING:
    from cardsmith.components.model import Board, Player, TokenKind

COMPONENTS_DIR = "components"  # a set's folder of component files (components/*.yaml)
COMPONENT_KEYS = ("players", "boards", "tokens")  # the keys that declare components (set.yaml, components/*.yaml)


@dataclass(frozen=True)
class Components:
    """Everything of a set beyond its cards."""

    players: Mapping[str, Player] = field(default_factory=frozen_map)
    boards: Mapping[str, Board] = field(default_factory=frozen_map)
    tokens: Mapping[str, TokenKind] = field(default_factory=frozen_map)
    bleed: float = 3.0  # mm round every board and token image

    def __bool__(self) -> bool:
        return bool(self.boards or self.tokens)
