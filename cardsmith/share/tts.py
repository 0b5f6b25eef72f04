"""Tabletop Simulator: deck sheets and a saved object that the game loads as ready-to-play decks.

Facts (see print-and-export.md): a custom deck sheet is a grid of at most 10 x 7 faces, RGB, at most
4096 px on a side; its last slot shows hidden cards unless `BackIsHidden` is true, which cardsmith
sets, so all 70 slots hold cards. `CustomDeck` key N gives cards `CardID = N * 100 + index`
(row-major, from 0). A sheet has one back, so cards are grouped by their back before they are laid
out, and every sheet of a back group shares one back image (a pile spread over two sheets never
shows which card sits alone on the second). Each deck zone (or, without a deck, each card type) becomes one
pile on the table; a pile of one card is a single card object, as Tabletop Simulator saves it.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from PIL import Image, ImageDraw, ImageFont

from cardsmith.base.atomic import atomic_path, write_text
from cardsmith.base.errors import CardsmithError, UsageError
from cardsmith.share.data import keyword_text, ordered_fields
from cardsmith.share.images import RenderedSet, fit_width, trimmed
from cardsmith.sets.model import Card, CardSet, Deck

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS  # BackIsHidden: the back shows hidden cards, so no slot is kept free
MAX_CARD_WIDTH = 750  # faces are never scaled up beyond a poker card at 300 dpi


@dataclass
class Pile:
    name: str
    card_ids: list[str]  # one entry per copy, top of the pile first


@dataclass
class Sheet:
    number: int  # the CustomDeck key
    back: str | None
    card_ids: list[str]  # unique faces, in slot order
    cols: int
    rows: int
    face_file: Path | None = None
    back_file: Path | None = None
    size: tuple[int, int] = (0, 0)

    def card_id(self, card_id: str) -> int:
        return self.number * 100 + self.card_ids.index(card_id)


@dataclass
class TtsExport:
    json_file: Path
    sheets: list[Sheet] = field(default_factory=list)
    piles: list[Pile] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)


def grid(n: int) -> tuple[int, int]:
    """Columns and rows for `n` faces (Tabletop Simulator wants at least 2 x 2)."""
    if not 1 <= n <= PER_SHEET:
        raise ValueError(f"a sheet holds 1 to {PER_SHEET} cards, not {n}")
    cols = min(MAX_COLS, max(2, n))
    rows = max(2, math.ceil(n / cols))
    return cols, rows


def piles_for(cardset: CardSet, deck: Deck | None) -> list[Pile]:
    """One pile per deck zone, or without a deck one pile per card type holding every card's copies."""
    if deck is not None:
        known = cardset.by_id()
        piles = []
        for zone in deck.zones:
            ids = deck.cards(zone)
            unknown = [i for i in ids if i not in known]
            if unknown:
                raise CardsmithError(f"deck {deck.name}: zone {zone} names cards not in {cardset.id}: {', '.join(sorted(set(unknown)))}",
                                     hint="check the deck against the set with cardsmith deck check")
            if ids:
                piles.append(Pile(zone.replace("_", " ").title(), ids))
        if not piles:
            raise CardsmithError(f"deck {deck.name} holds no cards", hint="add cards to the deck file")
        return piles
    from cardsmith.base.limits import check_total

    check_total(sum(max(1, c.copies) for c in cardset.cards), f"a Tabletop Simulator deck of every copy in {cardset.id}",
                "export a deck instead (--deck), or lower `copies:` in the card files")
    piles = []
    for type_id, ctype in cardset.types.items():
        ids = [c.id for c in cardset.cards if c.type == type_id for _ in range(max(1, c.copies))]
        if ids:
            piles.append(Pile(ctype.name, ids))
    if not piles:
        raise CardsmithError(f"set {cardset.id} has no cards to put on a table",
                             hint="add cards to a card file (`cards:` in a .yaml file beside set.yaml)")
    return piles


def plan_sheets(cardset: CardSet, rs: RenderedSet, piles: list[Pile]) -> list[Sheet]:
    """Unique faces grouped by back, at most 70 to a sheet; CustomDeck keys count from 1."""
    by_back: dict[str | None, list[str]] = {}
    for pile in piles:
        for cid in pile.card_ids:
            back = rs.cards[cid].back if cid in rs.cards else None
            faces = by_back.setdefault(back, [])
            if cid not in faces:
                faces.append(cid)
    sheets: list[Sheet] = []
    for back, ids in by_back.items():
        for start in range(0, len(ids), PER_SHEET):
            chunk = ids[start:start + PER_SHEET]
            cols, rows = grid(len(chunk))
            sheets.append(Sheet(len(sheets) + 1, back, chunk, cols, rows))
    return sheets


