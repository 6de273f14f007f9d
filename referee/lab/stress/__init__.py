"""The stress suite: the kinds of boards that make a solver slow, and `stress-gen`."""
