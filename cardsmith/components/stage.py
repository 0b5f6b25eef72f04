"""`cardsmith build` stage for boards and tokens: render them, then print them on A4 and Letter."""

from __future__ import annotations

from typing import Any

from cardsmith.components.pages import ComponentPrintOptions, write_board_pdf, write_tokens_pdf
from cardsmith.components.drawing import components_of, render_components

BUILD_PAPERS = ("a4", "letter")


def build_stage(ctx: Any) -> None:
    """Boards tiled on A4 and Letter and as one large page; token sheets on A4 and Letter, with duplex
    backs (long-edge flip) when the tokens have backs. A set without components is skipped."""
    comps = components_of(ctx.cardset)
    if not comps:
        return
    result = render_components(ctx.project, ctx.cardset, force=bool(ctx.options.get("force")),
                               progress=lambda done, total, what: ctx.progress(f"{done}/{total} {what}"))
    ctx.diagnostics.extend(result.diagnostics)
    if result.errors:
        return
    ctx.wrote(f"{len(result.rendered) + len(result.skipped)} board and token images ({len(result.rendered)} drawn)",
              result.out_dir)
    for bid in comps.boards:
        for paper in BUILD_PAPERS:
            ctx.progress(f"board {bid}: {paper}")
            path = write_board_pdf(ctx.project, ctx.cardset, bid, "tiled", ComponentPrintOptions(paper=paper))
            ctx.wrote(f"board {bid}, tiled on {paper}", path)
        path = write_board_pdf(ctx.project, ctx.cardset, bid, "poster", ComponentPrintOptions())
        ctx.wrote(f"board {bid}, one large page", path)
    if comps.tokens:
        backs = "long" if any(k.back for k in comps.tokens.values()) else "none"
        for paper in BUILD_PAPERS:
            ctx.progress(f"tokens: {paper}")
            path = write_tokens_pdf(ctx.project, ctx.cardset, ComponentPrintOptions(paper=paper, backs=backs))
            ctx.wrote(f"token sheets on {paper}" + (" (duplex backs)" if backs != "none" else ""), path)