def face_size(rs: RenderedSet, cols: int, rows: int) -> tuple[int, int]:
    """Pixel size of one face: the rendered trim size, shrunk until the sheet fits in 4096 x 4096."""
    tw, th = rs.trim_mm
    native = round(tw / 25.4 * rs.dpi)
    w = min(native, MAX_CARD_WIDTH, MAX_PX // cols)
    h = round(w * th / tw)
    if h * rows > MAX_PX:
        h = MAX_PX // rows
        w = round(h * tw / th)
    return w, h


def _plain(text: str) -> str:
    """Rules text without cardsmith's rich-text marks (Tabletop Simulator shows plain text)."""
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text, flags=re.S)
    text = re.sub(r"(?<![\w*])\*(?!\s)(.+?)\*", r"\1", text, flags=re.S)
    return re.sub(r"\{([A-Za-z0-9_-]+)\}", r"[\1]", text)


def description(card: Card, cardset: CardSet) -> str:
    """What a player reads when hovering the card: type and race, fields, keywords, rules text."""
    ctype = cardset.types.get(card.type)
    group = cardset.group_of(card)
    lines = [" - ".join(x for x in (ctype.name if ctype else card.type, group.name if group else "") if x)]
    stats = []
    for name, value in ordered_fields(card, cardset).items():
        if value is None or value == "" or value == []:
            continue
        spec = ctype.fields.get(name) if ctype else None
        label = (spec.label if spec and spec.label else name.replace("_", " ").capitalize())
        stats.append(f"{label}: {', '.join(map(str, value)) if isinstance(value, (list, tuple)) else value}")
    if stats:
        lines.append(" | ".join(stats))
    if card.keywords:
        lines.append(", ".join(keyword_text(k.id, k.value, cardset) for k in card.keywords))
    if card.text:
        lines.append(_plain(card.text))
    if card.flavor:  # data, not markup: printed as written ("*casts Fireball*" keeps its asterisks)
        lines.append(card.flavor)
    return "\n".join(lines)


