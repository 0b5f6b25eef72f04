"""Read and check a set's `players:`, `boards:` and `tokens:` (from set.yaml and components/*.yaml).

The JSON Schema (`schemas/components.schema.json`) catches wrong types and values; this module
checks what a schema cannot: grid settings that go together, cell labels the grid has, player
colours that exist, tokens that fit the paper. Every problem is a `Diagnostic` at its file:line.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable, Iterable

from cardsmith.components import geometry
from cardsmith.components.base import COMPONENTS_DIR, Components
from cardsmith.components.model import Board, Cell, Player, TokenFace, TokenKind
from cardsmith.base.diagnostics import Diagnostic, did_you_mean
from cardsmith.sets.loader import Document
from cardsmith.sets.model import SourceRef, frozen_map
from cardsmith.sets.lengths import LengthError, parse_length_mm

MAX_SIDE, MAX_RADIUS = 200, 60  # cells a side and a hexagon's radius, as components.schema.json bounds them
MAX_BOARD_MM = 2000.0  # a plotter's roll; past this a 300 dpi image no longer fits in memory
PRINT_MARGIN = 5.0  # mm a token sheet keeps free at every page edge (the sheets' default margin)
DEFAULT_PAPERS = ("a4", "letter")  # what `cardsmith build` prints on when the set names no paper

Report = Callable[[Document, tuple, str, "str | None"], None]


def component_files(set_dir: Path) -> list[Path]:
    """YAML files under the set's components/ folder, in name order."""
    folder = Path(set_dir) / COMPONENTS_DIR
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def check_components(docs: Iterable[Document], bleed: float, paper: Any = None) -> tuple[Components, list[Diagnostic]]:
    """The components declared across `docs` (set.yaml first) and every problem found in them.

    `paper` is the set's `print.paper` (a name or size) when it has one; tokens must fit it, or
    both A4 and Letter when it is not given.
    """
    diags: list[Diagnostic] = []

    def report(doc: Document, path: tuple, message: str, hint: str | None = None) -> None:
        line, col = doc.position(path)
        diags.append(Diagnostic("error", doc.path, line, col, message, hint))

    docs = [d for d in docs if isinstance(d.data, dict)]
    players: dict[str, Player] = {}
    for doc in docs:
        for pid, p in _items(doc.data.get("players")):
            if isinstance(p, dict) and isinstance(p.get("color"), str):
                if pid in players:
                    report(doc, ("players", pid), f"player colour '{pid}' is declared twice", "keep one of them")
                players[pid] = Player(pid, str(p.get("name") or pid.replace("-", " ").title()), p["color"])
    boards: dict[str, Board] = {}
    tokens: dict[str, TokenKind] = {}
    papers = _papers(paper)
    for doc in docs:
        for bid, spec in _items(doc.data.get("boards")):
            if not isinstance(spec, dict):
                continue
            if bid in boards:
                report(doc, ("boards", bid), f"board '{bid}' is declared twice", "give each board its own id")
                continue
            board = _board(doc, bid, spec, report)
            if board is not None:
                boards[bid] = board
        for tid, spec in _items(doc.data.get("tokens")):
            if not isinstance(spec, dict):
                continue
            if tid in tokens:
                report(doc, ("tokens", tid), f"token kind '{tid}' is declared twice", "give each kind its own id")
                continue
            kind = _token(doc, tid, spec, players, bleed, papers, report)
            if kind is not None:
                tokens[tid] = kind
    _token_total(docs, tokens, report)
    comps = Components(frozen_map(players), frozen_map(boards), frozen_map(tokens), bleed)
    return comps, diags


def _token_total(docs: list[Document], tokens: dict[str, TokenKind], report: Report) -> None:
    """Tokens come under the print limit cards do (issue 32: 999 copies x 5,000 items laid out for minutes)."""
    from cardsmith.base.limits import MAX_PRINTED

    total = sum(f.copies for k in tokens.values() for f in k.faces)
    if total > MAX_PRINTED:
        doc = next(d for d in docs if isinstance(d.data.get("tokens"), dict))
        report(doc, ("tokens",), f"the tokens come to {total:,} pieces; cardsmith lays out at most {MAX_PRINTED:,} at once",
               "lower `copies:` or the number of items")


