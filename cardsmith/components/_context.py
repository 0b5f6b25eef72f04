"""What board and token layouts see: plain data built from the component model (no I/O)."""

from __future__ import annotations

import math
from typing import Any

from cardsmith.components.geometry import hex_outline
from cardsmith.components.model import Board, Cell, Player, TokenFace, TokenKind

BOARD_DEFAULTS = {"background": "#f3efe3", "coordinates": False}


def _r(v: float) -> float:
    return round(v, 3)


def cell_context(board: Board, cell: Cell) -> dict[str, Any]:
    """A cell for layouts: label, coord, centre `x`, `y`, outline `points`, boxes, and its data keys.

    `box` bounds the outline; `inner` is a box well inside it (for a name), `top` a strip near its
    top (for the coordinate label). All in mm, as numbers.
    """
    c = board.cell_size
    x0, y0, x1, y1 = cell.bbox
    data = {str(k): v for k, v in cell.data.items()}
    out: dict[str, Any] = {
        "fill": None, "name": None, "text": None, "icon": None, **data,
        "label": cell.label, "coord": list(cell.coord), "x": _r(cell.x), "y": _r(cell.y),
        "points": [[_r(px), _r(py)] for px, py in cell.points],
        "box": [_r(x0), _r(y0), _r(x1), _r(y1)],
        "inner": [_r(cell.x - 0.42 * c), _r(cell.y - 0.22 * c), _r(cell.x + 0.42 * c), _r(cell.y + 0.22 * c)],
        "top": [_r(cell.x - 0.36 * c), _r(cell.y - 0.44 * c), _r(cell.x + 0.36 * c), _r(cell.y - 0.25 * c)],
        "bottom": [_r(cell.x - 0.42 * c), _r(cell.y + 0.2 * c), _r(cell.x + 0.42 * c), _r(cell.y + 0.42 * c)],
    }
    return out


def board_context(board: Board) -> dict[str, Any]:
    """`board` as a layout sees it: its settings from set.yaml and its `cells`."""
    out: dict[str, Any] = {**BOARD_DEFAULTS, **{str(k): v for k, v in board.options.items()}}
    out.update({
        "id": board.id, "name": board.name, "grid": board.grid, "orientation": board.orientation,
        "width_mm": _r(board.size[0]), "height_mm": _r(board.size[1]), "cell_mm": board.cell_size,
        "cells": [cell_context(board, c) for c in board.cells],
    })
    return out


def player_context(player: Player | None) -> dict[str, Any] | None:
    return None if player is None else {"id": player.id, "name": player.name, "color": player.color}


def token_context(kind: TokenKind, face: TokenFace | None, player: Player | None, side: str) -> dict[str, Any]:
    """`token` as a layout sees it. A back sees no item (so one back serves every item of a kind
    and player colour): `item` is None there and `label` the kind's name."""
    w, h = kind.size
    opts = {str(k): v for k, v in kind.options.items()}
    item = dict(face.data) if face is not None and side == "front" and face.item else {}
    orientation = str(opts.get("orientation") or "pointy")
    outline = hex_outline(w, h, orientation) if kind.shape == "hex" else None
    inset = 3.0  # mm: a frame line this far inside the cut (the print rules keep thin lines 3 mm from the trim)
    inner = None
    if outline is not None:
        cx, cy = w / 2, h / 2
        k = 1 - inset / (min(w, h) / 2)
        inner = [[_r(cx + (x - cx) * k), _r(cy + (y - cy) * k)] for x, y in outline]
    out: dict[str, Any] = {"color": None, "label": None, **opts, **{str(k): v for k, v in item.items()}}
    out.update({
        "kind": kind.id, "kind_name": kind.name, "shape": kind.shape, "orientation": orientation,
        "width_mm": _r(w), "height_mm": _r(h), "side": side,
        "item": item.get("id"), "name": str(item.get("name") or kind.name),
        "copies": face.copies if face is not None else None,
        "outline": [[_r(x), _r(y)] for x, y in outline] if outline else None, "inner_outline": inner,
        "diameter_mm": _r(min(w, h)) if kind.shape == "round" else None,
    })
    if not out.get("label"):
        out["label"] = out["name"]
    if player is not None and not out.get("color"):
        out["color"] = player.color
    out["color"] = out["color"] or "#555555"
    return out


def shape_mask_points(kind: TokenKind, bleed: float, steps: int = 0) -> list[tuple[float, float]]:
    """The token's cut outline grown by `bleed`, in mm from the image's top-left (trim + bleed).

    Round tokens give a circle approximated by `steps` points (default one per degree)."""
    w, h = kind.size
    cx, cy = w / 2 + bleed, h / 2 + bleed
    if kind.shape == "round":
        r = min(w, h) / 2 + bleed
        n = steps or 360
        return [(cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n)) for i in range(n)]
    if kind.shape == "hex":
        orientation = str(kind.options.get("orientation") or "pointy")
        k = (min(w, h) / 2 + bleed) / (min(w, h) / 2)
        return [(cx + (x - w / 2) * k, cy + (y - h / 2) * k) for x, y in hex_outline(w, h, orientation)]
    return [(0, 0), (w + 2 * bleed, 0), (w + 2 * bleed, h + 2 * bleed), (0, h + 2 * bleed)]
