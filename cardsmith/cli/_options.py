"""Options several commands share, declared once so they read and behave the same everywhere."""

from __future__ import annotations

import math

import click

def _capped_jobs(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """--jobs at most the cores available: more processes only share them, and each costs memory."""
    from cardsmith.base.limits import cores

    if value is not None and value > cores():
        click.echo(f"note: --jobs {value} is more than the {cores()} cores here; using {cores()}", err=True)
        return cores()
    return value


jobs_option = click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, callback=_capped_jobs,
                           help="Worker processes (default: all cores; at most the cores available).")

def _checked_cluster(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The address's form checked before anything else runs (scheme, port; the handshake comes once
    the other options are judged)."""
    if value is not None:
        from cardsmith.cli._cluster_address import check_cluster

        check_cluster(value, handshake=False)
    return value


cluster_option = click.option(
    "--cluster", metavar="ADDRESS", default=None, callback=_checked_cluster,
    help="Play on a Dask cluster: a scheduler's address (tcp://HOST:8786) or local[:N] for N local worker "
         "processes. Needs: pip install 'cardsmith[distributed]'.")
dashboard_option = click.option(
    "--dashboard", is_flag=True,
    help="With --cluster local[:N]: serve Dask's dashboard (needs bokeh; the cluster takes a second or two longer to start).")
resume_option = click.option(
    "--resume", is_flag=True,
    help="Continue an interrupted run from the games it finished (kept in the output folder) instead of starting over.")


class Millimetres(click.ParamType):
    """A length in mm between `low` and `high` (click's FloatRange lets 'nan' and 'inf' through)."""

    name = "mm"

    def __init__(self, low: float = 0.0, high: float = 1000.0):
        self.low, self.high = low, high

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            number = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            number = math.nan
        if not math.isfinite(number):
            self.fail(f"'{value}' is not a length in mm: write a number such as 3 or 4.5", param, ctx)
        if not self.low <= number <= self.high:
            self.fail(f"{value} mm is not between {self.low:g} and {self.high:g}", param, ctx)
        return number
