"""The hand-written baseline: Solar Empires cards drawn with plain Pillow calls, as a script would.

`PlainCards(set_dir)` loads the set and draws one card at a time (`draw(card)`), with the layers the
Solar Empires layouts draw (gradient backdrop, frame, art window with a starfield and emblem, name
bar with a shadowed name, cost pill with icons, type line, attack and armour badges, wrapped rules
text), so both make a comparable picture. It makes each gradient and emblem once and reuses it, as
a careful script would. Used by benchmarks/render.py (one process) and benchmarks/pipeline.py (the
two-process Pillow + ReportLab script).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
W, H = 825, 1125  # poker trim plus 1/8 in bleed at 300 dpi, as cardsmith renders Solar Empires


class PlainCards:
    def __init__(self, set_dir: Path, icon_dir: Path | None = None):
        import resvg_py
        from PIL import Image, ImageFont

        from cardsmith.sets.validate import load_set

        self.cs = load_set(set_dir)
        self.icon_dir = icon_dir or set_dir / "icons"
        fonts = ROOT / "fonts"
        self.title = ImageFont.truetype(str(fonts / "lato" / "Lato-Bold.ttf"), 48)
        self.body = ImageFont.truetype(str(fonts / "liberation" / "LiberationSans-Regular.ttf"), 34)
        self.bold = ImageFont.truetype(str(fonts / "liberation" / "LiberationSans-Bold.ttf"), 34)
        self.big = ImageFont.truetype(str(fonts / "lato" / "Lato-Bold.ttf"), 62)
        self._svg = lambda path, px: Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_path=str(path), width=px, height=px)))).convert("RGBA")
        self.icons = {k: self._svg(self.icon_dir / f"{k}.svg", 44) for k in ("energy", "minerals", "organics")}
        self.emblems: dict[tuple[str, str], Any] = {}
        self.backdrops: dict[str, Any] = {}

    @property
    def cards(self) -> list[Any]:
        return list(self.cs.cards)

    def draw(self, card: Any) -> Any:
        from PIL import Image, ImageDraw

        cs = self.cs
        group = cs.group_of(card)
        color = group.color if group else "#4d6a7d"
        if color not in self.backdrops:
            ramp = Image.linear_gradient("L").resize((W, H))
            self.backdrops[color] = Image.composite(Image.new("RGB", (W, H), "#05070f"), Image.new("RGB", (W, H), color), ramp)
        im = self.backdrops[color].copy()
        d = ImageDraw.Draw(im, "RGBA")
        d.rounded_rectangle((17, 17, W - 18, H - 18), radius=38, outline=color, width=6)  # frame
        d.rounded_rectangle((75, 140, W - 76, 640), radius=20, fill="#1d2c5a", outline="#8fa8d8", width=4)  # art window
        for i in range(28):  # starfield
            x, y, r = 90 + (i * 53) % 640, 150 + (i * 29) % 470, 3 + (i % 3) * 2
            d.ellipse((x, y, x + r, y + r), fill=(255, 255, 255, 100 + 50 * (i % 3)))
        emblem_id = card["class"] if card.type == "ship" else "event"
        key = (emblem_id, color)
        if key not in self.emblems:
            self.emblems[key] = self._svg(self.icon_dir / f"{emblem_id}.svg", 330)
        im.paste(self.emblems[key], (W // 2 - 165, 225), self.emblems[key])
        d.rounded_rectangle((40, 40, W - 41, 135), radius=17, fill=color, outline="white", width=3)  # name bar
        d.text((113, 90), card.name, font=self.title, fill=(0, 0, 0, 136), anchor="lm")  # name, with a shadow
        d.text((110, 87), card.name, font=self.title, fill="white", anchor="lm")
        d.rounded_rectangle((W - 340, 150, W - 55, 222), radius=36, fill=(11, 16, 32, 204))  # cost pill
        x = W - 320
        for k in ("energy", "minerals", "organics"):  # costs
            d.text((x, 186), str(card.get(k, 0)), font=self.bold, fill="white", anchor="lm")
            im.paste(self.icons[k], (x + 24, 164), self.icons[k])
            x += 90
        d.rounded_rectangle((40, 655, W - 41, 715), radius=12, fill=color, outline="white", width=3)  # type line
        d.text((W // 2, 685), f"{cs.types[card.type].name} · {group.name if group else ''}", font=self.bold, fill="white", anchor="mm")
        if card.type == "ship":  # stats
            d.ellipse((45, 610, 195, 760), fill="#c0392b", outline="white", width=5)
            d.text((120, 685), f"+{card['attack']}", font=self.big, fill="white", anchor="mm")
            d.ellipse((W - 195, 610, W - 45, 760), fill="#7f93a8", outline="white", width=5)
            d.text((W - 120, 685), str(card["armour"]), font=self.big, fill="white", anchor="mm")
        d.rounded_rectangle((40, 770, W - 41, H - 41), radius=17, fill="#f3efe4", outline=color, width=3)
        text = " ".join([f"{cs.keywords[k.id].name} ({cs.keywords[k.id].reminder})" for k in card.keywords] + [card.text or ""])
        y = 810
        line = ""
        for word in text.split():  # wrapped rules text: greedy, measured with getlength
            trial = f"{line} {word}".strip()
            if self.body.getlength(trial) > W - 130 and line:
                d.text((65, y), line, font=self.body, fill="#1b1b22", anchor="ls")
                y += 40
                line = word
            else:
                line = trial
        if line:
            d.text((65, y), line, font=self.body, fill="#1b1b22", anchor="ls")
        return im
