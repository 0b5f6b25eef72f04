"""Options several commands share, declared once so they read and behave the same everywhere."""

from __future__ import annotations

import click

jobs_option = click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                           help="Worker processes (default: all cores).")

cluster_option = click.option(
    "--cluster", metavar="ADDRESS", default=None,
    help="Play on a Dask cluster: a scheduler's address (tcp://HOST:8786) or local[:N] for N local worker "
         "processes. Needs: pip install 'cardsmith[distributed]'.")
dashboard_option = click.option(
    "--dashboard", is_flag=True,
    help="With --cluster local[:N]: serve Dask's dashboard (needs bokeh; the cluster takes a second or two longer to start).")
resume_option = click.option(
    "--resume", is_flag=True,
    help="Continue an interrupted run from the games it finished (kept in the output folder) instead of starting over.")
