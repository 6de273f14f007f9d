"""Facts: one bound of one edge, the unit the search that learns reasons in.

A fact is a small integer, `4 * edge + kind`, so that the nogoods and the watch lists are
flat lists of ints. Its kind is one of four bounds:

    AT_LEAST_1  lo >= 1        AT_MOST_1  hi <= 1
    AT_LEAST_2  lo >= 2        AT_MOST_0  hi <= 0

`AT_LEAST_1` and `AT_MOST_0` are each other's negation, as are `AT_LEAST_2` and
`AT_MOST_1`: kind k's negation is kind 3 - k. Outside this module facts are made and read
only through these functions, but in the two loops that run per fact of the search that
learns, which write them out inline and say so: `Levels.scan` and `Nogoods._visit`.
Through calls, those two cost a hard solve about 2% more instructions (callgrind, on
puzzles/stress/tree/30x30_rows_loops2_013).
"""

AT_LEAST_1, AT_LEAST_2, AT_MOST_1, AT_MOST_0 = range(4)


def at_least(e, n):
    """The fact `lo[e] >= n` (n is 1 or 2)."""
    return 4 * e + n - 1


def at_most(e, n):
    """The fact `hi[e] <= n` (n is 0 or 1)."""
    return 4 * e + 3 - n


def fact_count(edges):
    """How many facts `edges` edges have: the length of a list indexed by fact."""
    return 4 * edges


def every_fact(e):
    """Edge e's four facts, from AT_MOST_0 down to AT_LEAST_1."""
    return range(4 * e + 3, 4 * e - 1, -1)


def edge(fact):
    """The edge a fact bounds."""
    return fact >> 2


def is_lower(fact):
    """Whether `fact` is a lower bound (`lo >= n`), not an upper one (`hi <= n`)."""
    return fact & 3 < 2


def bound(fact):
    """The count a fact bounds its edge by: n of `lo >= n` or of `hi <= n`."""
    kind = fact & 3
    return kind + 1 if kind < 2 else 3 - kind


def negate(fact):
    """The fact that holds exactly when `fact` does not."""
    kind = fact & 3
    return fact - kind + 3 - kind


def holds(lo, hi, fact):
    """Whether bounds `lo`, `hi` make `fact` hold."""
    kind = fact & 3
    if kind < 2:
        return lo[fact >> 2] > kind       # at least kind + 1
    return hi[fact >> 2] <= 3 - kind      # at most 3 - kind


def enforce(grid, fact):
    """Make `fact` hold (raises Contradiction if the bounds refuse it)."""
    e, kind = fact >> 2, fact & 3
    if kind < 2:
        grid.raise_lo(e, kind + 1)
    else:
        grid.lower_hi(e, 3 - kind)


def made_true(e, old_lo, old_hi, new_lo, new_hi):
    """The facts a bound change on edge e made true, strongest first."""
    if new_lo != old_lo:
        return [at_least(e, n) for n in range(new_lo, old_lo, -1)]
    return [at_most(e, n) for n in range(new_hi, old_hi)]


def bound_facts(grid, top, e, lows=True, highs=True):
    """The facts that state edge e's present bounds, leaving out what holds from the start
    (`top`, each edge's first upper bound)."""
    facts = []
    low, high = grid.lo[e], grid.hi[e]
    if lows and low:
        facts.append(at_least(e, low))
    if highs and high < top[e]:
        facts.append(at_most(e, high))
    return facts
