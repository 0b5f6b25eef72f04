"""Foundation commands: validate, list, new, build, schema."""

COMMANDS: list = []
