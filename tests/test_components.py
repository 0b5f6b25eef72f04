"""Boards and token sheets (issue 13): validation with file:line, rendering, and printed pages that
assemble (tiles) and register (duplex token backs), checked on rasterised PDF pages."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pypdf
import pytest
from PIL import Image

from cardsmith.components.pages import ComponentPrintOptions, board_pages, token_sheet_pages, write_board_pdf, write_tokens_pdf
from cardsmith.components.drawing import render_components
from cardsmith.printing.pdf import write_pdf
from cardsmith.base.errors import CardsmithError
from cardsmith.base.project import Project
from cardsmith.sets.validate import check_set, load_set

FIXTURE = Path(__file__).parent / "fixtures" / "star-map"
R = 100  # raster dpi: 0.254 mm a pixel
OVERLAP = 20.0  # mm between tiles in the assembly tests
MM = R / 25.4
needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is missing")


@pytest.fixture(scope="module")
def star(tmp_path_factory):
    """The star-map set in a project of its own, its components rendered at 150 dpi."""
    root = tmp_path_factory.mktemp("proj")
    shutil.copytree(FIXTURE, root / "cards" / "star-map")
    project = Project(root)
    cardset = load_set(root / "cards" / "star-map")
    result = render_components(project, cardset, dpi=150)
    assert not result.errors, [d.format() for d in result.errors]
    return project, cardset


def raster(pdf: Path, prefix: Path) -> list[np.ndarray]:
    """Every page of `pdf` as an RGB array at R dpi."""
    subprocess.run(["pdftoppm", "-r", str(R), str(pdf), str(prefix)], check=True)  # PPM: no PNG compression
    files = sorted(prefix.parent.glob(prefix.name + "-*.ppm"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    return [np.asarray(Image.open(f).convert("RGB")).astype(float) for f in files]


# ---- the data ------------------------------------------------------------------------------------

def test_star_map_declares_a_9x9_hex_board_two_token_kinds_and_six_colours(star):
    _, cardset = star
    comps = cardset.components
    board = comps.boards["starmap"]
    assert (board.grid, board.orientation, len(board.cells)) == ("hex", "pointy", 81)
    assert [c.label for c in board.cells[:3]] == ["A1", "B1", "C1"] and board.cells[-1].label == "I9"
    assert dict(board.cells[40].data) == {"name": "Sol", "fill": "#f5c542"} and board.cells[40].label == "E5"
    assert len(comps.players) == 6 and set(comps.tokens) == {"control", "world"}
    assert comps.tokens["control"].count == 6 * 12  # twelve per player colour
    assert comps.tokens["world"].count == 5  # Rigel twice
    track = comps.boards["damage"]
    assert [c.label for c in track.cells[:9]] == [str(n) for n in range(9)]
    # a snake track turns back: space 8 sits under space 7
    assert abs(track.cells[8].x - track.cells[7].x) < 1e-6 and track.cells[8].y > track.cells[7].y


def test_hex_neighbours_are_one_cell_apart():
    from cardsmith.components.geometry import hex_radius, hex_rectangle

    for orientation in ("pointy", "flat"):
        cells = hex_rectangle(5, 4, 20.0, orientation) + hex_radius(3, 20.0, orientation)
        for c in cells:
            # corners lie on a circle 20/sqrt(3) from the centre; the grid's neighbours are exactly 20 mm away
            assert all(abs(np.hypot(x - c.x, y - c.y) - 20 / np.sqrt(3)) < 1e-4 for x, y in c.points)
        hexagon = hex_radius(3, 20.0, orientation)
        assert len(hexagon) == 1 + 3 * 3 * 4
        dists = sorted(np.hypot(a.x - b.x, a.y - b.y) for a in hexagon for b in hexagon if a is not b)
        assert abs(dists[0] - 20.0) < 1e-6


def _write_set(root: Path, extra: str) -> Path:
    d = root / "cards" / "bad"
    d.mkdir(parents=True)
    (d / "set.yaml").write_text("id: bad\nname: Bad\ntypes:\n  event: {fields: {}}\n" + extra, encoding="utf-8")
    (d / "events.yaml").write_text("cards:\n  - {id: e, name: E, type: event}\n", encoding="utf-8")
    return d


BAD = """players:
  red: {name: Red, color: "#c0392b"}
boards:
  map:
    grid: hex
    radius: -2
