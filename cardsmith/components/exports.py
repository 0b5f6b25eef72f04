"""Components in the data exports and contact sheets: JSON records, a CSV of boards, cells and
token designs, and a contact-sheet page showing every board and token design."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from cardsmith.base.atomic import atomic_path, write_text
from cardsmith.base.untrusted import csv_cell
from cardsmith.components.base import Components

CSV_COLUMNS = ("component", "id", "of", "name", "grid_or_shape", "player", "copies", "width_mm", "height_mm", "data")


def components_record(comps: Components) -> dict[str, Any]:
    """Players, boards (with every cell) and token kinds (with every design) as JSON data."""
    return {
        "players": {p.id: {"name": p.name, "color": p.color} for p in comps.players.values()},
        "boards": {b.id: {"name": b.name, "grid": b.grid, "orientation": b.orientation, "size_mm": list(b.size),
                          "cell_mm": b.cell_size, "layout": b.layout,
                          "cells": [{"label": c.label, "coord": list(c.coord), "x_mm": round(c.x, 3), "y_mm": round(c.y, 3),
                                     **({"data": dict(c.data)} if c.data else {})} for c in b.cells]}
                   for b in comps.boards.values()},
        "tokens": {k.id: {"name": k.name, "shape": k.shape, "size_mm": list(k.size), "front": k.front, "back": k.back,
                          "faces": [{"id": f.id, "item": f.item, "player": f.player, "copies": f.copies,
                                     **({"data": dict(f.data)} if f.data else {})} for f in k.faces]}
                   for k in comps.tokens.values()},
    }


class _Safe:
    """A DictWriter whose cells a spreadsheet reads as text, never a formula (`csv_cell`)."""

    def __init__(self, writer: csv.DictWriter):
        self.writer = writer

    def writeheader(self) -> None:
        self.writer.writeheader()

    def writerow(self, row: dict) -> None:
        self.writer.writerow({k: csv_cell(v) for k, v in row.items()})


def components_csv(comps: Components) -> str:
    """One row per board, per board cell that has data, and per token design."""
    buf = io.StringIO()
    w = _Safe(csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n"))
    w.writeheader()
    for b in comps.boards.values():
        w.writerow({"component": "board", "id": b.id, "name": b.name, "grid_or_shape": b.grid,
                    "copies": 1, "width_mm": round(b.size[0], 2), "height_mm": round(b.size[1], 2)})
        for c in b.cells:
            if c.data:
                w.writerow({"component": "cell", "id": c.label, "of": b.id, "name": c.data.get("name", ""),
                            "data": json.dumps(dict(c.data), ensure_ascii=False)})
    for k in comps.tokens.values():
        for f in k.faces:
            w.writerow({"component": "token", "id": f.id, "of": k.id, "name": f.data.get("name", k.name),
                        "grid_or_shape": k.shape, "player": f.player or "", "copies": f.copies,
                        "width_mm": round(k.size[0], 2), "height_mm": round(k.size[1], 2),
                        "data": json.dumps(dict(f.data), ensure_ascii=False) if f.data else ""})
    return buf.getvalue()


def export_components_csv(comps: Components, target: Path) -> Path:
    """Write `components_csv` to `target` (UTF-8 with a byte-order mark, like the cards' CSV)."""
    return write_text(target, "\ufeff" + components_csv(comps))


def components_contact_sheet(name: str, manifest: dict[str, Any], src: Path, target: Path, font: Any, small: Any,
                             width: int = 1500) -> Path:
    """One PNG: each board scaled to the page width, then each token design (front and back) labelled."""
    pad, token = 16, 110
    blocks: list[tuple[str, Image.Image]] = []
    for info in manifest["boards"].values():
        im = Image.open(src / info["file"]).convert("RGB")
        k = (width - 2 * pad) / im.width
        blocks.append((f"{info['name']} ({info['trim_mm'][0]:.0f} x {info['trim_mm'][1]:.0f} mm)",
                       im.resize((width - 2 * pad, max(1, round(im.height * k))), Image.Resampling.LANCZOS)))
    for info in manifest["tokens"].values():
        per_row = max(1, (width - 2 * pad) // (2 * token + pad))
        faces = info["faces"]
        rows = -(-len(faces) // per_row)
        strip = Image.new("RGB", (width - 2 * pad, rows * (token + 26)), (245, 245, 242))
        d = ImageDraw.Draw(strip)
        for i, f in enumerate(faces):
            x, y = (i % per_row) * (2 * token + pad), (i // per_row) * (token + 26)
            for j, rel in enumerate([f["front"]] + ([f["back"]] if f.get("back") else [])):
                im = Image.open(src / rel).convert("RGB")
                k = token / max(im.size)
                strip.paste(im.resize((max(1, round(im.width * k)), max(1, round(im.height * k))), Image.Resampling.LANCZOS),
                            (x + j * token, y))
            d.text((x, y + token + 4), f"{f['id']} x{f['copies']}", fill=(25, 25, 30), font=small)
        blocks.append((f"{info['name']} ({info['shape']}, {sum(f['copies'] for f in faces)} tokens)", strip))
    height = 60 + sum(im.height + 40 for _, im in blocks)
    sheet = Image.new("RGB", (width, height), (245, 245, 242))
    d = ImageDraw.Draw(sheet)
    d.text((pad, 14), f"{name} - boards and tokens", fill=(25, 25, 30), font=font)
    y = 60
    for title, im in blocks:
        d.text((pad, y), title, fill=(95, 95, 105), font=small)
        sheet.paste(im, (pad, y + 22))
        y += im.height + 40
    with atomic_path(target) as tmp:
        sheet.save(tmp, "PNG", compress_level=6)
    return target
