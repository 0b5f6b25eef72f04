"""The print rules every layout keeps, checked on a layer tree: what a cut that drifts would spoil.

- No hairline near the trim: a line thinner than `HAIRLINE_MM` within `TRIM_CLEARANCE_MM` of the
  trim shows every millimetre of cutting drift as a visibly uneven border.
- Nothing ends between the trim and the safe line: a shape either runs into the bleed (a
  background, cut through on purpose) or stays inside the safe area. One that stops in between
  is cut through at some places and not at others.
- No text under `MIN_TEXT_PT`, and no body text under `MIN_BODY_PT`: text that wraps, whatever its
  length, or a line of `SENTENCE_WORDS` words or more (a one-line rule is still rules text).
- No text past its panel: after the text is fitted, its drawn ink stays inside the panel it sits on
  (the topmost rect or ellipse drawn before it whose box holds the text's box), measured against
  the true outline (an ellipse's curve, a panel's rounded corners), or inside the text's own box
  when no panel holds it. The overflow warning says text did not fit at its smallest size;
  this one measures where the ink actually went.

The painter calls `shape_notes` and `text_size_note` with what it actually drew; `tree_notes`
checks a layer tree without drawing (for `cardsmith validate`), from the sizes the layout allows.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from cardsmith.layout._colour import contrast_ratio, luminance  # noqa: F401 (luminance re-exported)
from cardsmith.layout._boxes import Box, UnitError, font_size_pt, layer_box, layer_points, to_mm

HAIRLINE_MM = 1.0
TRIM_CLEARANCE_MM = 3.0
MIN_TEXT_PT = 6.0
MIN_BODY_PT = 7.0
SENTENCE_WORDS = 4  # a line of this many words is body text even when it does not wrap
PAST_PANEL_MM = 0.2  # ink this far past its panel shows (about 2 pixels at 300 dpi)
MIN_CONTRAST = 4.5  # WCAG 2 AA, body text
MIN_CONTRAST_LARGE = 3.0  # large text: 18 pt, or 14 pt bold (numbers on badges)
CONTRAST_SHARE = 0.9  # the share of what lies under the ink that must give the contrast (a stripe may not)
PRINT_KINDS = ("hairline", "safe-line", "small-text", "past-panel", "contrast")
HINTS = {
    "hairline": "cutting drifts by 1-1.5 mm: move the line at least 3 mm inside the trim, make it thicker "
                "than 1 mm and run it into the bleed, or leave it out",
    "safe-line": "run the shape into the bleed (`bleed: true`, or a box past the card's edge) or keep it inside "
                 "the safe area (the dashed line of --guides); `safe: false` if it may be cut",
    "small-text": "raise size and min_size (6 pt at least, 7 pt for text that wraps), or give the text more room",
    "contrast": "darken or lighten the text or what lies under it (the `contrast` filter picks near-black "
                "or white for a colour); 4.5:1 for body text, 3:1 for text of 18 pt (14 pt bold) or more",
    "past-panel": "shorten the text, let it shrink further (a lower min_size, not under 6 pt or 7 pt for text "
                  "that wraps), or make its box and panel larger",
}


def _body(props: dict[str, Any]) -> bool:
    """Body text: text that wraps, or a phrase of `SENTENCE_WORDS` words or more on one line (a
    one-line rule such as "Transform: discard 2 cards" is read as closely as a paragraph)."""
    if props.get("wrap", True) is not False:
        return True
    parts = re.split(r"[·|—]", str(props.get("value", "")))  # a type line lists names: each counts apart
    return max(sum(any(ch.isalnum() for ch in w) for w in part.split()) for part in parts) >= SENTENCE_WORDS


def min_text_pt(props: dict[str, Any]) -> float:
    """The smallest size the rules allow this text layer (body text wraps)."""
    return MIN_BODY_PT if _body(props) else MIN_TEXT_PT


def _edges(box: Box, trim: tuple[float, float]) -> Iterable[tuple[str, float]]:
    """Each side of `box` and how far inside the trim it lies (negative: out in the bleed)."""
    w, h = trim
    yield "left", box.left
    yield "top", box.top
    yield "right", w - box.right
    yield "bottom", h - box.bottom


def shape_notes(kind: str, props: dict[str, Any], trim: tuple[float, float], safe: float) -> list[tuple[str, str, float]]:
    """(kind, message, mm) for a rect, ellipse, image or line layer that breaks the print rules."""
    out: list[tuple[str, str, float]] = []
    try:
        if kind == "line":
            a, b = layer_points(props, trim)
            box = Box(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
            width = to_mm(props.get("width", "0.3mm"))
            stroked = True
        else:
            box = layer_box(props, trim)
            width = to_mm(props.get("stroke_width", "0.3mm")) if props.get("stroke") else 0.0
            stroked = bool(props.get("stroke")) and width > 0
    except (UnitError, KeyError, TypeError, ValueError):
        return out  # the layout checks report malformed boxes
    if stroked and width < HAIRLINE_MM:
        near = [(side, d) for side, d in _edges(box, trim) if d < TRIM_CLEARANCE_MM]
        if kind == "line":  # a line is only near an edge it runs along
            near = [(s, d) for s, d in near if (s in ("left", "right")) == (box.right - box.left < 0.01)]
        if near:
            side, d = min(near, key=lambda sd: sd[1])
            out.append(("hairline", f"a {width:.2f} mm line lies {max(d, 0.0):.1f} mm from the {side} trim "
                        f"(keep thin lines {TRIM_CLEARANCE_MM:g} mm inside it)", TRIM_CLEARANCE_MM - d))
    if kind != "line" and not props.get("bleed") and props.get("safe", True):
        cut = [(side, d) for side, d in _edges(box, trim) if 0.05 < d < safe - 0.05]
        if cut:
            side, d = min(cut, key=lambda sd: sd[1])
            out.append(("safe-line", f"{kind} ends {d:.1f} mm inside the {side} trim, between the trim and the "
                        f"{safe:.1f} mm safe line, so a drifting cut runs through its edge", safe - d))
    return out


@dataclass(frozen=True)
class Panel:
    """A rect or ellipse text may sit on: its box, the inside (less the outline, drawn inside the box),
    its shape and the corner radius of that inside (mm)."""

    box: Box
    inside: Box
    shape: str = "rect"
    radius: float = 0.0

    def overshoot(self, ink: Box) -> tuple[float, str]:
        """How far (mm) the corners of `ink` reach past the true outline (an ellipse's curve, a rounded
        corner), and which corner; 0 when they lie inside. Sides past the box are `past_panel_note`'s."""
        b = self.inside
        worst, where = 0.0, ""
        for x, y, name in ((ink.left, ink.top, "top left"), (ink.right, ink.top, "top right"),
                           (ink.left, ink.bottom, "bottom left"), (ink.right, ink.bottom, "bottom right")):
            if self.shape == "ellipse":
                a, c = b.width / 2, b.height / 2
                cx, cy = b.left + a, b.top + c
                if a <= 0 or c <= 0:
                    continue
                r = math.hypot((x - cx) / a, (y - cy) / c)
                d = math.hypot(x - cx, y - cy) * (1 - 1 / r) if r > 1 else 0.0
            else:
                rr = min(self.radius, b.width / 2, b.height / 2)
                ccx = min(max(x, b.left + rr), b.right - rr)
                ccy = min(max(y, b.top + rr), b.bottom - rr)
                d = math.hypot(x - ccx, y - ccy) - rr if rr > 0 and (ccx != x and ccy != y) else 0.0
            if d > worst:
                worst, where = d, name
        return worst, where


