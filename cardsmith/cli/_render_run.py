"""What `cardsmith render` does, without click: `cardsmith.cli` runs a plain command line such as
`render SET --jobs 2` straight from here (`parse_plain`), since importing click is a tenth of a
one-card rebuild; anything else (help, other options, a bad value) goes through the click command
in `cardsmith.cli.cmd_render`, which calls `run_render` too."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

from cardsmith.cli._common import display_path, err_console, print_diagnostics, set_dirs
from cardsmith.base.diagnostics import did_you_mean
from cardsmith.base.errors import UsageError
from cardsmith.base.project import Project
from cardsmith.cli._quick import echo

DEFAULTS: dict[str, Any] = {"only": (), "dpi": 300, "fmt": "png", "guides": False, "jobs": None, "force": False,
                            "strict": False}


def parse_plain(argv: list[str]) -> dict[str, Any] | None:
    """`run_render`'s arguments for a plain render command line (set names, `--jobs N`/`-j N`,
    `--force`, `--strict`), as the click command reads it; None for anything else."""
    if argv[:1] != ["render"]:
        return None
    got: dict[str, Any] = {**DEFAULTS, "sets": []}
    words = iter(argv[1:])
    for word in words:
        if word in ("--force", "--strict"):
            got[word[2:]] = True
        elif word in ("--jobs", "-j") or word.startswith("--jobs="):
            value = word.partition("=")[2] if "=" in word else next(words, "")
            if not (value.isascii() and value.isdigit()) or int(value) < 1:
                return None  # click words the error
            got["jobs"] = int(value)
        elif word.startswith("-"):
            return None
        else:
            got["sets"].append(word)
    got["sets"] = tuple(got["sets"])
    return got


def run_render(sets: tuple[str, ...], only: tuple[str, ...], dpi: int, fmt: str, guides: bool, jobs: int | None,
               force: bool, strict: bool) -> int:
    """Render the sets named (every set when none) as `cardsmith render` does; return the exit status."""
    from cardsmith.cache import freshness
    from cardsmith.cli import _aside as aside

    project = Project.current()
    loaded = []
    inputs = {}
    status = 0
    key = freshness.render_key(dpi, fmt, guides)
    # what an unchanged re-run of this command line prints, and the stamps that must stay fresh for it
    replay: list[tuple[str, str, str | None]] | None = None if (only or force) else []
    vouched: list[tuple[Path, str]] = []
    dirs = set_dirs(project, sets)
    for d in dirs:
        if not (only or force) and (lines := _unchanged(project, d, dpi, fmt, guides, strict)) is not None:
            if lines and replay is not None:
                replay += lines
                vouched.append((freshness.stamp_for(project, d, "render").path, key))
            else:
                replay = None
            continue
        inputs[d] = freshness.snapshot_set(project, d)  # before reading anything, so an edit made meanwhile is seen next time
        cardset, diags = aside.validated_set(project, d, jobs)  # validated in a second process where that pays
        errors = [x for x in diags if x.is_error]
        if cardset is None or errors:
            print_diagnostics(diags, Path.cwd())
            err_console.print(f"[red]{d.name}: {len(errors)} error(s); fix them before rendering (see `cardsmith validate {d.name}`)[/]")
            status = 1
            continue
        loaded.append((d, cardset))
    if only and not status:  # an invalid set may hold the card: its errors are the message, not "no card"
        known = {c.id for _, s in loaded for c in s.cards}
        for cid in only:
            if cid not in known:
                raise UsageError(f"no card '{cid}' in {', '.join(s.id for _, s in loaded) or 'the sets named'}",
                                 hint=did_you_mean(cid, known) or "card ids are the `id:` of each card")
    for d, cardset in loaded:
        ids = [c for c in only if c in {x.id for x in cardset.cards}] if only else None
        if only and not ids:
            continue
        from cardsmith.render.batch import render_set

        with _progress_bar(cardset.id) as progress:
            result = render_set(project, cardset, dpi=dpi, fmt=fmt, only=ids, force=force, jobs=jobs, guides=guides,
                                strict=strict, progress=progress)
        recorded = not ids and freshness.record_render(project, inputs[d], cardset, result, dpi=dpi, fmt=fmt,
                                                       guides=guides, strict=strict, layout_dirs=result.layout_dirs)
        print_diagnostics(result.diagnostics, Path.cwd())
        drawn, same = len(result.rendered), len(result.skipped)
        backs = len(result.backs_rendered) + len(result.backs_skipped)
        failed = len(result.errors)
        where = display_path(result.out_dir)
        _summary(cardset.id, drawn, same, backs, where, f"{result.seconds:.1f}", failed, len(result.diagnostics) - failed)
        if failed:
            status = 1
        if recorded and not result.diagnostics and replay is not None:
            replay.append(_summary_line(cardset.id, 0, drawn + same, backs, where, "{seconds}", 0, 0))
            vouched.append((freshness.stamp_for(project, d, "render").path, key))
        else:
            replay = None
    if replay and not status:
        from cardsmith.cli import _quick as quick

        quick.remember(vouched, replay, sets, dirs)
    aside.finish()
    return status


@contextlib.contextmanager
def _progress_bar(label: str) -> Iterator[Callable[[int, int, str], None]]:
    """A progress callback drawing a bar on a terminal; elsewhere (a log, a pipe) the bar would never be
    seen (it is transient), so nothing is drawn and rich's progress display is not even imported."""
    if not sys.stderr.isatty():
        yield lambda done, total, what: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[what]}"),
                  TimeElapsedColumn(), console=err_console.console, transient=True) as bar:
        task = bar.add_task(label, total=None, what="")
        yield lambda done, total, what: bar.update(task, completed=done, total=total, what=what)


def _summary_line(set_id: str, drawn: int, same: int, backs: int, where: str, seconds: str, errors: int,
                  warnings: int) -> tuple[str, str, str | None]:
    """The line that ends a set's render: (stream, text, colour), as `cardsmith.cli._quick` replays it."""
    return ("err", f"{set_id}: {drawn + same} card(s) ({drawn} drawn, {same} unchanged), {backs} back(s) -> {where}/ "
                   f"in {seconds} s; {errors} error(s), {warnings} warning(s)", "red" if errors else "green")


def _summary(*args: Any) -> tuple[str, str, str | None]:
    # not rich: an unchanged set then prints its line without importing rich
    line = _summary_line(*args)
    echo(line[1], line[2], err=True)
    return line


def _unchanged(project: Project, set_dir: Path, dpi: int, fmt: str, guides: bool, strict: bool) -> list[tuple[str, str, str | None]] | None:
    """Report a set whose last render is current (nothing it is made from changed) without loading it:
    None if it is not; else the summary line it printed, to replay (none if it printed diagnostics too)."""
    import time

    from cardsmith.cache import freshness

    started = time.perf_counter()
    last = freshness.last_render(project, set_dir, dpi, fmt, guides)
    if last is None or last.get("strict") != strict:
        return None
    diags = freshness.diagnostics_from(last["diagnostics"])
    print_diagnostics(diags, Path.cwd())
    errors = sum(d.is_error for d in diags)
    where = display_path(Path(last["out_dir"]))
    _summary(last["set_id"], 0, last["cards"], last["backs"], where, f"{time.perf_counter() - started:.1f}", errors,
             len(diags) - errors)
    return [] if diags else [_summary_line(last["set_id"], 0, last["cards"], last["backs"], where, "{seconds}", 0, 0)]

