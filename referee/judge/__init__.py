"""The judge: the puzzle as the referee reads it, the rules that decide a match, the limits,
and the turn loop. Pure: no process, no clock of its own; it never imports the bot."""
