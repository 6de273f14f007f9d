"""`spoon2 hunt`: in process, with a stand-in for the match (the hunt's loop: hunting and
shrinking side by side, wrong answers before timeouts, a busy timeout no loss, the bounds),
then against real bots: one slow on big boards and wrong on small ones has its wrong answer
shrunk first; one wrong on any board with an 8 is shrunk to a small board, which the
printed command replays; a bot that wins is hunted for nothing. Last, the hunt's report
in a real browser, on a wide window and a phone."""

import re
import shlex
import subprocess
import sys
import threading
import time

import pytest

from tests.project import ROOT
from tests.referee.test_cli_fuzz import invoke
from tests.test_readme import help_options
from tests.fakebots.procs import no_process_left_behind, referee  # noqa: F401
from tests.referee.test_viewer_browser import browser  # noqa: F401

from referee.cli.args import spoon2_words
from referee.judge.board import load_board, parse_board
from referee.judge.limits import Limits
from referee.judge.result import MatchResult
from referee.judge.rules import Verdict, judge_text
from referee.lab.hunt.boards import SHAPES, Bounds, hunt_board
from referee.lab.hunt.chase import REPLAYS
from referee.lab.hunt.hunting import LOSSES, Plan, hunt
from referee.lab.hunt.matches import BotRuns
from referee.lab.hunt.report import Loss, write_report
from referee.lab.hunt.witness import Witness

FAKEBOTS = ROOT / "tests" / "fakebots"
HUNT_PAGE = ROOT / "docs" / "HUNT.md"
# Limits no busy machine makes a bot miss: these tests are about wrong links, not time.
CALM = ("--first-line-ms", "20000", "--turn-ms", "5000")


class Stand:
    """A stand-in for play_one: `rule(board)` gives each board's (verdict, busy), after
    `seconds` of sleep; every match is recorded as (name, islands), in order."""

    def __init__(self, rule, seconds: float = 0.0):
        self.rule, self.seconds = rule, seconds
        self.played: list[tuple[str, int]] = []
        self._lock = threading.Lock()

    def __call__(self, board, argv, limits, name, mode=None, stop=None):
        verdict, busy = self.rule(board)
        with self._lock:
            self.played.append((name, len(board.nodes)))
        time.sleep(self.seconds)
        return MatchResult(name=name, board=board, verdict=verdict, reason="stand-in", turn=1,
                           line=None, busy=busy)


def slow_and_eight(board, busy=False):
    """Late past 40 islands (`busy` says whose fault), a third link on an 8 below that."""
    if len(board.nodes) > 40:
        return Verdict.TIMEOUT, busy
    return (Verdict.THIRD_LINK if 8 in board.nodes.values() else Verdict.WIN), False


def stand_hunt(rule, jobs=1, seconds=0.0, **plan):
    stand = Stand(rule, seconds)
    runs = BotRuns(["bot"], Limits(), jobs=jobs, play=stand)
    told = []
    try:
        hunted = hunt(runs, Plan(**{"seed": 2, "seconds": 30.0, **plan}), told.append)
    finally:
        runs.close()
    return hunted, told, stand


@pytest.mark.slow
def test_a_wrong_answer_found_after_a_timeout_is_shrunk_and_told_first():
    # seed 2: board 12 (64 islands) is the first timeout, board 13 (32) the first 8
    hunted, told, stand = stand_hunt(slow_and_eight,
                                     verdicts=frozenset({Verdict.TIMEOUT, Verdict.THIRD_LINK}))
    assert [(loss.board, loss.verdict) for loss in told] == [
        (hunt_board(2, 13)[0], "third_link"), (hunt_board(2, 12)[0], "timeout")]
    third, timeout = told
    assert sorted(third.shrunk.islands.values()) == [2, 2, 2, 2, 8] and third.complete
    assert len(timeout.shrunk.islands) == 41 and timeout.complete
    assert third.replays_lost == timeout.replays_lost == REPLAYS
    # Every match played is counted once: boards, shrinks and replays.
    assert hunted.runs == len(stand.played) == hunted.boards + sum(
        loss.shrink_runs + len(loss.replays) for loss in told)


