"""What a player reads: the tables, the board drawn as text, the progress line, the HTML
report (`viewer/`) and the player page (`player/`)."""