def _items(value: Any) -> Iterable[tuple[str, Any]]:
    return value.items() if isinstance(value, dict) else ()


def _length(value: Any, default: float) -> float | None:
    """`value` in mm (`default` when it is not given), or None when it is no length."""
    if value is None:
        return default
    try:
        return parse_length_mm(value)
    except (LengthError, TypeError):
        return None  # the schema's length pattern reports it


def _layout_name(doc: Document, path: tuple, value: Any, default: str, report: Report) -> str:
    name = str(value) if value else default
    if Path(name).is_absolute() or ".." in Path(name).parts:
        report(doc, path, f"layout '{name}' leaves the templates folder",
               "name a layout inside templates/ (like `board` or `my-set/map`), without '..'")
    return name


# ---- boards -----------------------------------------------------------------------------------------

def _board(doc: Document, bid: str, spec: dict, report: Report) -> Board | None:
    at = ("boards", bid)
    grid = spec.get("grid")
    if grid not in ("hex", "square", "track"):
        return None  # the schema reports it
    cell = _length(spec.get("cell"), 25.0 if grid == "hex" else 20.0)
    margin = _length(spec.get("margin"), 6.0)
    gap = _length(spec.get("gap"), 0.0)
    if cell is None or margin is None or gap is None:
        return None
    if cell <= 0:
        report(doc, at + ("cell",), f"board '{bid}': cell size must be more than 0 mm", "e.g. `cell: 25mm`")
        return None
    raw = _grid_cells(doc, bid, spec, grid, cell, gap, report)
    if raw is None:
        return None
    cells, size = geometry.placed(raw, margin)
    if max(size) > MAX_BOARD_MM:
        report(doc, at, f"board '{bid}' would be {size[0]:.0f} x {size[1]:.0f} mm, larger than {MAX_BOARD_MM:.0f} mm a side",
               "use fewer or smaller cells (`cell:`), or split it into several boards")
        return None
    by_label = {c.label: c for c in cells}
    data: dict[str, dict] = {}
    for label, value in _items(spec.get("cells")):
        key = str(label).replace(" ", "")
        if key not in by_label:
            report(doc, at + ("cells", label), f"board '{bid}' has no cell '{label}'",
                   did_you_mean(key, by_label) or f"its cells are {_label_range(cells)}")
            continue
        if isinstance(value, dict):
            if isinstance(value.get("fill"), str) and not _is_colour(value["fill"]):
                report(doc, at + ("cells", label, "fill"), f"board '{bid}', cell '{label}': '{value['fill']}' is not a colour",
                       "write #rrggbb or a colour name such as navy")
                continue
            data[key] = dict(value)
    for k in ("background",):
        if isinstance(spec.get(k), str) and not _is_colour(spec[k]):
            report(doc, at + (k,), f"board '{bid}': {k} '{spec[k]}' is not a colour", "write #rrggbb or a colour name")
    placed = tuple(Cell(c.label, c.coord, c.x, c.y, c.points, frozen_map(data.get(c.label, {}))) for c in cells)
    options = {k: v for k, v in spec.items() if k not in ("cells", "layout")}
    line, col = doc.position(at)
    return Board(bid, str(spec.get("name") or bid.replace("-", " ").title()), grid, size, placed,
                 _layout_name(doc, at + ("layout",), spec.get("layout"), "board", report), cell,
                 str(spec.get("orientation") or "pointy"), frozen_map(options), SourceRef(doc.path, line, col))


