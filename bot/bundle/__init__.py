"""The bundle's own code, beside bot/'s modules in dist/bot.py: its importer
(`importer.py`, which build.py lays out after MODULES and LAZY) and the loader of the bodies
compiled at their first call (`lazy.py`, one of MODULES). Also `calls.py`, the script with
which build.py finds what the bot runs on its smoke puzzle.
"""
