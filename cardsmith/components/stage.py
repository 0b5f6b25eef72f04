"""`cardsmith build` stage for boards and tokens: render them, then print them on A4 and Letter."""

from __future__ import annotations

import re
from typing import Any

from cardsmith.components.pages import ComponentPrintOptions, small_boards, write_board_pdf, write_shared_pdf, write_tokens_pdf
from cardsmith.components.drawing import components_of, load_components_manifest, render_components

BUILD_PAPERS = ("a4", "letter")


def build_stage(ctx: Any) -> None:
    """Boards tiled on A4 and Letter and as one large page; token sheets on A4 and Letter, with duplex
    backs (long-edge flip) when the tokens have backs. A set without components is skipped, and so is
    a set whose components and what they are drawn from are unchanged (`cardsmith.cache.stages`)."""
    from cardsmith.cache.keybook import read_keys
    from cardsmith.cache.stages import files_under, unless_unchanged
    from cardsmith.components.drawing import CACHE_NAME, components_dir

    if not components_of(ctx.cardset):
        return
    out = components_dir(ctx.project, ctx.cardset)

    def used() -> list[str]:  # the files its images were drawn from (art, icons, fonts)
        return sorted({f for e in read_keys(out / CACHE_NAME).values() if isinstance(e, dict) for f in e.get("files") or ()})

    unless_unchanged(ctx, "components", _build, parts=[BUILD_PAPERS], also_read=used,
                     unchanged=lambda message: re.sub(r"\((\d+) drawn\)", "(0 drawn)", message),
                     outputs=lambda wrote: [*files_under(out), *(p for p in wrote if p.suffix == ".pdf")])


def _build(ctx: Any) -> None:
    comps = components_of(ctx.cardset)
    result = render_components(ctx.project, ctx.cardset, force=bool(ctx.options.get("force")),
                               progress=lambda done, total, what: ctx.progress(f"{done}/{total} {what}"))
    ctx.diagnostics.extend(result.diagnostics)
    if result.errors:
        return
    ctx.wrote(f"{len(result.rendered) + len(result.skipped)} board and token images ({len(result.rendered)} drawn)",
              result.out_dir)
    manifest = load_components_manifest(result.out_dir)
    for paper in BUILD_PAPERS:
        # boards that fit on a page share the token sheets (when there are tokens) instead of a page each
        shared = small_boards(manifest, list(comps.boards), paper) if comps.tokens else []
        for bid in comps.boards:
            if bid not in shared:
                ctx.progress(f"board {bid}: {paper}")
                path = write_board_pdf(ctx.project, ctx.cardset, bid, "tiled", ComponentPrintOptions(paper=paper))
                ctx.wrote(f"board {bid}, tiled on {paper}", path)
        if comps.tokens:
            backs = "long" if any(k.back for k in comps.tokens.values()) else "none"
            ctx.progress(f"tokens: {paper}")
            options = ComponentPrintOptions(paper=paper, backs=backs)
            path = (write_shared_pdf(ctx.project, ctx.cardset, shared, options) if shared
                    else write_tokens_pdf(ctx.project, ctx.cardset, options))
            what = f"boards {', '.join(shared)} and token sheets" if shared else "token sheets"
            ctx.wrote(f"{what} on {paper}" + (" (duplex backs)" if backs != "none" else ""), path)
    for bid in comps.boards:
        path = write_board_pdf(ctx.project, ctx.cardset, bid, "poster", ComponentPrintOptions())
        ctx.wrote(f"board {bid}, one large page", path)
