"""A set named on the command line, opened for a command: its validated `CardSet` (from the cache
while the set is unchanged, see `setcache.validated_set`) or `SetInvalid` with every problem.

`SetInvalid` is defined in `cardsmith.sets.validate` and re-exported here for commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cardsmith.base.errors import UsageError
from cardsmith.sets.validate import SetInvalid

if TYPE_CHECKING:
    from cardsmith.sets.model import CardSet
    from cardsmith.base.project import Project


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
    for d in diags:
        if d.path == "rules" and not d.is_error:  # a game not installed yet: the cards still print, say so once
            import click

            click.secho(d.format(Path.cwd()), fg="yellow", err=True)
    return project, cardset
