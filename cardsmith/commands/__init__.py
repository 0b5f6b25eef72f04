"""Command modules; see cardsmith/cli.py."""
