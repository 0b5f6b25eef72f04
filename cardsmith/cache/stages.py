"""Build stages skipped when nothing they read has changed (a `freshness.Stamp` per stage and set).

`unless_unchanged(ctx, what, run, reads=..., outputs=..., parts=...)` runs a `cardsmith build` stage
only when its stamp is not fresh: the set's roots (`freshness.set_roots`: the set, layouts, fonts,
cardsmith's code, the libraries), the output folders it `reads` (the card images, say), its options
(`parts`) and every file it wrote (`outputs`, listed after it ran) must be as they were. A skipped stage
reports what it wrote last time. A stage that reported a problem, or ran with `force`, is not stamped
(it runs again); with caches off (`cardsmith.cache.off`) nothing is read or stamped.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterable

from cardsmith.cache.freshness import covered, key_of, snapshot_set, stamp_for

STAGE_VERSION = "1"


def files_under(*paths: Path | str) -> list[str]:
    """Every file under `paths` (folders), and the `paths` that are files."""
    found: list[str] = []
    for p in paths:
        if os.path.isfile(p):
            found.append(os.path.abspath(p))
            continue
        for folder, _dirs, files in os.walk(p):
            found += [os.path.abspath(os.path.join(folder, f)) for f in files]
    return sorted(found)


def unless_unchanged(ctx: Any, what: str, run: Callable[[Any], None], *, reads: Iterable[Path | str] = (),
                     outputs: Callable[[list[Path]], Iterable[Path | str]] = lambda wrote: wrote,
                     parts: Any = None, also_read: Callable[[], Iterable[Path | str]] = lambda: (),
                     unchanged: Callable[[str], str] = lambda message: message) -> bool:
    """Run the stage `run(ctx)` unless nothing it reads changed since it last ran; whether it ran.
    `outputs(wrote)`: every file the stage made (from the paths it reported); `also_read()`: files it
    read outside the set's roots and `reads`, known after it ran (they must lie inside them to stamp);
    `unchanged(message)`: a message it reported, as said again when it is skipped."""
    stamp = stamp_for(ctx.project, ctx.cardset.path, f"stage-{what}")
    key = key_of("stage", STAGE_VERSION, what, parts)
    hit = None if ctx.options.get("force") else stamp.fresh(key)
    if hit is not None and isinstance(hit.get("wrote"), list):
        for message, path in hit["wrote"]:
            ctx.wrote(unchanged(message), Path(path))
        return False
    reads = [os.path.abspath(r) for r in reads]
    inputs = snapshot_set(ctx.project, ctx.cardset.path, reads)  # before the work: an edit meanwhile is seen next run
    n_out, n_diag = len(ctx.outputs), len(ctx.diagnostics)
    run(ctx)
    wrote = ctx.outputs[n_out:]
    if ctx.options.get("force") or len(ctx.diagnostics) > n_diag or not covered(inputs, also_read()):
        stamp.forget()
        return True
    stamp.record(key, inputs, outputs([p for _, p in wrote]), {"wrote": [[m, str(p)] for m, p in wrote]})
    return True
