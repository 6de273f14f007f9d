"""A line of the bot's output: numbers joined by spaces (a link is `x1 y1 x2 y2 n`). Its own
module, so that the pacer (`bot.pacing`) and the printers it starts (`bot.printers`) both
import it, and neither imports the other's module for it.
"""


def line(*numbers):
    return " ".join(map(str, numbers)) + "\n"
