"""Sharing: gallery, compare, watch (live preview), exports (TTS, JSON/CSV, contact sheets), and card
files made or updated from a spreadsheet (CSV import, the mirror of the CSV export)."""
