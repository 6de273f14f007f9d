"""The history of `run`: every run recorded in a local SQLite database, listed by
`history`, two runs set side by side by `compare` (docs/HISTORY.md). Never imports the bot."""