def _grid_cells(doc: Document, bid: str, spec: dict, grid: str, cell: float, gap: float,
                report: Report) -> list[geometry.RawCell] | None:
    at = ("boards", bid)
    cols, rows, radius = spec.get("cols"), spec.get("rows"), spec.get("radius")
    if isinstance(radius, int) and not 0 <= radius <= MAX_RADIUS \
            or any(isinstance(v, int) and not 1 <= v <= MAX_SIDE for v in (cols, rows)):
        return None  # the schema reports it (laying out 10**10 cells first would hang validation)
    if grid == "hex":
        orientation = spec.get("orientation") or "pointy"
        if radius is not None and (cols is not None or rows is not None):
            report(doc, at + ("radius",), f"board '{bid}' gives both a radius and cols/rows",
                   "a hex board is either a hexagon (`radius: 4`) or a rectangle (`cols: 9, rows: 9`)")
            return None
        if isinstance(radius, int):
            return geometry.hex_radius(radius, cell, orientation)
        if isinstance(cols, int) and isinstance(rows, int):
            return geometry.hex_rectangle(cols, rows, cell, orientation)
        report(doc, at, f"board '{bid}' needs a size", "add `radius: 4` (a hexagon of hexes) or `cols: 9` and `rows: 9`")
        return None
    if grid == "square":
        if isinstance(cols, int) and isinstance(rows, int):
            return geometry.square_grid(cols, rows, cell)
        report(doc, at, f"board '{bid}' needs `cols:` and `rows:`", "e.g. `cols: 8` and `rows: 8`")
        return None
    start, end = spec.get("from", 0), spec.get("to")
    if not isinstance(end, int) or not isinstance(start, int):
        report(doc, at, f"track '{bid}' needs `to:` (its last number)", "e.g. `from: 0` and `to: 20` for a damage track")
        return None
    count = abs(end - start) + 1
    path = spec.get("path") or "line"
    if count > 2000:
        report(doc, at + ("to",), f"track '{bid}' has {count} spaces; at most 2000", None)
        return None
    if path == "perimeter":
        if not (isinstance(cols, int) and isinstance(rows, int)):
            report(doc, at, f"track '{bid}' runs round a perimeter and needs `cols:` and `rows:`",
                   "e.g. `cols: 26` and `rows: 26` hold 100 spaces round the edge")
            return None
        if geometry.perimeter_length(cols, rows) < count:
            report(doc, at + ("to",), f"track '{bid}' has {count} spaces but its {cols} x {rows} perimeter holds "
                   f"{geometry.perimeter_length(cols, rows)}", "make cols or rows larger")
            return None
    else:
        cols = cols if isinstance(cols, int) else count
        rows = math.ceil(count / cols)
    return geometry.track(start, end, cols, rows, cell, path, gap)


def _label_range(cells: Iterable[Any]) -> str:
    labels = [c.label for c in cells]
    return f"{labels[0]} .. {labels[-1]}" if len(labels) > 1 else labels[0]


def _is_colour(value: str) -> bool:
    from PIL import ImageColor

    try:
        ImageColor.getrgb(value)
        return True
    except ValueError:
        return False


# ---- tokens -----------------------------------------------------------------------------------------

def token_box(shape: str, size: float, orientation: str) -> tuple[float, float]:
    """A token's trim width and height in mm: a hex `size` across its flats is wider (or taller) across its corners."""
    if shape != "hex":
        return (size, size)
    corners = size * 2 / math.sqrt(3)
    return (size, corners) if orientation == "pointy" else (corners, size)


def _papers(paper: Any) -> list[tuple[str, tuple[float, float]]]:
    from cardsmith.base.errors import CardsmithError
    from cardsmith.printing.paper import parse_paper

    names = [paper] if isinstance(paper, str) else list(DEFAULT_PAPERS)
    out = []
    for n in names:
        try:
            out.append((n, parse_paper(n)))
        except CardsmithError:
            continue  # the print settings report their own problems
    return out