def panel_box(kind: str, props: dict[str, Any], trim: tuple[float, float]) -> Panel | None:
    """The panel of a rect or ellipse layer that text may sit on (painted, smaller than the card), or None."""
    if kind not in ("rect", "ellipse") or not (props.get("fill") or props.get("stroke")) or float(props.get("opacity", 1)) <= 0:
        return None
    try:
        box = layer_box(props, trim)
        outline = to_mm(props.get("stroke_width", "0.3mm")) if props.get("stroke") else 0.0
        radius = to_mm(props.get("radius", 0), min(box.width, box.height)) if kind == "rect" else 0.0
    except (UnitError, KeyError, TypeError, ValueError):
        return None
    whole = box.left <= 0 and box.top <= 0 and box.right >= trim[0] and box.bottom >= trim[1]
    return None if whole else Panel(box, box.inset(outline), kind, max(0.0, radius - outline))


def text_panel(own: Box, panels: list[Panel]) -> Panel | None:
    """The panel text with box `own` sits on: the last of `panels` (drawn before it, bottom first)
    whose box holds `own`, or None."""
    return next((p for p in reversed(panels) if p.box.contains(own, tolerance=0.1)), None)


def text_limit(own: Box, panels: list[Panel]) -> tuple[Box, bool]:
    """Where the ink of text with box `own` must stay, and whether that is a panel: the inside of its
    panel (`text_panel`), else `own` itself."""
    panel = text_panel(own, panels)
    return (own, False) if panel is None else (panel.inside, True)


