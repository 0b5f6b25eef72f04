"""In-process memos of a layout's pure steps whose shared entries are kept for the next process.

Turning a card into its layer tree reads each layer's YAML and checks each layer against the
layout schema. Most layers come out the same for card after card (frames, panels, badges), so
both steps are memoised by their input text (`template.load_tree`, `template.check_tree`). A
process that draws one card after an edit starts with empty memos, and filling them again was
about a seventh of that card's cost. So the entries a process used for more than one card (the
shared layers, not one card's title) are kept under `output/.cache/kept/`, one file per set, and
read back by the next process that draws the set (`open_scope`, by `render.FaceRenderer`).

A kept entry is a pure function of its key (the text read, the layer checked) and of what the
file's name holds: the memo's kind and version, the YAML library's version and loader, and the
layout schema's content, and the drawing code (`cardsmith.cache.code`, which covers this layout
language). So an entry is never wrong for another run; a stale one is only unused. The file is plain
data read back by `cardsmith.cache.kept.read_plain`, which builds nothing else: a planted file in
output/ cannot run code.
"""

from __future__ import annotations

from cardsmith.cache import kept
from cardsmith.cache.code import drawing_code

TYPE_CHECKING = False  # typing stays unloaded at run time, as in the modules a quick command loads
if TYPE_CHECKING:
    from typing import Any, Hashable

VERSION = "2"  # 2: plain data only
_MISSING = object()


class KeptMemo:
    """A bounded memo; entries looked up again after they were stored are `shared`, and those are kept."""

    def __init__(self, kind: str, limit: int):
        self.kind = kind
        self.limit = limit
        self.values: dict[Hashable, Any] = {}
        self.shared: set[Hashable] = set()

    def get(self, key: Hashable, default: Any = None) -> Any:
        value = self.values.get(key, _MISSING)
        if value is _MISSING:
            return default
        self.shared.add(key)
        return value

    def __contains__(self, key: Hashable) -> bool:
        return self.get(key, _MISSING) is not _MISSING

    def put(self, key: Hashable, value: Any) -> None:
        if len(self.values) >= self.limit:  # a long-lived process drawing set after set
            self.values.clear()
            self.shared.clear()
        self.values[key] = value

    def clear(self) -> None:
        self.values.clear()
        self.shared.clear()

    def kept_part(self) -> dict[Hashable, Any]:
        return {k: self.values[k] for k in self.shared if k in self.values}


class _Scope:
    """Which kept file the memos of this process read and write, and how much of it is written."""

    def __init__(self) -> None:
        self.name: str | None = None
        self.written = 0


MEMOS: list[KeptMemo] = []
_SCOPE = _Scope()


def memo(kind: str, limit: int) -> KeptMemo:
    """A new memo that `open_scope` fills from, and `keep_if_grown` writes to, the kept file."""
    m = KeptMemo(kind, limit)
    MEMOS.append(m)
    return m


def open_scope(*parts: str) -> None:
    """Read the memos kept for `parts` (a set's id, the versions of what made them), once per scope
    and process; nothing when `cardsmith.cache.kept` keeps nothing."""
    name = kept.name("layout-memo", VERSION, drawing_code(), *parts) + ".pickle"
    if name == _SCOPE.name:
        return
    _SCOPE.name, _SCOPE.written = name, 0
    stored = kept.read_plain(name)  # None when missing, damaged or not plain data: drawn without it
    if not isinstance(stored, dict):
        return
    for m in MEMOS:
        part = stored.get(m.kind)
        if isinstance(part, dict):
            for k, v in part.items():
                m.put(k, v)
            m.shared.update(k for k in part if k in m.values)
    _SCOPE.written = sum(len(m.shared) for m in MEMOS)


def keep_if_grown() -> None:
    """Write the shared entries when they have grown by half since read or last written (so a batch
    of faces writes a few times, and a process that draws one card writes nothing new)."""
    if _SCOPE.name is None or not kept.active():
        return
    total = sum(len(m.shared) for m in MEMOS)
    if total < 8 or total < _SCOPE.written * 1.5:
        return
    _SCOPE.written = total
    kept.write_plain(_SCOPE.name, {m.kind: m.kept_part() for m in MEMOS})
