"""cardsmith: card games from YAML to print-ready cards, PDFs, galleries, deck checks and simulated play."""

__version__ = "0.1.0"