def past_panel_note(name: str, ink: Box, own: Box, panels: list[Panel]) -> tuple[str, str, float] | None:
    """(kind, message, mm) if text `name`, drawn with ink box `ink` (mm), reaches past its panel: its
    box, or the true outline of an ellipse or rounded panel (or its own box when it sits on no panel)."""
    limit, on_panel = text_limit(own, panels)
    sides = {"left": limit.left - ink.left, "top": limit.top - ink.top,
             "right": ink.right - limit.right, "bottom": ink.bottom - limit.bottom}
    side = max(sides, key=lambda k: sides[k])
    where = "its panel" if on_panel else "its box"
    if sides[side] > PAST_PANEL_MM:
        return ("past-panel", f"text '{name}' is drawn {sides[side]:.1f} mm past the {side} edge of {where}", sides[side])
    panel = text_panel(own, panels)
    if panel is not None:
        past, corner = panel.overshoot(ink)
        if past > PAST_PANEL_MM:
            outline = "the curve of its ellipse" if panel.shape == "ellipse" else "the rounded corner of its panel"
            return ("past-panel", f"text '{name}' reaches {past:.1f} mm past {outline} at its {corner}", past)
    return None


def text_contrast(fg: tuple[int, int, int, int], under: Iterable[tuple[int, int, int]]) -> float:
    """The contrast text of colour `fg` (RGBA) has against the pixels `under` its ink: the ratio
    that `CONTRAST_SHARE` of them reach (a thin stripe or a star behind the text is forgiven)."""
    a = fg[3] / 255
    ratios = sorted(contrast_ratio(tuple(a * f + (1 - a) * u for f, u in zip(fg[:3], px)), px)  # type: ignore[arg-type]
                    for px in under)
    return ratios[int(len(ratios) * (1 - CONTRAST_SHARE))] if ratios else 21.0


def contrast_note(props: dict[str, Any], size_pt: float, ratio: float) -> tuple[str, str, float] | None:
    """(kind, message, ratio short) if text drawn at `size_pt` with contrast `ratio` is hard to read."""
    bold = "bold" in str(props.get("style", ""))
    large = size_pt >= 18 or (bold and size_pt >= 14)
    least = MIN_CONTRAST_LARGE if large else MIN_CONTRAST
    if ratio >= least - 0.005:
        return None
    name = props.get("field") or props.get("name") or "text"
    return ("contrast", f"text '{name}' has a contrast of {ratio:.2f}:1 against what lies under it, under the "
            f"{least:g}:1 {'large ' if large else ''}text needs", least - ratio)


def text_size_note(props: dict[str, Any], size_pt: float, lines: int, slack: float = 0.0) -> tuple[str, str, float] | None:
    """(kind, message, pt short) if text drawn at `size_pt` is smaller than the rules allow.

    `slack` (pt) forgives the rounding of a size to whole pixels (half a pixel at the drawing's dpi)."""
    body = _body(props)  # rules text is body text at any length: a one-line rule is still read closely
    least = MIN_BODY_PT if body else MIN_TEXT_PT
    if size_pt + slack < least - 0.05:
        what = "body text" if body else "text"
        name = props.get("field") or props.get("name") or "text"
        return ("small-text", f"{what} '{name}' is drawn at {size_pt:.1f} pt, under the {least:g} pt that prints legibly",
                least - size_pt)
    return None


def tree_notes(tree: dict[str, Any], trim: tuple[float, float], safe: float) -> list[tuple[str, str, str]]:
    """(kind, message, layer label) for every layer of a layout tree that breaks the print rules.

    Text is judged by the smallest size its layout lets it shrink to, without drawing it.
    """
    out: list[tuple[str, str, str]] = []
    defaults = tree.get("defaults") or {}
    for i, layer in enumerate(tree.get("layers") or []):
        kind, props = next(iter(layer.items()))
        props = {**(defaults.get(kind) or {}), **props}
        label = f"layer {i + 1} ({kind}{' ' + repr(props['name']) if props.get('name') else ''})"
        if kind in ("rect", "ellipse", "image", "line"):
            out += [(k, m, label) for k, m, _ in shape_notes(kind, props, trim, safe)]
        elif kind == "text" and props.get("value") not in (None, ""):
            try:
                size = font_size_pt(props.get("size", "9pt"))
                least = font_size_pt(props["min_size"]) if props.get("min_size") else min(size, min_text_pt(props))
            except UnitError:
                continue
            if least < min_text_pt(props) - 0.05:
                what = "body text" if _body(props) else "text"
                name = props.get("field") or props.get("name") or "text"
                out.append(("small-text", f"{what} '{name}' may shrink to {least:g} pt, under the "
                            f"{min_text_pt(props):g} pt that prints legibly", label))
    return out


