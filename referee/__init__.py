"""A local referee for CodinGame's "There Is No Spoon - Episode 2": an independent judge of a bot.

Layers: `board` (puzzle parsing), `rules` (pure rules), `match` (turn loop and limits),
`runner` (the bot's process). `spoon2 --help` lists the commands.
`referee.lab` (gen, bench, profile) calls the bot as a library; nothing else here imports
it or the bot.
"""
