"""The lab's explainer: each rule on a small board made to need it, every step's bound
replayed, and the explainer's rules, an implementation apart from the bot's, checked against
the bot's answers and its rules.

The boards are small puzzles picked because their explanation uses the rule under test
(found by running explain on generated boards, then kept here as text).
"""

import ast

import pytest

import bot
from bot.options import DEFAULT
from bot.puzzle import parse
from bot.rules.engine import FULL
from bot.solver import rules_for
from referee.lab.explain import Step, explain, replay
from referee.lab.explain.engine import propagate, run
from referee.lab.explain.geometry import geometry
from referee.lab.explain.state import State
from tests.project import PUBLIC, ROOT, run_referee

HARD30 = ROOT / "puzzles" / "hard30"
RULES = {"magicVal", "sieve", "crossing", "isolation", "connectivity", "elimination", "search"}


def board(*rows):
    return "\n".join([str(len(rows[0])), str(len(rows)), *rows]) + "\n"


def first(steps, rule):
    return next(step for step in steps if step.rule == rule)


def test_magicval_a_five_with_three_directions_sends_a_link_each_way():
    steps = explain(board("...2", "2..3", "64..", "45.2"))
    step = steps[0]
    assert step == Step(6, ((1, 2), (1, 3)), "lo", 1, "magicVal", ((1, 3), (1, 2), (0, 3), (3, 3)),
                        "(1,3) needs 5 links from 3 directions, at most 2 each: "
                        "at least 1 link goes up")


def test_sieve_a_one_takes_at_most_one_link_each_way():
    step = first(explain(board("...", "21.", "21.")), "sieve")
    assert (step.ends, step.bound, step.value) == (((1, 1), (1, 2)), "hi", 1)
    assert step.sentence == "(1,2) is a 1: at most 1 link goes up"


def test_isolation_two_ones_never_link():
    step = first(explain(board("...", "21.", "21.")), "isolation")
    assert (step.ends, step.bound, step.value) == (((1, 1), (1, 2)), "hi", 0)
    assert step.sentence == ("(1,1) and (1,2) are a 1 and a 1: 1 link between them would leave "
                             "the pair cut off from the other 2 island(s): at most 0")


def test_crossing_a_sure_link_blocks_the_edge_it_crosses():
    steps = explain(board("4.3.", "2..1", "..22", "...."))
    step = first(steps, "crossing")
    assert (step.ends, step.bound, step.value) == (((0, 1), (3, 1)), "hi", 0)
    assert step.sentence == "the link (2,0)-(2,2) crosses (0,1)-(3,1): no link can go there"
    # The crossing link was made sure just before.
    drawn = steps[steps.index(step) - 1]
    assert (drawn.ends, drawn.bound) == (((2, 0), (2, 2)), "lo")
    assert set(step.nodes) == {(0, 1), (3, 1), (2, 0), (2, 2)}


def test_connectivity_a_bridge_of_the_possible_links_is_drawn():
    step = first(explain(board("2...2", ".2.2.", "...2.", "43.1.", "3...3")), "connectivity")
    assert (step.ends, step.bound, step.value) == (((0, 3), (1, 3)), "lo", 1)
    assert step.sentence == ("every way from the 5 island(s) on (1,3)'s side to the other 5 "
                             "goes through (0,3)-(1,3): at least 1 link goes there")


def test_elimination_says_what_it_assumed_and_what_refuted_it():
    step = first(explain(board(".222", "....", "...1", ".3.2")), "elimination")
    assert (step.ends, step.bound, step.value) == (((1, 0), (2, 0)), "lo", 1)
    assert step.assumption == "(1,0)-(2,0) had no link"
    assert step.contradiction == ("the group of 4 island(s) around (1,0) would be complete and "
                                  "cut off from the other 2")
    assert step.sentence.startswith("if (1,0)-(2,0) had no link, after 6 forced change(s), ")


def test_search_takes_the_solvers_answer_only_when_nothing_else_decides():
    text = board("...", ".32", ".21")          # two solutions: no deduction can choose
    steps = explain(text)
    step = first(steps, "search")
    assert step.sentence.startswith("no rule applies and no single assumption is refuted")
    assert sorted(replay(text, steps)) == sorted(bot.solve(text))


PUZZLES = sorted(PUBLIC.glob("*.txt")) + sorted(HARD30.glob("*_00[0-2].txt"))
EVERY = sorted(PUBLIC.glob("*.txt")) + sorted(HARD30.glob("*.txt"))


