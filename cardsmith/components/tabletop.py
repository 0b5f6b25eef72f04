"""Tabletop Simulator: boards as custom boards, tokens as custom tiles (two-sided) or custom tokens.

A token kind with a back becomes `Custom_Tile` objects (Type 0 square, 1 hex, 2 circle; the front
as `ImageURL`, the back as `ImageSecondaryURL`); a kind without a back becomes `Custom_Token`
objects, whose shape Tabletop Simulator cuts from the image's transparency. Each design's copies
sit in a bag named after it. Images are cut to the trim (no bleed) and at most 4096 px a side.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from PIL import Image

from cardsmith.base.atomic import atomic_path, write_text
from cardsmith.components.base import Components
from cardsmith.components.model import TokenKind
from cardsmith.components.drawing import cut_to_shape
from cardsmith.base.errors import UsageError
from cardsmith.share.tts import _guid, _url
from cardsmith.sets.model import CardSet

MAX_PX = 4096
TILE_TYPES = {"square": 0, "hex": 1, "round": 2}
MM_PER_UNIT = 25.4  # a Tabletop Simulator unit is about an inch


@dataclass
class ComponentsTts:
    json_file: Path
    files: list[Path] = field(default_factory=list)
    objects: int = 0


def _trimmed(path: Path, bleed_mm: float, dpi: int) -> Image.Image:
    im: Image.Image = Image.open(path)
    b = round(bleed_mm / 25.4 * dpi)
    im = im.crop((b, b, im.width - b, im.height - b))
    if max(im.size) > MAX_PX:
        k = MAX_PX / max(im.size)
        im = im.resize((max(1, round(im.width * k)), max(1, round(im.height * k))), Image.Resampling.LANCZOS)
    return im


def _save(im: Image.Image, target: Path) -> Path:
    with atomic_path(target) as tmp:
        im.save(tmp, "PNG")
    return target


def _transform(x: float, z: float, scale: float = 1.0) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _token_object(kind: TokenKind, name: str, front: str, back: str | None, guid: str) -> dict[str, Any]:
    size_units = min(kind.size) / MM_PER_UNIT
    image: dict[str, Any] = {"ImageURL": front, "ImageSecondaryURL": back or "", "ImageScalar": 1.0, "WidthScale": 0.0}
    if back:
        image["CustomTile"] = {"Type": TILE_TYPES[kind.shape], "Thickness": 0.1, "Stackable": True, "Stretch": True}
        kind_name = "Custom_Tile"
    else:
        image["CustomToken"] = {"Thickness": 0.1, "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}
        kind_name = "Custom_Token"
    return {"Name": kind_name, "GUID": guid, "Nickname": name, "Description": kind.name,
            "Transform": _transform(0, 0, round(size_units, 4)), "CustomImage": image}


def export_components_tts(cardset: CardSet, comps: Components, manifest: Mapping[str, Any], src: Path, out_dir: Path,
                          *, base_url: str | None = None) -> ComponentsTts:
    """Write trimmed images and `<set>-components.json` (a saved object) into `out_dir`."""
    if base_url is not None and not re.match(r"^https?://[^\s/]+", base_url):
        raise UsageError(f"--base-url must be an http:// or https:// address, not '{base_url}'")
    dpi, bleed = int(manifest["dpi"]), float(manifest["bleed_mm"])
    files: list[Path] = []
    states: list[dict[str, Any]] = []
    x = 0.0
    for bid, info in manifest["boards"].items():
        target = _save(_trimmed(src / info["file"], bleed, dpi).convert("RGB"), out_dir / f"board-{bid}.png")
        files.append(target)
        width_units = float(info["trim_mm"][0]) / MM_PER_UNIT
        states.append({"Name": "Custom_Board", "GUID": _guid(cardset.id, "board", bid), "Nickname": info["name"],
                       "Transform": _transform(x, 0),  # Tabletop Simulator sizes a board by its image; scale it there
                       "CustomImage": {"ImageURL": _url(target, base_url), "ImageSecondaryURL": "", "WidthScale": 0.0}})
        x += width_units + 2
    for kid, info in manifest["tokens"].items():
        kind = comps.tokens[kid]
        for face in info["faces"]:
            front = _trimmed(src / face["front"], bleed, dpi)
            if not face.get("back"):  # Tabletop Simulator cuts a custom token's shape from its transparency
                front = cut_to_shape(front.convert("RGB"), kind, 0.0, dpi, (0, 0, 0, 0))
            ff = _save(front, out_dir / f"token-{face['id']}.png")
            bf = _save(_trimmed(src / face["back"], bleed, dpi).convert("RGB"), out_dir / f"token-{Path(face['back']).stem}.png") \
                if face.get("back") else None
            files += [ff] + ([bf] if bf else [])
            copies = [_token_object(kind, face["name"], _url(ff, base_url), _url(bf, base_url) if bf else None,
                                    _guid(cardset.id, face["id"], n)) for n in range(int(face["copies"]))]
            who = comps.players[face["player"]].name if face.get("player") else ""
            states.append({"Name": "Bag", "GUID": _guid(cardset.id, "bag", face["id"]),
                           "Nickname": f"{face['name']}{' - ' + who if who else ''} ({face['copies']})",
                           "Transform": _transform(x, 0), "ContainedObjects": copies})
            x += 1.5
    data = {"SaveName": f"{cardset.name} - components", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": states, "TabStates": {},
            "VersionNumber": ""}
    json_file = write_text(out_dir / f"{cardset.id}-components.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return ComponentsTts(json_file, files + [json_file], len(states))

