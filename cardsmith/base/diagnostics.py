"""Problems found in a user's files, reported all at once with where they are and how to fix them."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Sequence

SEVERITIES = ("error", "warning")


@dataclass(frozen=True)
class Diagnostic:
    """One problem: `file:line:col: severity: message`, the data path it concerns, and a hint."""

    severity: str  # "error" or "warning"
    file: Path | None
    line: int
    column: int
    message: str
    hint: str | None = None
    path: str = ""  # where in the data, like cards[3].attack

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def format(self, root: Path | None = None) -> str:
        """`file:line:col: error: message` (`error: message` when no file is concerned) plus an indented hint line."""
        where = f"{_display(self.file, root)}:{self.line}:{self.column}: " if self.file else ""
        text = f"{where}{self.severity}: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text

    def to_json(self, root: Path | None = None) -> dict:
        d = asdict(self)
        d["file"] = _display(self.file, root) if self.file else None
        return d

    def sort_key(self) -> tuple:
        return (str(self.file or ""), self.line, self.column, self.message)


def _display(file: Path, root: Path | None) -> str:
    if root is not None:
        try:
            # the folder resolved, not the file: a link is shown where it is, not where it leads
            return str((Path(file).parent.resolve() / Path(file).name).relative_to(root.resolve()))
        except ValueError:
            pass
    return str(file)


def sort_diagnostics(items: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorted by file, then line, without repeats."""
    return sorted(set(items), key=Diagnostic.sort_key)


def diagnostics_json(items: Sequence[Diagnostic], root: Path | None = None) -> str:
    return json.dumps([d.to_json(root) for d in items], indent=2)


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 0.6, n: int = 1) -> str | None:
    """"did you mean 'x'?" for the closest choice (case-insensitive), up to `n` of them, or None."""
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    import difflib  # only when a name is misspelt

    matches = [f"'{lowered[m]}'" for m in difflib.get_close_matches(str(word).lower(), list(lowered), n=n, cutoff=cutoff)]
    if not matches:
        return None
    listed = matches[0] if len(matches) == 1 else ", ".join(matches[:-1]) + " or " + matches[-1]
    return f"did you mean {listed}?"


def path_text(path: Sequence[str | int]) -> str:
    """('cards', 3, 'attack') -> 'cards[3].attack'."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out
