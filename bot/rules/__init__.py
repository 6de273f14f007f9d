"""The deduction rules ("intersection"): links that must or cannot exist, found without
guessing, each rule in its own module with the reason it gives for each bound it moves and
the diagnosis of a dead state it detects:

- `nodes`: magicVal and the sieve, at each node whose edges changed (and the grid's own
  checks: a node's value, crossing links);
- `groups`: `isolate` (no link closes a group smaller than the puzzle) and `slack` (all but
  the board's spare links join two groups);
- `connect`: the possible links reach every node; a bridge among them is drawn;
- `balance`: each region of undecided edges can pair up its missing links.

`engine` makes each global rule a `Rule` (its tag, when it is due, its run, reason and
diagnoses), runs them in a named schedule (a tuple of rules) and owns their cursors
(`Rules`). A rule that meets a dead end raises `Contradiction`.
"""

from bot.rules.engine import (BALANCE, BALANCE_IN_PROBE, CONNECT, CONNECT_DECIDED, FULL,
                              ISOLATE, LEARN, LEARN_CHEAP, LEARN_CHEAP_NO_SLACK, LEARN_NO_SLACK,
                              NODES, PROBE, SLACKEN, Rule, Rules)

__all__ = ["BALANCE", "BALANCE_IN_PROBE", "CONNECT", "CONNECT_DECIDED", "FULL", "ISOLATE",
           "LEARN", "LEARN_CHEAP", "LEARN_CHEAP_NO_SLACK", "LEARN_NO_SLACK", "NODES", "PROBE",
           "SLACKEN", "Rule", "Rules"]
