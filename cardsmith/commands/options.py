"""Options several commands share, declared once so they read and behave the same everywhere."""

from __future__ import annotations

import click

jobs_option = click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                           help="Worker processes (default: all cores).")
