"""Reading a set: YAML with positions, JSON Schema validation (every problem at once), the frozen
model, lengths and card sizes, and `cardsmith new`."""
