"""The key of a face: a hash of everything that goes into its picture, so an unchanged face is not drawn again.

A key holds the options (dpi, format, guides), the set's part of every layout's context, the card's
size, fonts and icons (by path, size and modification time), the layouts the face used, the files
it read, the card's own data, and the digest of the drawing code (`cardsmith.cache.code`): an edit
to the painter draws every face again, with no version number to bump by hand.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import operator
import os
from pathlib import Path
from typing import Any, Callable, Iterable

from cardsmith.cache import kept
from cardsmith.cache.code import drawing_code
from cardsmith.layout.faces import back_specs
from cardsmith.render.plan import Face
from cardsmith.sets.model import Card, CardSet

KEY_VERSION = "6"  # what a key holds (the drawing code is in it since 6); bump when that changes


def _stat_sig(path: Path | str) -> str:
    try:
        st = os.stat(path)
        return f"{path}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        return f"{path}:missing"


_CARD_DATA: Callable[[Card], tuple[Any, ...]] | None = None


def card_data(card: Card) -> str:
    """What a card's face is drawn from besides the set (whose part, `set_context`, is in every face's
    key): every attribute of the card but where it was written, so moving a card in its file draws
    nothing again. Its repr, not the layout's context as JSON: four times faster on a long set, which
    every run hashes whole to find the one card that changed."""
    global _CARD_DATA
    if _CARD_DATA is None:
        _CARD_DATA = operator.attrgetter(*(f.name for f in dataclasses.fields(Card) if f.name != "source"))
    return repr(_CARD_DATA(card))  # (attrgetter: the tuple is built in C, a fifth of the time for 360 cards)


def _json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, default=str, ensure_ascii=False)


def _digest(obj: Any) -> str:
    return hashlib.sha256(_json(obj).encode()).hexdigest()


class FaceKeys:
    """The keys of one render's faces; a file is stat'ed once per run however many faces use it (fonts: all)."""

    def __init__(self, cardset: CardSet, layouts: Any, fonts: Any, faces: Iterable[Face], *, dpi: int, ext: str,
                 guides: bool):
        from cardsmith.layout.template import set_context

        self.cardset, self.layouts = cardset, layouts
        self.stat_sig = functools.lru_cache(maxsize=None)(_stat_sig)
        specs = back_specs(cardset)
        icon_sigs = sorted(self.stat_sig(Path(cardset.path) / p if not Path(p).is_absolute() else p)
                           for p in cardset.icons.values())
        self.base = _digest({"v": KEY_VERSION, "code": drawing_code(), "dpi": dpi, "fmt": ext, "guides": guides,
                             "set": set_context(cardset),
                             "geometry": [list(cardset.card_size), cardset.bleed, cardset.safe],
                             "dimensions": list(cardset.dimensions),  # their order picks a card's main group (`faction`)
                             "fonts": [self.stat_sig(p) for p in fonts.files()], "icons": icon_sigs,
                             "backs": specs, "layouts": dict(cardset.layouts)})
        self.by_id = cardset.by_id()
        self.face_data = {f.key: card_data(self.by_id[f.id]) if f.kind == "card" else specs.get(f.id) for f in faces}
        self.shared: dict[tuple[str, frozenset[str], frozenset[str]], str] = {}

    def key(self, f: Face, deps: Iterable[str], files: Iterable[str]) -> str:
        """The hash of everything that went into a face: `deps` are the layouts it used, `files` the fonts
        and assets. What faces share (the set, a layout and what it includes, the fonts) is hashed
        once per combination, then with each face's own data: a run hashes every face to find the
        one that changed."""
        layout_names, file_names = frozenset(deps) | {f.layout}, frozenset(files)
        shared = self.shared.get((f.layout, layout_names, file_names))
        if shared is None:
            shared = self.shared[(f.layout, layout_names, file_names)] = kept.digest(
                self.base, f.layout, self.layouts.digest(layout_names), *[self.stat_sig(p) for p in sorted(file_names)])
        art = self.by_id[f.id].art if f.kind == "card" else None
        art_file = os.path.join(self.cardset.path, art) if art else None  # (os.path: a Path a face is a tenth of a run's keys)
        data = self.face_data[f.key]
        return kept.digest(shared, f.key, data if isinstance(data, str) else _json(data),
                           self.stat_sig(art_file) if art_file and art_file not in file_names else "")
