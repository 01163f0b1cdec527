"""The Games area: the games list and one game's turns with the judge's reasoning."""