def set_diagnostics(project: Any, cardset: Any, drawn: Any = None) -> list[Any]:
    """Print-rule warnings for every face of a valid set, from its layouts, without drawing (for validate).

    `drawn`, if given, is called with each face's tree and name and returns the notes only a drawing
    gives (`cardsmith.render.drawn_checks`: contrast, text past its panel's true outline).
    A layout that cannot be built is left to `cardsmith render`, which reports it with its cause.
    """
    from cardsmith.base.diagnostics import Diagnostic
    from cardsmith.base.errors import CardsmithError
    from cardsmith.layout.template import LayoutBudgetError, back_context, card_context, layouts_for, set_context
    from cardsmith.layout.faces import back_layout, back_specs, card_back, card_layout

    layouts = layouts_for(project, cardset)
    setctx = set_context(cardset)
    trim, safe = tuple(cardset.card_size), cardset.safe
    set_file = cardset.source.file if cardset.source else cardset.path / "set.yaml"
    specs = back_specs(cardset)
    faces: list[tuple[str, str, dict[str, Any], Any, int, int]] = []
    for card in cardset.cards:
        src = card.source
        faces.append((f"card '{card.id}'", card_layout(cardset, card, layouts), card_context(cardset, card, setctx),
                      src.file if src else set_file, src.line if src else 1, src.column if src else 1))
    for bid in dict.fromkeys(b for c in cardset.cards if (b := card_back(cardset, c)) in specs):
        faces.append((f"back '{bid}'", back_layout(bid, specs[bid], layouts),
                      back_context(cardset, bid, specs[bid], setctx), set_file, 1, 1))
    out, over_budget = [], set()
    for who, layout, ctx, file, line, col in faces:
        if layout in over_budget:
            continue  # one error per layout: each face would spend the whole budget again
        try:
            tree, _ = layouts.render(layout, ctx, who)
        except LayoutBudgetError as e:
            over_budget.add(layout)
            out.append(Diagnostic("error", file, line, col, f"{who}: {e.message}", e.hint))
            continue
        except CardsmithError:
            continue
        notes = tree_notes(tree, trim, safe) + (drawn(tree, who) if drawn is not None else [])
        for kind, message, label in notes:
            out.append(Diagnostic("warning", file, line, col, f"{who}: {message} ({label}, layout '{layout}')",
                                  HINTS[kind]))
    return out


def missing_layouts(project: Any, cardset: Any) -> list[Any]:
    """An error for each layout set.yaml's `layouts:` names that no layout folder holds, once per layout
    (not once per card), at its line, with the file to create in the set's own `layouts/` folder."""
    from cardsmith.base.diagnostics import Diagnostic, did_you_mean
    from cardsmith.layout.template import SET_LAYOUTS, SUFFIX, layouts_for
    from cardsmith.sets.loader import YamlError, load_yaml

    layouts = layouts_for(project, cardset)
    missing = {t: str(n) for t, n in cardset.layouts.items() if n and not layouts.exists(str(n))}
    if not missing:
        return []
    set_file = cardset.source.file if cardset.source else cardset.path / "set.yaml"
    try:
        doc = load_yaml(set_file)
    except (OSError, YamlError):
        doc = None
    known = sorted({p.name[: -len(SUFFIX)] for d in layouts.dirs for p in d.glob("*" + SUFFIX)})
    own = cardset.path / (cardset.layout_folders[0] if cardset.layout_folders else SET_LAYOUTS)
    if own.resolve().is_relative_to(Path.cwd().resolve()):
        own = own.resolve().relative_to(Path.cwd().resolve())
    out = []
    for type_id, name in missing.items():
        line, col = doc.position(("layouts", type_id)) if doc is not None else (1, 1)
        out.append(Diagnostic(
            "error", set_file, line, col, f"layouts: {type_id}: no layout named '{name}' (cards of type '{type_id}' use it)",
            f"create {own / (name + SUFFIX)} (the set's own layouts folder; docs/layouts.md), "
            + (did_you_mean(name, known) or f"or name a layout that exists: {', '.join(known) or 'none'}"),
            f"layouts.{type_id}"))
    return out


def missing_layouts_of_folder(project: Any, set_dir: Path) -> list[Any]:
    """`missing_layouts` for a set whose cards have errors (no CardSet): read from set.yaml alone, so
    validate still lists a missing layout beside the cards' problems."""
    from types import SimpleNamespace

    from cardsmith.base.project import declared_layout_folders
    from cardsmith.sets.loader import YamlError, load_yaml

    try:
        data = load_yaml(Path(set_dir) / "set.yaml").data
    except (OSError, YamlError):
        return []
    if not isinstance(data, dict) or not isinstance(data.get("layouts"), dict) or not isinstance(data.get("id"), str):
        return []
    named = {str(t): n for t, n in data["layouts"].items() if isinstance(n, str)}
    folders = tuple(declared_layout_folders(Path(set_dir), data.get("layout_folders")))
    shell = SimpleNamespace(id=data["id"], path=Path(set_dir), layouts=named, layout_folders=folders, source=None)
    return missing_layouts(project, shell)
