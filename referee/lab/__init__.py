"""The lab: tools that use the bot as a library (puzzle generation, bench, profile).

The judge (the rest of `referee`) never imports this package or `bot`, so the rules that
decide a match stay independent of the solver they judge.
"""