@pytest.mark.slow
@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.stem)
def test_replaying_every_steps_bound_gives_the_solvers_answer(path):
    text = path.read_text()
    steps = explain(text)
    assert sorted(replay(text, steps)) == sorted(bot.solve(text))   # replay checks each narrows
    assert {step.rule for step in steps} <= RULES
    for step in steps:
        assert set(step.ends) <= set(step.nodes) and step.sentence
        assert (step.assumption is not None) == (step.rule == "elimination")


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in PUZZLES if "multiple" not in p.stem and p.stem != "11_cg"],
                         ids=lambda p: p.stem)
def test_on_a_unique_puzzle_every_deduction_holds_for_the_solution(path):
    text = path.read_text()
    solution = {((x1, y1), (x2, y2)): n for x1, y1, x2, y2, n in bot.solve(text)}
    assert bot.count_solutions(text, limit=2) == 1
    for step in explain(text):
        links = solution.get(step.ends, 0)
        assert links >= step.value if step.bound == "lo" else links <= step.value, step


def test_replay_refuses_a_step_that_widens_a_bound():
    text = board("...", "21.", "21.")
    steps = explain(text)
    widened = Step(steps[0].edge, steps[0].ends, "hi", 2, "sieve", (), "")
    with pytest.raises(ValueError, match="does not lower hi"):
        replay(text, steps[:1] + [widened])


def test_an_unsolvable_puzzle_says_why():
    with pytest.raises(bot.Unsolvable, match=r"no solution: \(0,0\) would need 2 links but could "
                                             r"take at most 1"):
        explain(board("2.1"))


# The public puzzles the rules and single assumptions decide, with no search step.
DEDUCED = [p for p in sorted(PUBLIC.glob("*.txt"))
           if p.stem not in ("09_multiple_solutions_1", "11_cg", "12_multiple_solutions_2")]


@pytest.mark.parametrize("path", DEDUCED, ids=lambda p: p.stem)
def test_the_explainers_deductions_alone_reach_the_bots_answer(path):
    text = path.read_text()

    def no_search():
        raise AssertionError("the explainer asked for the solver's answer")

    steps = run(geometry(text), no_search)
    assert sorted(replay(text, steps)) == sorted(bot.solve(text))


@pytest.mark.parametrize("path", EVERY, ids=lambda p: p.stem)
def test_the_bots_rules_prove_every_bound_the_explainers_rules_prove(path):
    text = path.read_text()
    rules = rules_for(text, DEFAULT)
    rules.propagate(FULL, bot.Stats())
    state = State(geometry(text), record=False)
    propagate(state)
    lo, hi = rules.grid.lo, rules.grid.hi
    assert [e for e in range(len(lo)) if lo[e] < state.lo[e] or hi[e] > state.hi[e]] == []


@pytest.mark.parametrize("path", EVERY, ids=lambda p: p.stem)
def test_the_explainers_geometry_is_the_bots(path):
    text = path.read_text()
    ours, bots = geometry(text), parse(text)
    for name in ("pos", "value", "ends", "crossings", "node_edges", "edges_at"):
        assert getattr(ours, name) == getattr(bots, name), name


def test_the_explainer_takes_of_the_bot_only_its_public_solve():
    found = set()
    for path in (ROOT / "referee" / "lab" / "explain").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module.split(".")[0] == "bot":
                found |= {(node.module, alias.name) for alias in node.names}
            elif isinstance(node, ast.Import):
                assert not [a.name for a in node.names if a.name.split(".")[0] == "bot"]
    assert found == {("bot.solver", "solve"), ("bot.solver", "Unsolvable")}


@pytest.mark.slow
def test_the_explain_command_numbers_the_steps_and_draws_the_board_at_step_n():
    run = run_referee("explain", "puzzles/public/02_simpler.txt", "--step", "1", "--colour", "never")
    assert run.returncode == 0, run.stderr
    assert run.stdout == (
        "   1  magicVal      (0,1)-(1,1) >= 2  (1,1) is a 2 with one neighbour: 2 links go left\n"
        "\nstep 1 of 2: magicVal 1\n"
        "2 .\n\n4=2\n"
        "2 island(s) still short of links\n")
    full = run_referee("explain", "puzzles/public/13_expert.txt", "--colour", "never")
    assert full.returncode == 0 and full.stdout.rstrip().endswith("every island is full: solved")


@pytest.mark.parametrize("args, message", [
    (["puzzles/public/02_simpler.txt", "--step", "3"], "--step must be 0..2 for this puzzle, got 3"),
    (["no/such.txt"], "no/such.txt: cannot read"),
])
@pytest.mark.slow
def test_the_explain_command_rejects_bad_input_in_one_line(args, message):
    run = run_referee("explain", *args)
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr


@pytest.mark.slow
def test_the_explain_command_on_an_unsolvable_puzzle(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(board("2.1"))
    run = run_referee("explain", str(path))
    assert run.returncode == 1
    assert run.stderr == ("explain: the puzzle has no solution: (0,0) would need 2 links but "
                          "could take at most 1\n")
