"""Helpers every command shares (rich, which costs a tenth of a second to import, is loaded on the first message)."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from cardsmith.base.errors import UsageError
from cardsmith.base.project import Project, SetNotFound


@functools.lru_cache(maxsize=1)
def _stderr_console() -> Any:

    return plain_console(stderr=True, soft_wrap=True)


def plain_console(**options: Any) -> Any:
    """A rich Console that prints what a set says as written: no emoji codes (`:x:` in a value or a
    name would become an emoji) and no guessed highlighting. Markup stays on for our own colours,
    so text from a set goes through `_escape`."""
    from rich.console import Console

    return Console(highlight=False, emoji=False, **options)


class _LazyConsole:
    """rich's Console on stderr, created on first use (importing rich costs a tenth of a second)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_stderr_console(), name)

    @property
    def console(self) -> Any:
        """The Console itself, for code that needs the object (a progress bar's `console=`)."""
        return _stderr_console()


err_console: Any = _LazyConsole()


def set_dirs(project: Project, names: tuple[str, ...]) -> list[Path]:
    """The set folders named on the command line, or every set under cards/ when none is named."""
    if not names:
        dirs = project.set_dirs()
        if not dirs:
            raise UsageError(f"no sets found: {project.cards_dir} has no folder with a set.yaml",
                             hint="name a set folder (cardsmith validate path/to/set) or create one with `cardsmith new cards/my-set`")
        return dirs
    try:
        return [project.resolve_set(n) for n in names]
    except SetNotFound as e:
        raise UsageError(str(e)) from None


def print_diagnostics(diags: list[Any], root: Path) -> None:
    for d in diags:
        colour = "red" if d.is_error else "yellow"
        text = d.format(root)
        head, _, hint = text.partition("\n")
        err_console.print(f"[{colour}]{_escape(head)}[/]" + (f"\n[dim]{_escape(hint)}[/]" if hint else ""))


def _escape(text: object) -> str:
    """`text` as rich markup that prints it literally (`[/]` or `[bold]` in a card name is not a tag)."""
    from rich.markup import escape

    from cardsmith.base.untrusted import shown

    return escape(shown(text))  # and no terminal escapes from a shared file's names


def display_path(path: Path) -> str:
    """`path` relative to the current folder when it lies inside it (shorter to read), else as given."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def failure_status(e: BaseException) -> int:
    """Say why a command failed, as a user should read it (never a traceback), and return its exit
    status: a CardsmithError's message; an interrupt; else a bug of ours, briefly (CARDSMITH_DEBUG=1
    re-raises it, to show the traceback)."""
    import os

    import click

    from cardsmith.base.errors import CardsmithError

    from cardsmith.base.untrusted import shown

    if isinstance(e, CardsmithError):
        click.secho(shown(str(e) if e.located else f"error: {e}"), fg="red", err=True)
        return e.exit_code
    if isinstance(e, KeyboardInterrupt):
        click.echo("interrupted", err=True)
        return 130
    if os.environ.get("CARDSMITH_DEBUG"):
        raise e
    from cardsmith.engine.blame import describe

    theirs = describe(e)
    if theirs is not None:  # a designer's own rules failed: theirs to fix, with where and how to get there again
        click.secho(shown(theirs), fg="red", err=True)
        _write_reproduction(e)
        return 1
    click.secho(shown(f"internal error: {type(e).__name__}: {e}"), fg="red", err=True)
    click.echo("  this is a bug in cardsmith; run again with CARDSMITH_DEBUG=1 for details", err=True)
    return 3


def _write_reproduction(e: BaseException) -> None:
    """Write the position a game package failed at (kept on the error by the runner) to a file that
    `cardsmith play SET --from FILE` continues from, and say so."""
    import click

    from cardsmith.base.atomic import write_text
    from cardsmith.engine.kit import dump_position

    position = getattr(e, "game_position", None)
    if position is None:
        click.echo("  run again with CARDSMITH_DEBUG=1 for the whole traceback", err=True)
        return
    name = re.sub(r"[^A-Za-z0-9_]", "_", str(position.get("game", "game"))) + "-error-position.yaml"
    try:
        write_text(Path(name), dump_position(position))
    except OSError as err:
        click.echo(f"  (could not write the position to {name}: {err})", err=True)
        return
    actions = len(getattr(e, "game_actions", ()))
    click.echo(f"  the position after the {actions} action(s) before it is in {name}: "
               f"`cardsmith play SET --from {name} --games 1` starts there (CARDSMITH_DEBUG=1 shows the traceback)", err=True)
