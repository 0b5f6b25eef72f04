"""Card layouts: units, sandboxed Jinja templates producing layer trees, rich text, fitting, painting.

Data flows one way here too: `template` turns a card into a layer tree (plain data), `paint` turns a
layer tree into pixels, using `units` for geometry, `richtext` for card text and `fit` for wrapping.
"""
