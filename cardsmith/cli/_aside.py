"""A set validated in a forked process while `cardsmith render` imports what drawing needs.

After an edit, a render spends about as long validating the set (YAML, schema, model, the game's
checks) as importing and setting up the drawing stack (Pillow, Jinja, the painter, the fonts), and
neither needs the other. So on a machine with a second core the set is validated in a child process,
whose result lands where it always does, in the set cache (`cardsmith.cache.setcache`), while this process
imports; `setcache.validated_set` then reads it from there. A set the cache does not keep (one with
errors, or whose game lies outside cardsmith) is sent back over the pipe instead. Anything else (a
cache already fresh, one core or `--jobs 1`, no `fork`, a child that fails) leaves this process to
validate as it would have: the child only ever saves time.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any


def validated_set(project: Any, set_dir: Path, jobs: int | None) -> tuple[Any, list[Any]]:
    """`setcache.validated_set(project, set_dir)`, validated aside while drawing is set up when that pays."""
    from cardsmith.cache import setcache

    child = _fork_validation(project, set_dir, jobs)
    if child is not None:
        try:
            set_up_drawing(project, set_dir)
        except Exception:  # only a head start: the render meets the same problem, in its place and words
            pass
        finally:
            sent = _wait(*child)
        if sent is not None:
            return sent
    return setcache.validated_set(project, set_dir)


def _fork_validation(project: Any, set_dir: Path, jobs: int | None) -> tuple[int, int] | None:
    """Start validating the set in a child process: its pid and the pipe it answers on."""
    from cardsmith.cache import setcache
    from cardsmith.base.machine import available_cores

    if jobs == 1 or available_cores() < 2 or not hasattr(os, "fork") or sys.platform == "darwin":
        return None  # macOS: fork without exec is unsafe once system frameworks are loaded
    if "threading" in sys.modules and sys.modules["threading"].active_count() > 1:
        return None  # a lock another thread holds would stay held in the child (an embedding program, a test runner)
    if setcache.is_fresh(project, set_dir):
        return None
    # What both sides import (YAML, the model, the schema check), imported once, before the fork: the
    # same wall time (it is on both paths either way), ~45 ms less CPU.
    import yaml  # noqa: F401

    from cardsmith.sets import model
    from cardsmith.sets import _schemaquick as schemaquick
    from cardsmith.sets import lengths as units
    try:
        ready, said = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:  # no process to spare: validate here
        os.close(ready)
        os.close(said)
        return None
    if pid == 0:
        os.close(ready)
        _validate_in_child(project, set_dir, said)
    os.close(said)
    return pid, ready


def _validate_in_child(project: Any, set_dir: Path, said: int) -> None:
    """The child: validate; say b"1" once the set is in the cache, else send b"2" and the set and its
    diagnostics themselves (a set with errors is not cached, and this process must not validate it
    again). Prints nothing; exits without running the parent's atexit."""
    from cardsmith.cache import setcache

    status, stored = 1, []
    try:
        def cached(done: bool) -> None:
            stored.append(done)
            if done:
                os.write(said, b"1")

        result = setcache.validated_set(project, set_dir, cached=cached)
        if stored == [False]:
            with os.fdopen(said, "wb") as pipe:
                pipe.write(b"2" + setcache.dumps(result))
        status = 0
    except BaseException:
        pass
    finally:
        os._exit(status)


def _wait(pid: int, ready: int) -> tuple[Any, list[Any]] | None:
    """Wait for the child's answer: None once it has put the set in the cache (it goes on to keep the
    cards it read for the next validation, which this process need not wait for) or ended without a
    word; else the set and diagnostics it sent."""
    from cardsmith.cache import setcache

    try:
        with os.fdopen(ready, "rb") as pipe:
            first = pipe.read(1)  # b"1": cached; b"2": the result follows; b"": it ended without a word
            sent = setcache.loads(pipe.read()) if first == b"2" else None
    except Exception:  # an answer we cannot read: this process validates
        sent = None
    _PENDING.append(pid)  # reaped by `finish`, when the render is done
    if isinstance(sent, tuple) and len(sent) == 2 and isinstance(sent[1], list):
        return sent
    return None


_PENDING: list[int] = []


def finish() -> None:
    """Reap the children still keeping their cards (they are done, or nearly, by the time a render is)."""
    while _PENDING:
        try:
            os.waitpid(_PENDING.pop(), 0)
        except ChildProcessError:
            pass


def set_up_drawing(project: Any, set_dir: Path) -> None:
    """What a render does before drawing that does not depend on the set's cards: import the drawing
    stack, read the fonts, and fingerprint what the set cache is checked against."""
    from cardsmith.cache import setcache
    from cardsmith.layout import paint, template  # noqa: F401  (imported now: their cost is the point)
    from cardsmith.layout.fonts import library_for
    from cardsmith.render import batch as render

    setcache.validation_inputs(project, set_dir)  # one look at them (`freshness.one_look`), taken meanwhile
    library_for(tuple(str(d) for d in project.font_dirs))
