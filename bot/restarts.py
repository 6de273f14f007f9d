"""When the search that learns starts again from its root: when its nogoods grow poor.

A nogood's *glue* is the number of decision levels its facts come from. A search on a good
path learns nogoods of low glue; when the glue of the latest nogoods runs well above the
mean of all of them, the path has gone bad and a restart pays (Audemard and Simon's rule,
from Glucose). A conflict met far deeper than usual means the search is near a solution,
and puts the restart off.
"""

from collections import deque

from bot.options import DEFAULT


class Restarts:
    """The glue and depth of the conflicts met, and whether a restart is due."""

    def __init__(self, options=DEFAULT):
        self.window, self.margin = options.restart_window, options.restart_margin
        self.depth_window, self.block_depth = options.depth_window, options.block_depth
        self.block_after = options.block_after
        self.conflicts = 0
        self.glue_sum = 0               # over every conflict
        self.recent = deque()           # the latest glues, since the last restart
        self.recent_sum = 0
        self.depths = deque()           # the latest trail lengths at a conflict
        self.depth_sum = 0

    def conflict(self, depth, glue):
        """Note a conflict met with `depth` facts on the trail that taught a nogood of `glue`."""
        self.conflicts += 1
        self.depths.append(depth)
        self.depth_sum += depth
        if len(self.depths) > self.depth_window:
            self.depth_sum -= self.depths.popleft()
        if (self.conflicts > self.block_after and len(self.recent) == self.window
                and depth * len(self.depths) > self.block_depth * self.depth_sum):
            self.restarted()  # near a solution: put the restart off
        self.glue_sum += glue
        self.recent.append(glue)
        self.recent_sum += glue
        if len(self.recent) > self.window:
            self.recent_sum -= self.recent.popleft()

    def due(self):
        """Whether the latest nogoods' glue runs far enough above the mean of all."""
        return (len(self.recent) == self.window
                and self.recent_sum * self.margin * self.conflicts
                > self.window * self.glue_sum)

    def restarted(self):
        """Start the window again (at a restart, or to put one off)."""
        self.recent.clear()
        self.recent_sum = 0
