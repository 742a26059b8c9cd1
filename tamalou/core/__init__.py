"""What every game shares: decks, seeded chance, events with their audience, the protocol."""
