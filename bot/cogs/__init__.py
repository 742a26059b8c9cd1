"""Extensions that are not one game's: the server settings and the seasons commands."""