def _token(doc: Document, tid: str, spec: dict, players: dict[str, Player], bleed: float,
           papers: list[tuple[str, tuple[float, float]]], report: Report) -> TokenKind | None:
    at = ("tokens", tid)
    shape = spec.get("shape")
    if shape not in ("round", "square", "hex"):
        return None
    size = _length(spec.get("size"), 20.0)
    if size is None:
        return None
    if not 0 < size < float("inf"):
        report(doc, at + ("size",), f"token '{tid}' has a size of {size:g} mm", "give a size above 0, like 20mm")
        return None
    orientation = str(spec.get("orientation") or "pointy")
    w, h = token_box(shape, size, orientation)
    ok = True
    for name, (pw, ph) in papers:
        short, long_ = sorted((pw, ph))
        if min(w, h) + 2 * bleed > short - 2 * PRINT_MARGIN or max(w, h) + 2 * bleed > long_ - 2 * PRINT_MARGIN:
            report(doc, at + ("size",), f"token '{tid}' is {w:g} x {h:g} mm (plus {bleed:g} mm bleed), larger than the "
                   f"printable part of {name} paper ({pw:g} x {ph:g} mm with {PRINT_MARGIN:g} mm margins)",
                   "make `size:` smaller, or print it as a board")
            ok = False
            break
    colours = _colours(doc, tid, spec.get("colors"), players, report)
    if colours is None:
        ok = False
    faces: list[TokenFace] = []
    copies = spec.get("copies", 1) if isinstance(spec.get("copies"), int) else 1
    items = spec.get("items")
    seen: set[str] = set()
    for i, item in enumerate(items if isinstance(items, list) else [None]):
        if item is not None and not (isinstance(item, dict) and isinstance(item.get("id"), str)):
            continue  # the schema reports it
        iid = item["id"] if item else None
        if iid in seen:
            report(doc, at + ("items", i, "id"), f"token kind '{tid}' has two items with id '{iid}'", "give each item its own id")
            ok = False
        seen.add(str(iid))
        n = item.get("copies", copies) if item else copies
        owners: list[str | None] = list(colours) if colours else [None]
        for pid in owners:
            faces.append(TokenFace(tid, iid, pid, n if isinstance(n, int) else 1, frozen_map(item or {})))
    if isinstance(spec.get("color"), str) and not _is_colour(spec["color"]):
        report(doc, at + ("color",), f"token '{tid}': color '{spec['color']}' is not a colour", "write #rrggbb or a colour name")
        ok = False
    if not ok:
        return None
    back = spec.get("back", "token-back")
    line, col = doc.position(at)
    options = {k: v for k, v in spec.items() if k not in ("items", "front", "back")}
    return TokenKind(tid, str(spec.get("name") or tid.replace("-", " ").title()), shape, (round(w, 6), round(h, 6)),
                     _layout_name(doc, at + ("front",), spec.get("front"), "token-front", report),
                     None if back is None else _layout_name(doc, at + ("back",), back, "token-back", report),
                     tuple(faces), frozen_map(options), SourceRef(doc.path, line, col))


def _colours(doc: Document, tid: str, value: Any, players: dict[str, Player], report: Report) -> list[str] | None:
    """The player ids a token kind is printed in ([] for none), or None after reporting a problem."""
    at = ("tokens", tid, "colors")
    if value is None:
        return []
    if value == "all":
        if not players:
            report(doc, at, f"token '{tid}' is printed in every player colour, but the set declares no `players:`",
                   "declare them in set.yaml, e.g. `players: {red: {name: Red, color: \"#c0392b\"}}`")
            return None
        return list(players)
    if not isinstance(value, list):
        return None
    out, ok = [], True
    for i, pid in enumerate(value):
        if pid not in players:
            report(doc, at + (i,), f"token '{tid}' uses unknown player colour '{pid}'",
                   did_you_mean(str(pid), players) or (f"player colours: {', '.join(players)}" if players
                                                       else "declare player colours under `players:` in set.yaml"))
            ok = False
        else:
            out.append(str(pid))
    return out if ok else None