@pytest.mark.slow
def test_the_hunt_plays_on_while_a_timeout_is_shrunk():
    hunted, told, stand = stand_hunt(slow_and_eight, seconds=0.002, wanted=1,
                                     verdicts=frozenset({Verdict.TIMEOUT, Verdict.CRASH}))
    names = [name for name, _ in stand.played]
    first_shrink = names.index("shrink timeout")
    last_shrink = len(names) - 1 - names[::-1].index("shrink timeout")
    boards_between = [n for n in names[first_shrink:last_shrink] if not n.startswith("shrink")]
    shrinks = names.count("shrink timeout")
    # Half the slot's time each, counted in seconds: the boards, larger, take longer to
    # read than the candidates, the more so on a loaded machine, so fewer of them are played.
    assert shrinks / 10 <= len(boards_between) <= shrinks, (shrinks, len(boards_between))
    assert [loss.verdict for loss in told] == ["timeout"]


@pytest.mark.slow
def test_a_timeout_the_judge_marks_busy_is_no_loss():
    hunted, told, _ = stand_hunt(lambda board: slow_and_eight(board, busy=True),
                                 verdicts=frozenset({Verdict.TIMEOUT}), seconds=0.3)
    assert told == [] and hunted.undecided > 0 and Verdict.TIMEOUT not in hunted.seen


def test_a_busy_timeout_is_played_again_and_the_last_result_stands():
    answers = iter([(Verdict.TIMEOUT, True)] * 3 + [(Verdict.WIN, False)])
    runs = BotRuns(["bot"], Limits(), play=Stand(lambda board: next(answers)))
    witness = hunt_board(1, 0)[1]
    assert runs.play(witness, "a", busy_replays=1).verdict is Verdict.TIMEOUT
    again = runs.play(witness, "a", busy_replays=1)
    assert (again.verdict, again.replayed, runs.runs) == (Verdict.WIN, 1, 4)
    runs.close()


@pytest.mark.slow
def test_skipped_ways_to_lose_are_counted_not_chased():
    hunted, told, stand = stand_hunt(slow_and_eight, verdicts=LOSSES - {Verdict.TIMEOUT},
                                     wanted=1)
    assert [loss.verdict for loss in told] == ["third_link"]
    assert hunted.seen[Verdict.TIMEOUT] >= 1
    assert "shrink timeout" not in {name for name, _ in stand.played}


def test_the_loss_found_is_the_same_with_one_slot_or_three():
    found = []
    for jobs in (1, 3):
        _, told, _ = stand_hunt(slow_and_eight, jobs=jobs, wanted=1,
                                verdicts=frozenset({Verdict.THIRD_LINK}))
        found.append([(loss.board, loss.found, loss.shrunk) for loss in told])
    assert found[0] == found[1] and len(found[0]) == 1


def test_boards_grow_from_the_smallest_size_and_keep_to_their_bounds():
    sides = [hunt_board(1, i)[1] for i in range(3 * len(SHAPES))]
    assert all(w.width <= 6 and w.height <= 6 for w in sides[:len(SHAPES)])
    assert all(w.width <= 10 and w.height <= 10 for w in sides[len(SHAPES):])
    assert max(len(w.islands) for w in sides[2 * len(SHAPES):]) > max(
        len(w.islands) for w in sides[:len(SHAPES)])
    bounded = [hunt_board(1, i, Bounds(12, 9, islands=20))[1] for i in range(12 * len(SHAPES))]
    assert all(w.width <= 12 and w.height <= 9 and 2 <= len(w.islands) <= 20 for w in bounded)
    assert max(len(w.islands) for w in bounded) == 20


@pytest.fixture(scope="module")
def eight_hunt(tmp_path_factory):
    """The eight-bug bot hunted until its first loss is shrunk, two matches at once."""
    out = tmp_path_factory.mktemp("hunt")
    run = referee("hunt", "--bot", f"{FAKEBOTS / 'eight_bug.py'} {ROOT / 'bot'}", "--time", "110",
                  "--losses", "1", "--jobs", "2", "--out", str(out), *CALM, timeout=300)
    return run, out


@pytest.mark.slow
def test_a_wrong_link_on_an_eight_is_shrunk_to_a_small_board(eight_hunt):
    run, out = eight_hunt
    assert run.returncode == 1, run.stdout + run.stderr
    board = load_board(out / "third_link.txt")
    assert 8 in board.nodes.values() and 5 <= len(board.nodes) <= 9, board.to_text()
    solution = (out / "third_link.solution").read_text()
    assert judge_text(board, solution).won          # the board is a valid, solvable puzzle
    assert f"shrunk to {len(board.nodes)} islands" in run.stdout
    assert f"replayed {REPLAYS} times: lost {REPLAYS} of {REPLAYS} the same way" in run.stdout
    assert "LOST third_link: third_link at line" in run.stdout
    assert "third_link" in (out / "report.html").read_text()
    assert '"name":"third_link"' in (out / "report.play.html").read_text()   # its links


