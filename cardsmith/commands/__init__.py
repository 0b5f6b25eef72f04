"""Command modules; see cardsmith/commands/group.py."""
