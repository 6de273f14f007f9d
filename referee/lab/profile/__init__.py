"""`profile`: where the solver's time goes, and a player's bot sampled turn by turn."""
