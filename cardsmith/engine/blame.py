"""Whose code failed: an exception raised inside a game package that is not cardsmith's own is the
designer's to fix, and is reported as theirs ("error in game package <name> (<file>:<line>)"),
with the position the game had reached so that `cardsmith play SET --from FILE` starts there.

`blame(e)` reads the traceback while it is still there (in the process that raised it) and keeps
the answer on the exception (`e.game_blame`, pickled with it across worker processes).
"""

from __future__ import annotations

import traceback
from typing import Any


def game_packages() -> dict[str, str]:
    """Top-level module -> game name, for every known game whose code is not cardsmith's: installed
    entry points (read without importing them) and games registered in-process."""
    from cardsmith.engine import registry

    out: dict[str, str] = {}
    for name, ep in registry._entry_points().items():
        out.setdefault(ep.value.split(":")[0].split(".")[0], name)
    for name, rules in registry._EXTRA.items():
        out.setdefault(str(getattr(rules.make_game, "__module__", "") or "").split(".")[0], name)
    out.pop("cardsmith", None)
    out.pop("", None)
    return out


def blame(e: BaseException) -> tuple[str, str, int] | None:
    """(package, file, line) of the innermost traceback frame inside a game package that is not
    cardsmith's, or None (cardsmith's own code, or no traceback). Kept on `e.game_blame`."""
    known = getattr(e, "game_blame", None)
    if known is not None:
        return tuple(known)
    packages = game_packages()
    found = None
    tb = e.__traceback__
    while tb is not None:
        top = str(tb.tb_frame.f_globals.get("__name__", "")).split(".")[0]
        if top in packages:
            found = (top, tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    if found is not None:
        try:
            e.game_blame = found  # type: ignore[attr-defined]
        except AttributeError:
            pass
    return found


def remember_position(e: BaseException, game: Any, start: Any, actions: Any) -> None:
    """Keep on `e` (for the error message) the position the game had reached before the action that
    failed: `start()` gives a fresh state, the `(seat, action)` pairs of `actions` are replayed on it.
    Only for an exception blamed on a game package; nothing when the replay fails too."""
    if blame(e) is None or getattr(e, "game_position", None) is not None:
        return
    try:
        state = start()
        for seat, action in actions:
            state.apply(action, seat)
        e.game_position = state.position()  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - the original error is what the user needs; this is extra
        return


def describe(e: BaseException) -> str | None:
    """"error in game package <name> (<file>:<line>): <Type>: <message>", or None if not a game's error."""
    where = blame(e)
    if where is None:
        return None
    package, file, line = where
    last = traceback.format_exception_only(type(e), e)[-1].strip()
    return f"error in game package {package} ({file}:{line}): {last}"
