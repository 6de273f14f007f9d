"""The box: everything that starts, contains, stamps and measures a bot's process.

Its public face is `sandbox` (the containment modes and the sandbox a bot is launched into)
and `runner` (the launched bot, a transport for the judge's turn loop); `one_match` plays
one match from launch to clean-up. Nothing here imports the command line or the lab."""
