"""Shared by command modules: find and load the set a command names, with user-worded errors."""

from __future__ import annotations

from pathlib import Path

from cardsmith.errors import CardsmithError, UsageError
from cardsmith.model import CardSet
from cardsmith.project import Project, SetNotFound


def load_named_set(name: str, project: Project | None = None) -> tuple[Project, CardSet]:
    """The project and the validated set `name` (folder name under cards/ or a path)."""
    project = project or Project.current()
    try:
        path = project.resolve_set(name)
    except SetNotFound as e:
        raise UsageError(str(e), hint="cardsmith list shows the sets of this project") from None
    return project, load_set_at(path, project.root)


def load_set_at(path: Path, root: Path | None = None) -> CardSet:
    """Validate and load the set folder at `path`; its errors become one CardsmithError listing them all."""
    from cardsmith.validate import SetInvalid, load_set

    try:
        return load_set(path)
    except SetInvalid as e:
        diagnostics = [d for d in getattr(e, "diagnostics", []) if d.is_error]
        if not diagnostics:
            raise
        listed = "\n".join(d.format(root) for d in diagnostics)
        raise CardsmithError(f"the set {path.name} has {len(diagnostics)} error(s):\n{listed}",
                             hint="fix them (cardsmith validate lists them too), then run the command again") from None
