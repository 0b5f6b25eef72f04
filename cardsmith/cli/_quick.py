"""A command run again with nothing changed is answered before click or any command is imported.

`render` and `pdf` answer an unchanged re-run from their stamps (`cardsmith.cache.freshness`) without
loading the set; what is left is Python's start-up and imports, and click alone is more than half
of that. So when such a command has done its work (or found it done), it calls `remember` with the
stamps that vouch for its result and the lines it prints when nothing changed. The record is kept
under `output/.cache/` for this exact command line: the same words, folder, interpreter, version
of cardsmith and `CARDSMITH_*` variables. `answer`, the first thing `cli.main` does, finds that
record, checks that every stamp is still fresh (the same check the command makes) and prints the
lines; anything else (no record, a stamp out of date, an unreadable file) returns None and the
command runs as usual.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path
TYPE_CHECKING = False  # typing is not imported at run time (a few ms of every answer)
if TYPE_CHECKING:
    from typing import Iterable

VERSION = "1"  # bump when what a record means changes
ARGV: list[str] | None = None  # the command line `cli.main` is running (None: not run from the command line)


def _record_path(argv: list[str]) -> Path:
    from cardsmith import __version__
    from cardsmith.cache.freshness import CACHE_DIR
    from cardsmith.base.project import Project

    env = sorted((k, v) for k, v in os.environ.items() if k.startswith("CARDSMITH"))
    blob = json.dumps([VERSION, __version__, sys.version, sys.executable, os.getcwd(), env, argv])
    return Project.current().output_dir / CACHE_DIR / f"cmd-{hashlib.sha256(blob.encode()).hexdigest()[:24]}.json"


def remember(stamps: Iterable[tuple[Path | str, str]], lines: Iterable[tuple[str, str, str | None]],
             sets: Iterable[str], dirs: Iterable[Path], then: dict | None = None) -> None:
    """After a command on the command line: answer it next time with `lines` ((stream "out" or "err",
    text, colour or None); `{seconds}` in a text is the time taken) while every (stamp file, key) in
    `stamps` is fresh and the set names `sets` (none: every set of the project) still name `dirs`.
    `then`: what to try when a stamp is not fresh (`{"do": "pdf-append", ...}`: see `cardsmith.printing.pdfupdate`)."""
    if ARGV is None:
        return
    from cardsmith.base.atomic import write_text

    try:
        record = {"v": VERSION, "stamps": [[str(p), k] for p, k in stamps], "lines": [list(x) for x in lines],
                  "sets": list(sets), "dirs": [str(d) for d in dirs], "then": then}
        write_text(_record_path(ARGV), json.dumps(record))
    except Exception:  # a record that cannot be written only costs time next run
        pass


def answer(argv: list[str]) -> int | None:
    """Print what the command `argv` printed when last run on unchanged inputs and return its exit
    status (0), or None when it must run."""
    started = time.perf_counter()
    try:
        record = json.loads(_record_path(argv).read_text(encoding="utf-8"))
        if record.get("v") != VERSION:
            return None
        from cardsmith.cache.freshness import Stamp

        if _set_dirs(record["sets"]) != record["dirs"]:  # a set folder appeared where a name now points
            return None
        if not record["stamps"] or any(Stamp(Path(p)).fresh(k) is None for p, k in record["stamps"]):
            return _then(argv, record)
        lines = [(str(stream), str(text), colour) for stream, text, colour in record["lines"]]
    except Exception:  # no record, or one we cannot read: the command runs
        return None
    seconds = time.perf_counter() - started
    for stream, text, colour in lines:
        echo(text.replace("{seconds}", f"{seconds:.1f}"), colour, err=stream == "err")
    return 0


COLOURS = {"red": 31, "green": 32, "yellow": 33}


def echo(text: str, colour: str | None = None, err: bool = False) -> None:
    """Print a line as click.secho would (in colour on a terminal only), without importing click."""
    out = sys.stderr if err else sys.stdout
    if colour and out.isatty() and not os.environ.get("NO_COLOR"):
        text = f"\x1b[{COLOURS.get(colour, 39)}m{text}\x1b[0m"
    out.write(text + "\n")
    out.flush()


def _then(argv: list[str], record: dict) -> int | None:
    """A stale record's second try (`then`): `pdf` after a render that changed only images appends them
    (`cardsmith.printing.pdfupdate.answer`); None when the command must run."""
    global ARGV
    then = record.get("then")
    if not isinstance(then, dict) or then.get("do") != "pdf-append":
        return None
    from cardsmith.printing import pdfupdate

    ARGV = argv  # so that the answer is remembered for this command line, as the command would
    try:
        return 0 if pdfupdate.answer(then, list(record["sets"]), list(record["dirs"])) else None
    finally:
        ARGV = None


def _set_dirs(names: list[str]) -> list[str]:
    """The folders the set names stand for now, as the commands resolve them (none: every set)."""
    from cardsmith.base.project import Project

    project = Project.current()
    return [str(d) for d in (project.set_dirs() if not names else [project.resolve_set(n) for n in names])]
