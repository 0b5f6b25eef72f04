"""`cardsmith build`: every stage over every set, in data-flow order.

A stage is a function `stage(ctx: BuildContext) -> None` that reads `ctx.cardset`, writes under
`ctx.out` and records each file or folder it made with `ctx.wrote(what, path)`. Stages are listed
in `STAGES` as `(name, "module:function")` and imported only when they run, so a stage's heavy
libraries load only when needed.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from cardsmith.base.diagnostics import Diagnostic
from cardsmith.sets.model import CardSet
from cardsmith.base.project import Project

STAGES: list[tuple[str, str]] = [
    # each issue adds its stage here, in flow order
    ("render", "cardsmith.render.batch:build_stage"),
    ("pdf", "cardsmith.printing.pdf:build_stage"),
    ("components", "cardsmith.components.stage:build_stage"),
    ("decks", "cardsmith.decks:build_stage"),
    ("gallery", "cardsmith.share.gallery:build_stage"),
    ("sheets", "cardsmith.share.contact_sheet:build_stage"),
    ("balance", "cardsmith.simulation.report:build_stage"),
]


@dataclass
class BuildContext:
    """What a stage gets: the project, one validated set, the options and a place to report."""

    project: Project
    cardset: CardSet
    options: dict[str, Any] = field(default_factory=dict)
    outputs: list[tuple[str, Path]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    progress: Callable[[str], None] = lambda message: None

    @property
    def out(self) -> Path:
        """`output/<set>/`."""
        return self.project.set_output(self.cardset.id)

    def wrote(self, what: str, path: Path) -> None:
        self.outputs.append((what, Path(path)))


def stage_function(spec: str) -> Callable[[BuildContext], None]:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)
