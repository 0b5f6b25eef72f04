"""A card file read card by card, so that editing one card of a long file re-reads that card only.

`read_card_file(path, items)` returns what `load_yaml` and the card schema give for the whole file
(a `Document` with every position, and the schema's diagnostics), built from the file's pieces:
- the file is split at its top-level `cards:` list, one piece per item (the lines from its `- `
  to the next item), and the rest (`defaults:` and any other key) as the header;
- each item is parsed on its own, as `cards:` followed by blank lines up to the item's first line,
  so lines and columns are those of the whole file, and checked against the schema of one card;
- `items` maps (file, text, first line, index) to an item already read: an unchanged item at the
  same place is taken from it, not parsed or checked again.
`read_unchanged` does the same for a whole file (set.yaml) whose bytes did not change.

The split is only a shortcut: where it could change a meaning it is not taken, and the whole file
is read as before (None is returned). That is so for a file without a block `cards:` list, an
item that refers to an anchor elsewhere (an alias cannot be resolved in the piece alone), and
any piece that does not parse to exactly one item (a quoted text or bracket spanning what looked
like two items leaves one piece unclosed). Errors are then worded by the whole-file reader.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from cardsmith.base.diagnostics import Diagnostic
from cardsmith.sets.loader import MAX_FILE_BYTES, Document, YamlError, parse_yaml

_CARDS = re.compile(r"cards:[ \t]*(#.*)?")
_ITEM = re.compile(r"( *)-( |$)")
Item = tuple[Any, dict, dict, list[Diagnostic]]  # data, positions, key positions (paths from the file's root), schema diagnostics


def read_card_file(path: Path, items: dict[tuple, Item], used: dict[tuple, Item]) -> tuple[Document, list[Diagnostic]] | None:
    """The file's Document and schema diagnostics, from `items` where a card is unchanged (every item
    read is put in `used`); None when the file must be read whole (see the module's docstring)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    if len(raw) > MAX_FILE_BYTES or b"\x00" in raw[:8192] or raw.startswith(b"\xef\xbb\xbf"):
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    split = _split(text)
    if split is None:
        return None
    header_text, pieces = split
    try:
        header = parse_yaml(header_text, path)
        if not isinstance(header.data, dict) or header.data.get("cards") is not None:
            return None
        got = [_item(path, piece, line, i, items, used) for i, (piece, line) in enumerate(pieces)]
    except YamlError:
        return None
    if any(g is None for g in got):
        return None
    return _assemble(path, header, pieces, got)


def read_unchanged(path: Path, items: dict[tuple, Any], used: dict[tuple, Any], schema: str) -> tuple[Document, list[Diagnostic]] | None:
    """A whole YAML file (set.yaml) and its `schema` diagnostics as read last time, if its text is the
    same; else it is read now and kept in `used` (None: the caller reads it and reports its errors)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    key = (str(path), hashlib.sha1(raw).hexdigest(), schema)
    hit = items.get(key)
    if hit is None:
        from cardsmith.sets.loader import load_yaml
        from cardsmith.sets._schema_check import schema_diagnostics

        try:
            doc = load_yaml(path)
        except YamlError:
            return None
        if not isinstance(doc.data, dict):
            return None
        hit = (doc, schema_diagnostics(doc, schema))
    used[key] = hit
    return hit


def _split(text: str) -> tuple[str, list[tuple[str, int]]] | None:
    """The header (item lines blanked, so lines keep their numbers) and each item's text and first
    line (1-based); None without exactly one top-level block `cards:` list."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith("cards:") and _CARDS.fullmatch(line.rstrip("\r\n"))]
    if len(starts) != 1:
        return None
    first = next((i for i in range(starts[0] + 1, len(lines)) if _content(lines[i])), None)
    if first is None or not (m := _ITEM.match(lines[first])):
        return None
    indent = len(m.group(1))
    dash = " " * indent + "-"  # an item of the list: this, then a space or the line's end (as _ITEM matches)
    pieces: list[tuple[str, int]] = []
    end = first
    for i in range(first, len(lines)):  # a few thousand lines: kept to plain string tests
        line = lines[i]
        stripped = line.strip()
        if not stripped or stripped[0] == "#":
            continue
        if line.startswith(dash) and (line[indent + 1:indent + 2] in ("", " ") or line[indent + 1:] == "\n"):
            pieces.append(("", i))
        elif len(line) - len(line.lstrip(" ")) <= indent:
            break  # a key of the file's top level: the list ended
        end = i + 1
    cut = [start for _, start in pieces] + [end]
    items = [("".join(lines[a:b]), a + 1) for a, b in zip(cut, cut[1:])]
    header = lines[:first] + ["\n"] * (end - first) + lines[end:]
    return "".join(header), items


def _content(line: str) -> bool:
    """Whether a line holds more than blanks or a comment."""
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _item(path: Path, piece: str, line: int, index: int, items: dict[tuple, Item], used: dict[tuple, Item]) -> Item | None:
    key = (str(path), hashlib.sha1(piece.encode("utf-8")).hexdigest(), line, index)
    hit = items.get(key)
    if hit is None:
        doc = parse_yaml("cards:\n" + "\n" * (line - 2) + piece, path)
        if not isinstance(doc.data, dict) or list(doc.data) != ["cards"] or not isinstance(doc.data["cards"], list) \
                or len(doc.data["cards"]) != 1:
            return None
        value = doc.data["cards"][0]
        positions = {("cards", index) + p[2:]: v for p, v in doc.positions.items() if p[:2] == ("cards", 0)}
        keys = {("cards", index) + p[2:]: v for p, v in doc.key_positions.items() if p[:2] == ("cards", 0)}
        from cardsmith.sets._schema_check import item_schema_diagnostics

        hit = (value, positions, keys, item_schema_diagnostics(Document(path, None, positions, keys), value, index))
    used[key] = hit
    return hit


def _assemble(path: Path, header: Document, pieces: list[tuple[str, int]], got: list[Any]) -> tuple[Document, list[Diagnostic]]:
    from cardsmith.sets._schema_check import schema_diagnostics

    data = dict(header.data)
    positions = {p: v for p, v in header.positions.items() if p[:1] != ("cards",)}
    keys = dict(header.key_positions)
    data["cards"] = []
    head = Document(path, data, dict(positions), keys)
    diags = schema_diagnostics(head, "card")  # the file's own keys (`cards: []` stands for the items)
    item = _ITEM.match(pieces[0][0])
    assert item is not None  # each piece was cut at a line _ITEM matches
    positions[("cards",)] = (pieces[0][1], item.end(1) + 1)
    for value, item_positions, item_keys, item_diags in got:
        data["cards"].append(value)
        positions.update(item_positions)
        keys.update(item_keys)
        diags.extend(item_diags)
    return Document(path, data, positions, keys), diags
