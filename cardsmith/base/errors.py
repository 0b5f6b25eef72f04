"""Errors a user can act on. The CLI prints them plainly (no traceback) and exits non-zero."""

from __future__ import annotations


class CardsmithError(Exception):
    """A problem with the user's input or environment, worded for the user.

    `exit_code` is 1 for bad input found while working, 2 for a bad command line.
    """

    exit_code = 1
    # True when str(error) already reads `file:line:col: error: ...`, so the CLI adds no `error:` of its own
    located = False

    def __init__(self, message: str, hint: str | None = None, exit_code: int | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        if exit_code is not None:
            self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message}\n  hint: {self.hint}"


class UsageError(CardsmithError):
    exit_code = 2