tokens:
  huge:
    shape: square
    size: 250mm
  chits:
    shape: round
    size: 15mm
    colors: [red, bleu]
"""


def test_bad_components_are_reported_at_their_line(tmp_path):
    d = _write_set(tmp_path, BAD)
    cardset, diags = check_set(d)
    assert cardset is None
    errors = {d.line: d.message for d in diags if d.is_error}
    assert "radius must be at least 0, not -2" in errors[10]
    assert "token 'huge' is 250 x 250 mm" in errors[14] and "a4 paper" in errors[14]
    assert "unknown player colour 'bleu'" in errors[18]
    assert any("red" in (d.hint or "") for d in diags if "bleu" in d.message)


def test_bad_components_exit_1_without_a_traceback(tmp_path, cli):
    _write_set(tmp_path, BAD)
    r = cli("validate", "bad", cwd=tmp_path)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr + r.stdout
    out = r.stdout + r.stderr
    for line, words in ((10, "radius"), (14, "larger than the printable part"), (18, "bleu")):
        assert f"set.yaml:{line}:" in out and words in out


def test_cells_named_in_data_must_exist_and_components_files_are_read(tmp_path):
    d = _write_set(tmp_path, "boards:\n  map:\n    grid: square\n    cols: 3\n    rows: 3\n    cells:\n      D4: {name: Far}\n")
    (d / "components").mkdir()
    (d / "components" / "more.yaml").write_text("tokens:\n  cube:\n    shape: square\n    size: 10mm\n    colors: all\n")
    _, diags = check_set(d)
    messages = [(x.file.name, x.line, x.message) for x in diags if x.is_error]
    assert ("set.yaml", 11, "board 'map' has no cell 'D4'") in messages
    assert any(f == "more.yaml" and line == 5 and "declares no `players:`" in m for f, line, m in messages)


# ---- rendering -----------------------------------------------------------------------------------

def test_board_and_tokens_render_with_bleed_at_any_dpi_and_from_cache(star):
    project, cardset = star
    out = project.set_output("star-map") / "components"
    board = Image.open(out / "boards" / "starmap.png")
    w, h = cardset.components.boards["starmap"].size
    assert board.size == (round((w + 6) / 25.4 * 150), round((h + 6) / 25.4 * 150))
    # Sol's cell is filled from data: the pixel at its centre is the fill colour
    sol = next(c for c in cardset.components.boards["starmap"].cells if c.label == "E5")
    px = board.getpixel((round((sol.x + 3) / 25.4 * 150), round((sol.y + 3) / 25.4 * 150 + 40)))
    assert max(abs(a - b) for a, b in zip(px, (0xf5, 0xc5, 0x42))) < 12
    # a round token is a disc: paper white outside its bleed circle, the player's colour inside
    tok = Image.open(out / "tokens" / "control-red.png").convert("RGB")
    assert tok.getpixel((1, 1)) == (255, 255, 255)
    r, g, b = tok.getpixel((tok.width // 2, 8))
    assert r > 150 and g < 100 and b < 100
    again = render_components(project, cardset, dpi=150)
    assert again.rendered == [] and len(again.skipped) == 19
    small = render_components(project, cardset, dpi=60)
    assert len(small.rendered) == 19
    assert Image.open(out / "boards" / "starmap.png").size[0] == round((w + 6) / 25.4 * 60)
    render_components(project, cardset, dpi=150)  # back to what the other tests use


def test_a_changed_cell_redraws_only_its_board(star, tmp_path):
    project, cardset = star
    shutil.copytree(project.root / "cards", tmp_path / "cards")
    p2 = Project(tmp_path)
    set_dir = tmp_path / "cards" / "star-map"
    render_components(p2, load_set(set_dir), dpi=40)
    text = (set_dir / "set.yaml").read_text().replace("name: Tau Ceti", "name: Epsilon Eridani")
    (set_dir / "set.yaml").write_text(text)
    result = render_components(p2, load_set(set_dir), dpi=40)
    assert result.rendered == ["board:starmap"]


def test_a_changed_layout_redraws_only_what_uses_it(star, tmp_path):
    project, _ = star
    shutil.copytree(project.root / "cards", tmp_path / "cards")
    p2 = Project(tmp_path)
    cardset = load_set(tmp_path / "cards" / "star-map")
    render_components(p2, cardset, dpi=40)
    own = tmp_path / "templates" / "star-map"
    own.mkdir(parents=True)
    from cardsmith.base.project import BUNDLED_TEMPLATES

    bundled = BUNDLED_TEMPLATES / "default" / "token-back.yaml.j2"
    (own / "token-back.yaml.j2").write_text(bundled.read_text().replace("darken(0.25)", "darken(0.4)"))
    result = render_components(p2, cardset, dpi=40)
    assert sorted(result.rendered) == sorted(f"back:control-{c}" for c in cardset.components.players) + ["back:world"]


# ---- printing ------------------------------------------------------------------------------------

def _edges(page: np.ndarray, row: int) -> tuple[int, int]:
    """First and last column of the board's picture (the longest run of ink) along raster row `row`."""
    dark = page[row].mean(axis=1) < 230
    best, start = (0, 0), None
    for i, d in enumerate(list(dark) + [False]):
        if d and start is None:
            start = i
        elif not d and start is not None:
            if i - start > best[1] - best[0]:
                best = (start, i - 1)
            start = None
    return best


