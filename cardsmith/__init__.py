"""cardsmith: card games from YAML to print-ready cards, PDFs, galleries, deck checks and simulated play."""

__version__ = "0.1.0"

# The compiled build of the simulation's hot modules is used only while it matches their source.
from cardsmith import compiled as _compiled  # noqa: E402

_compiled.install()
