"""The engine: game contract, chunked runner and mergeable summaries. It knows no game."""