def _plain_back(size: tuple[int, int], cardset: CardSet) -> Image.Image:
    """A back for cards whose set declares none: the set's name on a dark face."""
    im = Image.new("RGB", size, (38, 42, 56))
    d = ImageDraw.Draw(im)
    m = max(4, size[0] // 20)
    d.rounded_rectangle([m, m, size[0] - m, size[1] - m], radius=m, outline=(200, 200, 210), width=max(2, m // 3))
    font = ImageFont.load_default(size=max(12, size[0] // 10))
    box = d.textbbox((0, 0), cardset.name, font=font)
    d.text(((size[0] - box[2]) / 2, (size[1] - box[3]) / 2), cardset.name, fill=(230, 230, 235), font=font)
    return im


def _save_jpeg(im: Image.Image, target: Path) -> Path:
    # Full-resolution chroma keeps small rules text crisp; JPEG keeps a 4096 px sheet small enough to host.
    with atomic_path(target) as tmp:
        im.convert("RGB").save(tmp, "JPEG", quality=90, subsampling=0, optimize=True)
    return target


def draw_sheets(cardset: CardSet, rs: RenderedSet, sheets: list[Sheet], out_dir: Path, name: str) -> list[Path]:
    """Paint each sheet's faces and its back as RGB JPEGs; returns the files written."""
    files: list[Path] = []
    backs_done: dict[str | None, Path] = {}
    # One face size per back group (the largest grid's), so its sheets share one back image.
    group_size: dict[str | None, tuple[int, int]] = {}
    for sheet in sheets:
        size = face_size(rs, sheet.cols, sheet.rows)
        group_size[sheet.back] = min(group_size.get(sheet.back, size), size)
    for sheet in sheets:
        w, h = group_size[sheet.back]
        canvas = Image.new("RGB", (w * sheet.cols, h * sheet.rows), (0, 0, 0))
        for i, cid in enumerate(sheet.card_ids):
            face = trimmed(rs.cards[cid].file, rs).resize((w, h), Image.Resampling.LANCZOS)
            canvas.paste(face, ((i % sheet.cols) * w, (i // sheet.cols) * h))
        sheet.size = canvas.size
        sheet.face_file = _save_jpeg(canvas, out_dir / f"{name}-sheet-{sheet.number}.jpg")
        files.append(sheet.face_file)
        key = sheet.back
        if key not in backs_done:
            src = rs.back_file(sheet.back)
            if src is not None and src.is_file():
                back = trimmed(src, rs).resize((w, h), Image.Resampling.LANCZOS)
            else:
                back = _plain_back((w, h), cardset)
            label = sheet.back or "plain"
            backs_done[key] = _save_jpeg(back, out_dir / f"{name}-back-{label}-{w}.jpg")
            files.append(backs_done[key])
        sheet.back_file = backs_done[key]
    return files


def _url(path: Path | None, base_url: str | None) -> str:
    assert path is not None, "draw_sheets writes a sheet's images before saved_object links them"
    if base_url:
        return base_url.rstrip("/") + "/" + quote(path.name)
    return path.resolve().as_uri()


def _guid(*parts: object) -> str:
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float = 0.0, face_down: bool = True) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def saved_object(cardset: CardSet, piles: list[Pile], sheets: list[Sheet], *, base_url: str | None, title: str) -> dict:
    """The saved-object JSON: one pile per entry of `piles`, side by side on the table."""
    sheet_of = {cid: s for s in sheets for cid in s.card_ids}
    entries = {s.number: {"FaceURL": _url(s.face_file, base_url), "BackURL": _url(s.back_file, base_url),
                          "NumWidth": s.cols, "NumHeight": s.rows, "BackIsHidden": True, "UniqueBack": False,
                          "Type": 0} for s in sheets}
    cards = cardset.by_id()
    states = []
    for p, pile in enumerate(piles):
        x = p * 3.0
        contained = []
        for k, cid in enumerate(pile.card_ids):
            sheet = sheet_of[cid]
            contained.append({
                "Name": "Card", "GUID": _guid(title, pile.name, k, cid), "CardID": sheet.card_id(cid),
                "Nickname": cards[cid].name, "Description": description(cards[cid], cardset),
                "Transform": _transform(x), "Hands": True, "SidewaysCard": False, "HideWhenFaceDown": True,
                "CustomDeck": {str(sheet.number): entries[sheet.number]},
            })
        if len(contained) == 1:
            states.append(contained[0])
            continue
        used = sorted({sheet_of[cid].number for cid in pile.card_ids})
        states.append({
            "Name": "DeckCustom", "GUID": _guid(title, pile.name), "Nickname": pile.name,
            "Description": f"{cardset.name}: {len(pile.card_ids)} cards",
            "Transform": _transform(x), "Hands": False, "SidewaysCard": False, "HideWhenFaceDown": True,
            "DeckIDs": [sheet_of[cid].card_id(cid) for cid in pile.card_ids],
            "CustomDeck": {str(n): entries[n] for n in used},
            "ContainedObjects": contained,
        })
    return {"SaveName": title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": states, "TabStates": {},
            "VersionNumber": ""}


def export_tts(cardset: CardSet, rs: RenderedSet, out_dir: Path, *, deck: Deck | None = None,
               base_url: str | None = None) -> TtsExport:
    """Write deck sheets, backs, a thumbnail and `<name>.json` into `out_dir` (usually output/<set>/tts/)."""
    if base_url is not None and not re.match(r"^https?://[^\s/]+", base_url):
        raise UsageError(f"--base-url must be an http:// or https:// address, not '{base_url}'",
                         hint="the address of the folder where you upload the files, e.g. https://example.org/cards/")
    name = re.sub(r"[^a-z0-9]+", "-", (deck.name if deck else cardset.id).lower()).strip("-") or cardset.id
    title = f"{cardset.name} - {deck.name}" if deck else cardset.name
    piles = piles_for(cardset, deck)
    sheets = plan_sheets(cardset, rs, piles)
    for old in [*out_dir.glob(f"{name}-sheet-*.jpg"), *out_dir.glob(f"{name}-back-*.jpg")]:
        old.unlink()  # a smaller deck must not leave stale sheets that look current
    files = draw_sheets(cardset, rs, sheets, out_dir, name)
    data = saved_object(cardset, piles, sheets, base_url=base_url, title=title)
    json_file = write_text(out_dir / f"{name}.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    # Tabletop Simulator shows `<name>.png` beside a saved object as its thumbnail.
    first = piles[0].card_ids[0]
    thumb = fit_width(trimmed(rs.cards[first].file, rs), 256)
    with atomic_path(out_dir / f"{name}.png") as tmp:
        thumb.save(tmp, "PNG")
    files += [json_file, out_dir / f"{name}.png"]
    return TtsExport(json_file, sheets, piles, files)
