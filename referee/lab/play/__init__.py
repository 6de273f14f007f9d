"""`play`: the player page with the solver's hints and a run's lost positions."""
