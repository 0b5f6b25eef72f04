"""Card rich text: `**bold**`, `*italic*`, line breaks, blank-line paragraphs and `{ICON}` icons.

Parsing gives paragraphs of lines of words; a word is the unit of wrapping and is a run of pieces
(styled text or an icon) written without spaces between them, so `2{E}` or `**Shield**:` never
splits across lines. A backslash escapes the next character (`\\*`, `\\{`). Text is data: nothing
here evaluates it, so `{{ 7*7 }}` prints as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

BOLD, ITALIC = 1, 2
STYLE_NAMES = {0: "regular", BOLD: "bold", ITALIC: "italic", BOLD | ITALIC: "bolditalic"}


@dataclass(frozen=True)
class Span:
    """Text in one style (a combination of BOLD and ITALIC bits)."""

    text: str
    style: int = 0


@dataclass(frozen=True)
class Icon:
    """An inline icon by id (`{E}`)."""

    id: str


Piece = Span | Icon


@dataclass
class Word:
    pieces: list[Piece] = field(default_factory=list)

    def add_text(self, ch: str, style: int) -> None:
        if self.pieces and isinstance(self.pieces[-1], Span) and self.pieces[-1].style == style:
            self.pieces[-1] = Span(self.pieces[-1].text + ch, style)
        else:
            self.pieces.append(Span(ch, style))

    def plain(self) -> str:
        return "".join(p.text if isinstance(p, Span) else "{" + p.id + "}" for p in self.pieces)


@dataclass
class Paragraph:
    """Lines forced by single line breaks; each line a list of words."""

    lines: list[list[Word]] = field(default_factory=lambda: [[]])


_ICON = re.compile(r"\{([A-Za-z0-9_\-]+)\}")


def parse(text: str, icons: set[str] | frozenset[str] | None = None) -> list[Paragraph]:
    """Parse rich text. With `icons` given, `{X}` for an X outside it stays literal text."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    paragraphs: list[Paragraph] = []
    for block in re.split(r"\n[ \t]*\n+", text) if text else []:
        para = Paragraph()
        style = 0
        word: Word | None = None
        i = 0
        n = len(block)
        while i < n:
            ch = block[i]
            if ch == "\\" and i + 1 < n:
                word = word or Word()
                word.add_text(block[i + 1], style)
                i += 2
                continue
            if ch == "*":
                if block.startswith("**", i) and (style & BOLD or _closes(block, i + 2, "**")):
                    style ^= BOLD
                    i += 2
                    continue
                if style & ITALIC or _closes(block, i + 1, "*"):
                    style ^= ITALIC
                    i += 1
                    continue
            if ch == "{":
                m = _ICON.match(block, i)
                if m and (icons is None or m.group(1) in icons):
                    word = word or Word()
                    word.pieces.append(Icon(m.group(1)))
                    i = m.end()
                    continue
            if ch == "\n":
                if word:
                    para.lines[-1].append(word)
                word = None
                para.lines.append([])
                i += 1
                continue
            if ch in " \t":
                if word:
                    para.lines[-1].append(word)
                word = None
                i += 1
                continue
            word = word or Word()
            word.add_text(ch, style)
            i += 1
        if word:
            para.lines[-1].append(word)
        paragraphs.append(para)
    return paragraphs


def _closes(block: str, start: int, marker: str) -> bool:
    """Whether a marker opening at `start` (just after it) can open: Markdown's rule, roughly.

    It must be followed by a non-space and closed later in the paragraph by an unescaped marker
    that follows a non-space. So an unpaired `*` (as in "3 * 4") prints as an asterisk.
    """
    if start >= len(block) or block[start].isspace():
        return False
    i = start
    while True:
        end = block.find(marker, i)
        if end == -1:
            return False
        slashes = len(block[:end]) - len(block[:end].rstrip("\\"))
        if slashes % 2 == 1:  # an escaped marker (`\\*` is an escaped backslash, then a marker)
            i = end + 1
            continue
        if marker == "*" and block.startswith("**", end) and not block.startswith("***", end):
            i = end + 2  # a bold marker is not a single-star close
            continue
        if end > start and not block[end - 1].isspace():
            return True
        i = end + 1


def plain_text(paragraphs: list[Paragraph]) -> str:
    """The words back as plain text (markup removed), paragraphs separated by blank lines."""
    return "\n\n".join("\n".join(" ".join(w.plain() for w in line) for line in p.lines) for p in paragraphs)
