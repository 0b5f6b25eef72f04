"""What a render makes: its options checked, and each face (a card's front or a back) with its layout and file."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from cardsmith.base.diagnostics import Diagnostic, did_you_mean
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.base.limits import MAX_FACE_PIXELS
from cardsmith.layout.faces import back_layout, back_specs, card_back, card_layout
from cardsmith.sets.model import CardSet

GUIDES_DIR = "guides"  # output/<set>/guides/: renders with --guides
FORMATS = {"png": "png", "jpg": "jpg", "jpeg": "jpg", "webp": "webp"}


@dataclass(frozen=True)
class Face:
    """One image to make: a card's front or a back."""

    kind: str  # "card" or "back"
    id: str
    layout: str
    path: Path

    @functools.cached_property
    def key(self) -> str:  # asked thousands of times a run
        return f"{self.kind}:{self.id}"


def image_format(fmt: str) -> str:
    """The file extension of an image format (png, jpg, webp); a UsageError for any other."""
    ext = FORMATS.get(str(fmt).lower())
    if ext is None:
        raise UsageError(f"unknown image format '{fmt}'", hint="use png, jpg or webp")
    return ext


def check_size(cardset: CardSet, dpi: Any) -> None:
    """A clear error for a dpi out of range, or one that would make a face too large to draw."""
    if not isinstance(dpi, int) or not 30 <= dpi <= 1200:
        raise UsageError(f"dpi {dpi} is out of range", hint="use a dpi between 30 and 1200 (300 for print)")
    w, h = (side + 2 * cardset.bleed for side in cardset.card_size)
    pixels = w / 25.4 * dpi * h / 25.4 * dpi
    if pixels > MAX_FACE_PIXELS:
        raise CardsmithError(f"a {w:.0f} x {h:.0f} mm card face (bleed included) at {dpi} dpi is {pixels / 1e6:.0f} million "
                             f"pixels; cardsmith draws at most {MAX_FACE_PIXELS / 1e6:.0f} million a face",
                             hint=f"render at a lower dpi (--dpi {max(30, int(dpi * (MAX_FACE_PIXELS / pixels) ** 0.5))})")


def set_file(cardset: CardSet) -> Path:
    """The file a problem of the set itself (not of one card) is reported in."""
    return Path(cardset.source.file) if cardset.source else Path(cardset.path) / "set.yaml"


def plan_faces(cardset: CardSet, layouts: Any, out_dir: Path, ext: str,
               only: Iterable[str] | None) -> tuple[list[Face], list[Diagnostic]]:
    """The faces to make (every card, or the `only` ids, then the backs they use) and the problems found
    (a back used but not declared)."""
    cards = list(cardset.cards)
    if only:
        wanted = list(dict.fromkeys(only))
        ids = cardset.by_id()
        for cid in wanted:
            if cid not in ids:
                raise UsageError(f"set '{cardset.id}' has no card '{cid}'",
                                 hint=did_you_mean(cid, ids) or "card ids are the `id:` of each card (`cardsmith list SET` shows them)")
        cards = [c for c in cards if c.id in set(wanted)]
    specs = back_specs(cardset)
    faces: list[Face] = []
    diags: list[Diagnostic] = []
    needed_backs: dict[str, None] = {}
    for c in cards:
        faces.append(Face("card", c.id, card_layout(cardset, c, layouts), out_dir / "cards" / f"{c.id}.{ext}"))
        b = card_back(cardset, c)
        if b:
            needed_backs[b] = None
    for b in needed_backs:
        if b not in specs:
            diags.append(Diagnostic("error", set_file(cardset), 1, 1, f"back '{b}' is used by a card but not declared under backs:",
                                    did_you_mean(b, specs) or "declare it under `backs:` in set.yaml"))
            continue
        faces.append(Face("back", b, back_layout(b, specs[b], layouts), out_dir / "backs" / f"{b}.{ext}"))
    return faces, diags
