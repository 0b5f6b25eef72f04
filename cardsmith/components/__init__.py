"""Components beyond cards: boards (hex grids, square grids, tracks) and token sheets.

`model` holds the frozen data, `geometry` the grid maths, `check` reads and validates the set's
`players:`, `boards:` and `tokens:`, `render` draws them through the layout engine, `sheets` plans
their printed pages (tiled boards, one large page, token sheets) and `stage` wires them into
`cardsmith build`. See docs/components.md.
"""