def _longest_run(flags: np.ndarray) -> int:
    best = run = 0
    for f in flags:
        run = run + 1 if f else 0
        best = max(best, run)
    return best


def _join_offset(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Where tile `b` lands when its left picture edge is laid on `a`'s join mark, against where its
    picture matches `a`'s: (mark position - matching position) in mm, and the mean difference at the match.

    `a` is the left tile; the join mark is the tick above `a`'s picture.
    """
    mid = a.shape[0] // 2
    b_left, _ = _edges(b, mid)
    b_top, b_bottom = _edges(np.swapaxes(b, 0, 1), b_left + 30)
    rows = slice(b_top + 5, b_bottom - 5)  # the whole height: slanted hex sides make the match unique
    # b's picture just inside its cut edge, nearly as wide as the overlap (wider than a pointy hex's
    # straight sides are tall, so that the match along the join is unique)
    ga, gb = a.mean(axis=2), b.mean(axis=2)  # grey is enough to match, and three times quicker
    strip = gb[rows, b_left + 3:b_left + 3 + int((OVERLAP - 1) * MM)]
    a_left, a_right = _edges(a, mid)
    scores = []
    for dy in range(-4, 5):
        for x in range(a_right - int((OVERLAP + 15) * MM), a_right - strip.shape[1] + 2):
            window = ga[rows.start + dy:rows.stop + dy, x:x + strip.shape[1]]
            scores.append((float(np.abs(window - strip).mean()), x - 3))
    best = min(scores)
    # the match must be unique: two pixels (0.5 mm) away along the join it is clearly worse
    assert min(e for e, x in scores if abs(x - best[1]) >= 2) > best[0] + 1.0
    assert best is not None
    err, b_edge_on_a = best
    # the picture's top edge, then the marks in the margin just above it
    top, _ = _edges(np.swapaxes(a, 0, 1), (a_left + a_right) // 2)
    band = a[top - int(4.5 * MM):top - int(1.5 * MM), a_left + 5:a_right - 5].mean(axis=2)
    # a mark is an unbroken line across the band (a label's letters have gaps)
    ticks = np.array([x for x in range(band.shape[1]) if _longest_run(band[:, x] < 230) >= 2.5 * MM]) + a_left + 5
    assert len(ticks), "no join mark above the tile"
    mark = ticks[np.argmin(np.abs(ticks - b_edge_on_a))]
    return (float(mark) - b_edge_on_a) / MM, err


@needs_poppler
@pytest.mark.parametrize("paper,orientation", [("a4", "auto"), ("letter", "auto"), ("letter", "landscape")])
def test_tiled_board_assembles(star, tmp_path, paper, orientation):
    project, cardset = star
    out = project.set_output("star-map") / "components"
    from cardsmith.components.drawing import load_components_manifest

    manifest = load_components_manifest(out)
    options = ComponentPrintOptions(paper=paper, orientation=orientation, dpi=150, overlap=OVERLAP)
    pages, images = board_pages(manifest, out, "starmap", "tiled", options)
    assert pages[0].side == "guide" and len(pages) >= 3
    tiles = pages[1:]
    for page in tiles:  # nothing within 5 mm of the page edge; nothing under 6 pt
        for line in page.lines:
            assert min(line.x1, line.x2, line.y1, line.y2) >= 5 - 1e-6
            assert max(line.x1, line.x2) <= page.width - 5 + 1e-6 and max(line.y1, line.y2) <= page.height - 5 + 1e-6
        assert all(label.size >= 6 for label in page.labels)
        assert all(5 <= label.y <= page.height - 7.5 for label in page.labels)
    pdf = write_pdf(pages, images, tmp_path / "tiles.pdf")
    rasters = raster(pdf, tmp_path / "p")[1:]
    names = [p.labels[-1].text.split("tile ")[1].split(" ")[0] for p in tiles]
    by_name = dict(zip(names, rasters))
    checked = 0
    for name, page in by_name.items():
        col, row = name[0], name[1:]
        right = by_name.get(chr(ord(col) + 1) + row)
        below = by_name.get(col + str(int(row) + 1))
        if right is not None:
            off, err = _join_offset(page, right)
            assert abs(off) <= 0.5 and err < 12, (name, off, err)
            checked += 1
        if below is not None:  # the same check on the pages turned a quarter: rows become columns
            off, err = _join_offset(np.rot90(page, 1).copy(), np.rot90(below, 1).copy())
            assert abs(off) <= 0.5 and err < 12, (name, "below", off, err)
            checked += 1
    assert checked >= len(tiles) - 1


def test_board_on_one_large_page_has_trim_and_bleed_boxes(star):
    from pypdf import PdfReader

    project, cardset = star
    path = write_board_pdf(project, cardset, "starmap", "poster", ComponentPrintOptions(dpi=150))
    page = PdfReader(str(path)).pages
    assert len(page) == 1
    w, h = cardset.components.boards["starmap"].size
    pt = 72 / 25.4
    trim = [float(v) for v in page[0].trimbox]
    bleed = [float(v) for v in page[0].bleedbox]
    assert trim == pytest.approx([3 * pt, 3 * pt, (w + 3) * pt, (h + 3) * pt], abs=0.05)
    assert bleed == pytest.approx([0, 0, (w + 6) * pt, (h + 6) * pt], abs=0.05)


def _blobs(page: np.ndarray, centres: list[tuple[float, float]], radius_px: int) -> list[tuple[float, float, np.ndarray]]:
    """Centroid of the ink within `radius_px` of each expected centre (raster pixels), and the colour
    7.4 mm left of that centroid (between a token's frame line and its edge)."""
    out = []
    for cx, cy in centres:
        x0, y0 = int(cx - radius_px), int(cy - radius_px)
        win = page[y0:y0 + 2 * radius_px, x0:x0 + 2 * radius_px]
        ys, xs = np.nonzero(win.mean(axis=2) < 235)
        assert len(xs), f"no token printed near ({cx / MM:.1f}, {cy / MM:.1f}) mm"
        gx, gy = x0 + xs.mean(), y0 + ys.mean()
        sx, sy = int(round(gx - 7.4 * MM)), int(round(gy))
        out.append((gx, gy, page[sy - 1:sy + 2, sx - 1:sx + 2].reshape(-1, 3).mean(axis=0)))
    return out


def _nearest(colours, rgb, shade=lambda c: c) -> str:
    def dist(c: str) -> float:
        h = shade(c)
        return float(np.abs(np.array([int(h[i:i + 2], 16) for i in (1, 3, 5)]) - rgb).sum())

    return min(colours, key=dist)


def _behind(x: float, y: float, w: float, h: float, flip: str) -> tuple[float, float]:
    """Where on the back page the point (x, y) of the front page is, physically: a sheet turned about its
    long edge (or short edge) mirrors across the axis parallel to that edge."""
    long_edge_vertical = h >= w
    about_vertical = (flip == "long") == long_edge_vertical
    return (w - x, y) if about_vertical else (x, h - y)


@needs_poppler
@pytest.mark.parametrize("orientation,flip", [
    ("portrait", "long"), ("portrait", "short"),
    ("landscape", "long"), ("landscape", "short"),
])
def test_token_backs_register_on_duplex(star, tmp_path, orientation, flip):
    from cardsmith.components.drawing import load_components_manifest
    from cardsmith.layout.template import darken

    project, _ = star
    out = project.set_output("star-map") / "components"
    manifest = load_components_manifest(out)
    options = ComponentPrintOptions(paper="a4", orientation=orientation, backs=flip, dpi=150)
    pages, images = token_sheet_pages(manifest, out, "control", options)
    assert [p.side for p in pages][:2] == ["front", "back"]
    front, back = pages[0], pages[1]
    assert (front.width > front.height) == (orientation == "landscape")
    rf, rb = raster(write_pdf(pages[:2], images, tmp_path / "t.pdf"), tmp_path / "t")
    w, h = front.width, front.height
    centres = [((p.trim.x + p.trim.w / 2) * MM, (h - p.trim.y - p.trim.h / 2) * MM) for p in front.placements]
    fronts = _blobs(rf, centres, int(9 * MM))
    players = {p["color"].lower(): p for p in manifest["players"].values()}
    for (fx, fy, fcol) in fronts:
        bx, by = _behind(fx / MM, fy / MM, w, h, flip)
        (gx, gy, bcol), = _blobs(rb, [(bx * MM, by * MM)], int(9 * MM))
        assert abs(gx / MM - bx) <= 0.5 and abs(gy / MM - by) <= 0.5
        # and it is this token's own back: the back's colour is the front's player colour darkened
        assert _nearest(players, fcol) == _nearest(players, bcol, lambda c: darken(c, 0.25)), (fcol, bcol)


@needs_poppler
def test_token_sheets_have_cut_guides_and_crop_marks(star, tmp_path):
    project, cardset = star
    path = write_tokens_pdf(project, cardset, ComponentPrintOptions(paper="letter", dpi=150), tmp_path / "tok.pdf")
    from cardsmith.components.drawing import load_components_manifest

    out = project.set_output("star-map") / "components"
    manifest = load_components_manifest(out)
    pages, _ = token_sheet_pages(manifest, out, "control", ComponentPrintOptions(paper="letter"))
    # one cut guide (120 segments) round each round token, drawn just outside its trim
    guides = [line for line in pages[0].lines if line.kind == "cut"]
    assert len(guides) == 120 * len(pages[0].placements)
    p = pages[0].placements[0]
    cx, cy = p.trim.x + p.trim.w / 2, p.trim.y + p.trim.h / 2
    radii = [np.hypot(g.x1 - cx, g.y1 - cy) for g in guides[:120]]
    assert min(radii) > 8.0 and max(radii) < 8.2
    assert sum(len(p.placements) for p in pages) == 72
    assert path.is_file()


# ---- sharing and build ---------------------------------------------------------------------------

def test_json_and_csv_exports_include_components(star):
    from cardsmith.components.exports import components_csv
    from cardsmith.share.data import set_record

    _, cardset = star
    rec = set_record(cardset)
    assert len(rec["boards"]["starmap"]["cells"]) == 81 and len(rec["players"]) == 6
    assert sum(f["copies"] for f in rec["tokens"]["control"]["faces"]) == 72
    rows = components_csv(cardset.components).splitlines()
    assert rows[0].startswith("component,id,of,name")
    assert any(r.startswith("cell,E5,starmap,Sol,") for r in rows)
    assert sum(r.startswith("token,control-") for r in rows) == 6 and sum(r.startswith("token,world-") for r in rows) == 4


def test_tabletop_simulator_gets_custom_boards_and_two_sided_tiles(star, tmp_path):
    import json

    from cardsmith.components.drawing import load_components_manifest
    from cardsmith.components.tabletop import export_components_tts

    project, cardset = star
    src = project.set_output("star-map") / "components"
    result = export_components_tts(cardset, cardset.components, load_components_manifest(src), src, tmp_path)
    states = json.loads(result.json_file.read_text())["ObjectStates"]
    boards = [s for s in states if s["Name"] == "Custom_Board"]
    bags = [s for s in states if s["Name"] == "Bag"]
    assert len(boards) == 2 and len(bags) == 6 + 4
    red = next(b for b in bags if b["Nickname"].startswith("Control marker - Red"))
    assert len(red["ContainedObjects"]) == 12
    tile = red["ContainedObjects"][0]
    assert tile["Name"] == "Custom_Tile" and tile["CustomImage"]["CustomTile"]["Type"] == 2
    assert tile["CustomImage"]["ImageSecondaryURL"].endswith("token-back-control-red.png")
    sol = next(b for b in bags if b["Nickname"].startswith("Sol"))
    assert sol["ContainedObjects"][0]["CustomImage"]["CustomTile"]["Type"] == 1  # hex
    w, h = cardset.components.boards["starmap"].size
    size = Image.open(tmp_path / "board-starmap.png").size  # the trim, without bleed
    assert abs(size[0] - w / 25.4 * 150) <= 1 and abs(size[1] - h / 25.4 * 150) <= 1


def test_gallery_section_and_contact_sheet_show_boards_and_tokens(star, tmp_path):
    from cardsmith.components.showcase import components_section
    from cardsmith.components.drawing import load_components_manifest
    from cardsmith.components.exports import components_contact_sheet
    from PIL import ImageFont

    project, cardset = star
    made: list[str] = []

    def make(src: Path, rel: str, width: int, rs) -> str:
        made.append(rel)
        return rel

    html = components_section(project, cardset, make, tmp_path)
    assert 'src="components/board-starmap.jpg"' in html and "classList.toggle('zoomed')" in html
    # a picture of each kind's first A4 sheet, from the same plan as the PDF: 210 x 297 mm at 3 px a mm
    assert 'src="components/sheet-control.png"' in html
    assert Image.open(tmp_path / "components" / "sheet-control.png").size == (630, 891)
    assert html.count('alt="Control marker front"') == 6 and "&times;12" in html
    assert len(set(made)) == 2 + 10 + 7  # two boards, ten token fronts, seven backs (six colours, one for the worlds)
    src = project.set_output("star-map") / "components"
    font = ImageFont.load_default(size=14)
    page = components_contact_sheet("Star Map", load_components_manifest(src), src, tmp_path / "c.png", font, font)
    im = Image.open(page)
    assert im.width == 1500 and im.height > 1500


def test_build_stage_renders_and_prints_components(tmp_path):
    from cardsmith.cli._stages import STAGES, BuildContext, stage_function

    shutil.copytree(FIXTURE, tmp_path / "cards" / "star-map")
    project = Project(tmp_path)
    ctx = BuildContext(project, load_set(tmp_path / "cards" / "star-map"))
    stage_function(dict(STAGES)["components"])(ctx)
    assert not [d for d in ctx.diagnostics if d.is_error]
    names = sorted(p.name for _, p in ctx.outputs)
    # the damage board fits on a page: it shares the token sheets (components-*.pdf) instead of a page of its own
    for expected in ("board-starmap-tiled-a4.pdf", "board-starmap-tiled-letter.pdf", "board-starmap-poster.pdf",
                     "board-damage-poster.pdf", "components-a4-duplex-long.pdf", "components-letter-duplex-long.pdf"):
        assert expected in names
    assert "board-damage-tiled-a4.pdf" not in names and "tokens-a4-duplex-long.pdf" not in names


def test_a_token_too_large_for_the_chosen_paper_is_an_error_naming_it(star):
    from cardsmith.components.drawing import load_components_manifest
    from cardsmith.base.errors import CardsmithError

    project, _ = star
    out = project.set_output("star-map") / "components"
    with pytest.raises(CardsmithError, match=r"token 'world': a 22 x 25.4034 mm token does not fit on 20 x 30 mm paper"):
        token_sheet_pages(load_components_manifest(out), out, "world", ComponentPrintOptions(paper="20x30mm"))


def test_trf_counters_and_transwar_damage_tracks_come_from_components(tmp_path):
    # Issue 13: TRF gets its damage counters and TransWar a damage track per player from set data.
    import shutil

    from conftest import ROOT, run_in_process

    for name in ("trf", "transwar"):
        shutil.copytree(ROOT / "cards" / name, tmp_path / "cards" / name)
        r = run_in_process("components", "render", name, "--dpi", "60", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    trf = tmp_path / "output" / "trf" / "components" / "tokens"
    assert {p.name for p in trf.glob("damage-*.png")} == {"damage-d1.png", "damage-d2.png", "damage-d5.png"}
    tw = tmp_path / "output" / "transwar" / "components"
    assert (tw / "boards" / "damage-track.png").is_file()
    assert len(list((tw / "tokens").glob("damage-marker-*.png"))) == 6


def test_a_set_declaring_no_components_has_what_the_component_check_gives():
    """Validation skips the component check (and its imports) for a set without any: the same result."""
    from cardsmith.components.check import check_components
    from cardsmith.sets.loader import load_yaml
    from cardsmith.sets.validate import load_set

    folder = Path(__file__).resolve().parent / "fixtures" / "mini-empires"
    cardset = load_set(folder)
    checked, diags = check_components([load_yaml(folder / "set.yaml")], cardset.bleed)
    assert cardset.components == checked and not diags and not cardset.components


def test_components_pdf_name_names_the_one_pdf_printed_and_refuses_two(tmp_path):
    from conftest import run_in_process

    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "cards" / "trf", tmp_path / "cards" / "trf")
    r = run_in_process("components", "pdf", "trf", "--name", "counters", "--dpi", "60", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "output" / "trf" / "counters.pdf").is_file()
    # TransWar's damage track now shares its markers' sheet: one PDF, so --name names it
    shutil.copytree(root / "cards" / "transwar", tmp_path / "cards" / "transwar")
    r = run_in_process("components", "pdf", "transwar", "--name", "x", "--dpi", "60", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "output" / "transwar" / "x.pdf").is_file()
    # the star map is tiled in a PDF of its own beside the sheets: two PDFs, one --name
    shutil.copytree(FIXTURE, tmp_path / "cards" / "star-map")
    r = run_in_process("components", "pdf", "star-map", "--name", "x", "--dpi", "60", cwd=tmp_path)
    assert r.returncode != 0 and "--board ID or --token ID" in r.stderr and "Traceback" not in r.stderr


def test_transwar_damage_track_and_six_markers_share_one_sheet(tmp_path):
    # Issue 31, item 10: the 140 x 76 mm track took a whole A4 page and its six markers another
    # (a third with their backs). Now they share one sheet: one page, two with duplex backs.
    from conftest import run_in_process

    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "cards" / "transwar", tmp_path / "cards" / "transwar")
    r = run_in_process("components", "pdf", "transwar", "--dpi", "60", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = tmp_path / "output" / "transwar"
    assert sorted(p.name for p in out.glob("*.pdf")) == ["components-a4.pdf"]
    assert len(pypdf.PdfReader(out / "components-a4.pdf").pages) == 1
    r = run_in_process("components", "pdf", "transwar", "--backs", "long", "--dpi", "60", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert len(pypdf.PdfReader(out / "components-a4-duplex-long.pdf").pages) == 2


def test_shared_sheets_keep_every_piece_whole_with_its_bleed_and_backs_behind_fronts():
    from cardsmith.components._shared_sheets import FOOTER_BAND, Piece, shared_pages
    from cardsmith.printing.imposition import back_rect

    bleed = 3.175
    pieces = [Piece("board", None, (140.0, 76.0))] + [Piece(f"m{i}", f"b{i}", (12.0, 12.0), "round") for i in range(6)]
    pages = shared_pages(pieces, bleed, (210.0, 297.0), backs="long")
    assert [p.side for p in pages] == ["front", "back"]
    front, back = pages
    assert len(front.placements) == 7 and len(back.placements) == 6
    clips = [p.clip for p in front.placements]
    for p in front.placements:
        assert p.clip == p.trim.grown(bleed, bleed, bleed, bleed)  # the whole bleed, every side
        assert p.clip.x >= 5 and p.clip.right <= front.width - 5 and p.clip.top <= front.height - 5
        assert p.clip.y >= 5 + FOOTER_BAND  # the footer's band stays free
    for i, a in enumerate(clips):  # no piece's bleed prints over another's
        for b in clips[i + 1:]:
            assert a.right <= b.x + 1e-6 or b.right <= a.x + 1e-6 or a.top <= b.y + 1e-6 or b.top <= a.y + 1e-6
    assert sum(1 for ln in front.lines if ln.kind == "cut") >= 4  # the board's cut guide at least
    fronts = {p.item: p.trim for p in front.placements}
    for p in back.placements:
        expected, rotation = back_rect(fronts[p.item], front.width, front.height, "long")
        assert p.trim == expected and p.rotation == rotation
    # more pieces than a page holds go on to a second sheet
    many = shared_pages([Piece(f"t{i}", None, (40.0, 40.0)) for i in range(40)], bleed, (210.0, 297.0))
    assert len(many) == 2 and sum(len(p.placements) for p in many) == 40
    with pytest.raises(CardsmithError, match="does not fit"):
        shared_pages([Piece("huge", None, (300.0, 400.0))], bleed, (210.0, 297.0))
