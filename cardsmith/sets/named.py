"""A set named on the command line, opened for a command: its validated `CardSet` (from the cache
while the set is unchanged, see `setcache.validated_set`) or `SetInvalid` with every problem.

Kept apart from `cardsmith.sets.validate` so a command on an unchanged set imports neither the YAML
reader nor the JSON Schema validator (a third of a second together).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cardsmith.base.diagnostics import Diagnostic
from cardsmith.base.errors import CardsmithError, UsageError

if TYPE_CHECKING:
    from cardsmith.sets.model import CardSet
    from cardsmith.base.project import Project


class SetInvalid(CardsmithError):
    """A set with errors; `diagnostics` holds every problem found."""

    SHOWN = 20

    def __init__(self, path: Path, diagnostics: list[Diagnostic]):
        errors = [d for d in diagnostics if d.is_error]
        listed = "\n".join(d.format(Path.cwd()) for d in errors[:self.SHOWN])
        if len(errors) > self.SHOWN:
            listed += f"\n... and {len(errors) - self.SHOWN} more"
        super().__init__(f"the set {Path(path).name} has {len(errors)} error(s):\n{listed}",
                         hint=f"fix them (`cardsmith validate {Path(path).name}` lists them all), then run the command again")
        self.diagnostics = diagnostics


def open_named_set(name: str, project: "Project | None" = None) -> tuple["Project", "CardSet"]:
    """The project and the validated set `name` (its folder under cards/, or a path), for commands.

    An unknown name is a `UsageError` (exit 2) listing the project's sets; an invalid set is `SetInvalid`.
    """
    from cardsmith.base.project import Project, SetNotFound

    project = project or Project.current()
    try:
        path = project.resolve_set(name)
    except SetNotFound as e:
        raise UsageError(str(e), hint="`cardsmith list` shows the sets of this project") from None
    from cardsmith.cache.setcache import validated_set

    cardset, diags = validated_set(project, path)  # from the cache when the set is unchanged since last checked
    if cardset is None:
        raise SetInvalid(Path(path), diags)
    return project, cardset