@pytest.mark.slow
def test_the_work_is_counted_in_bot_runs(eight_hunt):
    run, _ = eight_hunt
    shrunk = re.search(r"in [\d.]+ s and (\d+) bot runs: ", run.stdout)
    total = re.search(r"^hunt: hunted (\d+) boards in [\d.]+ s, (\d+) bot runs; 1 way\(s\) "
                      r"to lose: third_link \(\d islands\)$", run.stdout, flags=re.M)
    assert shrunk and total, run.stdout
    assert int(total.group(2)) == int(total.group(1)) + int(shrunk.group(1)) + REPLAYS


def replayed(run, verdict):
    """The printed command for `verdict`, run as printed from the checkout: its output."""
    loss = run.stdout[run.stdout.index(f"LOSS {verdict}:"):]
    line = next(line for line in loss.splitlines() if line.startswith("  replay: "))
    words = shlex.split(line.removeprefix("  replay: "))
    start = spoon2_words()
    assert words[:len(start) + 1] == [*start, "run"]
    return referee(*words[len(start):], "--quiet"), words


@pytest.mark.slow
def test_the_printed_replay_loses_the_same_way(eight_hunt):
    run, out = eight_hunt
    again, words = replayed(run, "third_link")
    assert words[-1] == str(out / "third_link.txt")
    assert words[words.index("--bot") + 1] == f"{FAKEBOTS / 'eight_bug.py'} {ROOT / 'bot'}"   # as given
    assert again.returncode == 1
    assert again.stdout.startswith("LOST third_link: third_link at line ")


