"""What cardsmith makes of a set for sharing: contact sheets, Tabletop Simulator decks, JSON and CSV."""
