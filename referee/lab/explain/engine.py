"""The driver: rules to a fixed point, then one-step assumptions, then the solver's answer.

  propagate   settle every queued island, then isolation, then connectivity, until no bound
              moves
  eliminate   assume one bound of one undecided edge, propagate a copy; a contradiction
              proves the opposite bound (edges are tried round-robin from the last success)
  search      when no assumption is refuted, take the solver's answer for one edge: the
              one step that is not a deduction, and says so
"""

from referee.lab.explain.rules import connect, isolate, settle_node
from referee.lab.explain.state import Contradiction, State, edge_name, links

PROBE_BUDGET = 100   # forced changes per island one round of eliminate may spend on probes
# ... and all rounds together: past this, only search steps remain. Room for the probes of
# hard 30x30 boards, while a board where every cell is an island would probe for minutes.
TOTAL_PROBE_BUDGET = 600


def propagate(state):
    """Apply the rules until none moves a bound (Contradiction if the bounds fail)."""
    while True:
        while state.queue:
            node = state.queue.pop()
            state.queued[node] = False
            settle_node(state, node)
        if isolate(state) or connect(state):
            continue
        return


def refuted(state, e, bound):
    """Test one assumption about edge e: (the refutation or None, forced changes made).

    bound "hi": e holds no more than it has now; bound "lo": e holds one more. A refutation
    is (assumption text, contradiction text).
    """
    probe = state.copy()
    p, lo = state.puzzle, state.lo[e]
    name = edge_name(p, e)
    if bound == "hi":
        assumed = f"{name} had no link" if lo == 0 else f"{name} had only {links(lo)}"
    else:
        assumed = f"{name} had {links(lo + 1)}"
    try:
        if bound == "hi":
            probe.lower_hi(e, lo, "assumption", (), str)
        else:
            probe.raise_lo(e, lo + 1, "assumption", (), str)
        propagate(probe)
    except Contradiction as why:
        return (assumed, str(why)), probe.changes
    return None, probe.changes


def eliminate(state, start, spent):
    """Prove one bound by refuting its opposite; the edge proved, or None if none could be.

    Gives up (None) once its probes have made PROBE_BUDGET forced changes per island: on a
    board where assumptions cascade far (every cell an island), a full round would take
    minutes, and a search step then decides quicker. `spent[0]` counts the forced
    changes of every round.
    """
    p = state.puzzle
    count = len(p.ends)
    budget = PROBE_BUDGET * len(p.pos)
    for turn in range(count):
        e = (start + turn) % count
        if state.lo[e] == state.hi[e]:
            continue
        for bound in ("hi", "lo"):
            found, forced = refuted(state, e, bound)
            budget -= forced
            spent[0] += forced
            if found is None:
                if budget < 0:
                    return None
                continue
            _prove(state, e, bound, found, forced)
            return e
    return None


def _prove(state, e, bound, found, forced):
    """Record the bound on edge e that refuting its opposite `bound` proves: `found` is
    (assumption text, contradiction text), `forced` the changes the probe made."""
    p = state.puzzle
    assumed, why = found
    lo = state.lo[e]
    read = tuple(p.pos[n] for n in p.ends[e])
    after = f"after {forced} forced change(s), " if forced > 1 else ""
    if bound == "hi":
        state.raise_lo(e, lo + 1, "elimination", read, lambda: (
            f"if {assumed}, {after}{why}: at least {links(lo + 1)} there"),
            assumption=assumed, contradiction=why)
    else:
        state.lower_hi(e, lo, "elimination", read, lambda: (
            f"if {assumed}, {after}{why}: at most {lo} there"),
            assumption=assumed, contradiction=why)


def search(state, answer):
    """Take the solver's count for one undecided edge, preferring one that adds a link."""
    p = state.puzzle
    undecided = state.undecided()
    e = next((e for e in undecided if answer[e] > state.lo[e]), undecided[0])
    read = tuple(p.pos[n] for n in p.ends[e])
    stall = "no rule applies and no single assumption is refuted; the solver's search puts"
    if answer[e] > state.lo[e]:
        state.raise_lo(e, answer[e], "search", read, lambda: (
            f"{stall} {links(answer[e])} on {edge_name(p, e)}"))
    else:
        state.lower_hi(e, answer[e], "search", read, lambda: (
            f"{stall} {'no link' if answer[e] == 0 else links(answer[e])} on {edge_name(p, e)}"))


def run(puzzle, solve):
    """Every step from the empty board to a solution; `solve()` gives the solver's answer
    as a count per edge, asked for only when the deductions stall."""
    state = State(puzzle)
    answer = None
    start = 0
    spent = [0]
    while True:
        propagate(state)
        if not state.undecided():
            return state.steps
        proved = None
        if spent[0] < TOTAL_PROBE_BUDGET * len(puzzle.pos):
            proved = eliminate(state, start, spent)
        if proved is not None:
            start = proved + 1
            continue
        if answer is None:
            answer = solve()
        search(state, answer)