@pytest.mark.slow
def test_a_slow_bot_has_its_wrong_answer_shrunk_first(tmp_path):
    # tests/fakebots/slow_and_wrong.py: late past 40 islands, a crossing on many small boards
    run = referee("hunt", "--bot", "tests/fakebots/slow_and_wrong.py bot/", "--time", "30",
                  "--seed", "1", "--out", str(tmp_path), timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    board = load_board(tmp_path / "crossing.txt")
    assert len(board.nodes) <= 15
    assert (board.width, board.height) == (len({x for x, _ in board.nodes}),
                                           len({y for _, y in board.nodes}))   # compacted
    lost = re.search(rf"replayed {REPLAYS} times: lost (\d) of {REPLAYS} the same way",
                     run.stdout[run.stdout.index("LOSS crossing:"):])
    assert lost and int(lost.group(1)) >= 2, run.stdout
    again, _ = replayed(run, "crossing")
    assert again.stdout.startswith("LOST crossing: crossing at line "), again.stdout


@pytest.mark.slow
def test_a_bot_that_wins_is_hunted_for_nothing(tmp_path):
    run = referee("hunt", "--time", "3", "--out", str(tmp_path), *CALM)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.fullmatch(r"hunt: hunted \d+ boards in [\d.]+ s, \d+ bot runs; 0 way\(s\) to "
                        r"lose: no loss\n", run.stdout)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, message", [
    (["--time", "0"], "argument --time: must be positive, got 0"),
    (["--time", "nan"], "argument --time: not a number: 'nan'"),
    (["--jobs", "0"], "argument --jobs: must be at least 1, got 0"),
    (["--bot", "./no-such-bot"], "bot program not found: ./no-such-bot"),
    (["--out", "-"], "argument --out: '-' is not stdout here: give a path"),
    (["--skip", "slow"], "argument --skip: not a way to lose: 'slow' (one of malformed, "
     "not_a_link, crossing, third_link, over_capacity, incomplete, disconnected, timeout, "
     "crash, memory)"),
    (["--verdicts", "win"], "argument --verdicts: not a way to lose: 'win' (one of malformed, "
     "not_a_link, crossing, third_link, over_capacity, incomplete, disconnected, timeout, "
     "crash, memory)"),
    (["--verdicts", "timeout", "--skip", "timeout"], "--skip leaves no way to lose to chase"),
    (["--max-islands", "1"], "argument --max-islands: must be at least 2, got 1"),
    (["--max-size", "2x10"], "argument --max-size: each side from 3 to 30, got 2x10"),
    (["--max-size", "10"], "argument --max-size: not a size WxH: '10'"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = invoke(["hunt", *argv])
    assert (status, out) == (2, "")
    assert err.endswith(f"{message}\n") and err.count("\n") == 1, err


@pytest.mark.slow
def test_the_hunt_page_lists_exactly_the_options_of_help():
    rows = [line.split("|")[1] for line in HUNT_PAGE.read_text().splitlines()
            if line.startswith("| `")]
    listed = {flag for row in rows for flag in re.findall(r"`(--?[a-z][a-z-]*)", row)}
    assert listed == help_options("hunt") - {"-h", "--help"}


@pytest.mark.slow
def test_the_help_shows_spoon2_examples():
    done = subprocess.run([sys.executable, "-m", "referee", "hunt", "--help"], cwd=ROOT,
                          capture_output=True, text=True)
    assert "  spoon2 hunt --bot ./a.out --time 120" in done.stdout


def judged(name: str, witness: Witness, lines: list[str]) -> MatchResult:
    """The match of a bot that prints `lines` on the witness's board, judged by the rules."""
    board = parse_board(witness.text)
    outcome = judge_text(board, "\n".join(lines) + "\n")
    return MatchResult(name=name, board=board, verdict=outcome.verdict, reason=outcome.reason,
                       turn=outcome.turn, line=outcome.line, lines=tuple(lines[:outcome.turn]),
                       latencies_s=(0.3,) + (0.001,) * (outcome.turn - 1))


def lost_on(witness: Witness, result: MatchResult) -> Loss:
    return Loss(board=result.name, found=witness, found_after_s=1.0, runs_to_find=1,
                shrunk=witness, result=result, shrink_s=1.0, shrink_runs=1, complete=True,
                replays=(result,) * REPLAYS)


@pytest.fixture(scope="module")
def hunt_page(tmp_path_factory):
    """A hunt's report: a crossing whose ring is on the right edge (the 3x3 board
    tests/fakebots/slow_and_wrong.py was shrunk to), an island over its value on the
    right edge of a 30x15 board, a timeout; the bot named by a long path."""
    out = tmp_path_factory.mktemp("page")
    cross = Witness(3, 3, ((0, 1, 0, 2, 1), (0, 2, 1, 2, 1), (1, 0, 1, 2, 1), (1, 2, 2, 2, 1),
                           (2, 1, 2, 2, 1)))
    wide = hunt_board(1, 61)[1]   # 0061_fill_30x15
    assert (wide.width, wide.height) == (30, 15)
    edge = next(link for link in wide.links if link[2] == 29 and wide.islands[link[2:4]] == 1)
    lines = [" ".join(map(str, (*edge[:4], 2)))]
    losses = [lost_on(cross, judged("crossing", cross, ["1 0 1 2 1", "0 1 2 1 1"])),
              lost_on(wide, judged("over_capacity", wide, lines)),
              lost_on(wide, MatchResult(name="timeout", board=parse_board(wide.text),
                                        verdict=Verdict.TIMEOUT, reason="no line within 1000 ms",
                                        turn=1, line=None))]
    assert [loss.verdict for loss in losses] == ["crossing", "over_capacity", "timeout"]
    bot = f"{sys.executable} {FAKEBOTS / 'slow_and_wrong.py'}"
    told = [(loss, out / f"{loss.verdict}.txt", f"spoon2 run --bot '{bot}' {loss.verdict}.txt")
            for loss in losses]
    return write_report(out, told, Limits(), bot=bot, title=f"spoon2 hunt of {bot}")


FITS = """
const ring = [...document.querySelectorAll('#offending circle')].map(c => {
  const r = c.r.baseVal.value + parseFloat(getComputedStyle(c).strokeWidth) / 2;
  return [c.cx.baseVal.value - r, c.cy.baseVal.value - r, c.cx.baseVal.value + r,
          c.cy.baseVal.value + r];
});
const box = document.getElementById('board').viewBox.baseVal;
const table = document.getElementById('matches');
return {page: document.scrollingElement.scrollWidth, window: innerWidth,
        table: table.scrollWidth, wrap: table.parentElement.clientWidth,
        rings: ring.length, cut: ring.filter(([x1, y1, x2, y2]) => x1 < box.x || y1 < box.y
          || x2 > box.x + box.width || y2 > box.y + box.height).length};
"""


@pytest.mark.slow
@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_the_hunt_report_fits_a_wide_window_and_a_phone(browser, hunt_page, width, height):
    browser.set_window_size(width, height)
    for index, rings in enumerate((2, 2, 0)):
        browser.get(f"{hunt_page.as_uri()}#{index}")
        browser.refresh()
        fits = browser.execute_script(FITS)
        assert fits["window"] == width
        assert fits["page"] <= fits["window"], fits          # no sideways scroll of the page
        assert (fits["rings"], fits["cut"]) == (rings, 0), fits
        if width >= 1280:
            assert fits["table"] <= fits["wrap"], fits       # every column in sight
