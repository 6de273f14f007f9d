"""`gen`: puzzles grown as networks of bridges, graded by the stage the solver needs."""
