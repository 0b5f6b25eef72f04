"""Reading a set: YAML with positions, JSON Schema validation (every problem at once), the frozen
model, lengths and card sizes, `cardsmith new` and spreadsheet import."""
