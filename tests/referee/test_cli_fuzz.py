"""Random bytes and random argument lists against run, show, gen and bench: every one ends
with exit 0, 1 or 2, never a traceback, and a usage error (2) is one line on stderr.

The commands run in-process (`referee.cli.main.main`), so hundreds of cases take seconds.
Values are drawn from a pool of the awkward (non-ASCII digits, inf, nan, huge numbers,
escape codes) and the ordinary, so some cases get past the checks and really run: small
settings are put first so such a case stays quick.
"""

import contextlib
import io
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hypothesis import HealthCheck, given, settings, strategies as st

from bot.puzzle import parse as bot_parse
from referee.cli.main import main
from referee.judge.board import BoardError, parse_board
from referee.judge.rules import Verdict, judge_text

OPTIONS = {
    "run": ["--bot", "--first-line-ms", "--turn-ms", "--jobs", "--json", "--html", "--quiet",
            "--contain", "--gen", "--csv", "--colour"],
    "show": ["--links", "--upto", "--colour"],
    "gen": ["--size", "--count", "--seed", "--density", "--difficulty", "--unique", "--out",
            "--attempts", "--work", "--repairs", "--climb", "--join", "--double"],
    "bench": ["--gen", "--repeat", "--timeout", "--json", "--compare", "--bundle",
              "--startup-runs"],
}
# What keeps a case quick when its arguments happen to be valid (later arguments win).
QUICK = {
    "run": ["--bot", "/bin/false"],
    "show": [],
    "gen": ["--count", "1", "--attempts", "2", "--size", "5x5"],
    "bench": ["--startup-runs", "0", "--repeat", "1"],
}
AWKWARD = ["", "0", "1", "2", "-1", "3", "0.5", "inf", "-inf", "nan", "1e309", "1_000", "²",
           "٣", "３", "3x3", "2x2", "1x1", "٣x3", "9" * 5000, "\x1b[2J\x07", "a b", "-",
           "auto", "subreaper", "never", "hard", "3x3:easy:count=1", "30x30:count=٣", "/",
           "/nonexistent/x.txt", "puzzles/public/01_simplest.txt", "\t", "x\u202ey"]

values = st.one_of(st.sampled_from(AWKWARD), st.text(max_size=12))


def invoke(argv):
    """main(argv) with stdout and stderr captured: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exit:
            status = exit.code if isinstance(exit.code, int) else 2
    return status, out.getvalue(), err.getvalue()


def check(argv):
    status, out, err = invoke(argv)
    assert status in (0, 1, 2), (argv, status, err)
    assert "Traceback" not in err
    if status == 2:
        assert len(err.strip().splitlines()) == 1, (argv, err)
        assert "error: " in err


@st.composite
def arguments(draw, command):
    args = []
    for _ in range(draw(st.integers(0, 4))):
        args.append(draw(st.sampled_from(OPTIONS[command])))
        if draw(st.booleans()):
            args.append(draw(values))
    return args


FILE_TEXT = st.one_of(
    st.binary(max_size=200),
    st.text(alphabet="0123456789.\n\r\t 12x٣²\u00a0\x0b\x0c", max_size=60).map(str.encode))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(command=st.sampled_from(sorted(OPTIONS)), data=st.data(), content=FILE_TEXT,
       suffix=st.sampled_from([".txt", ".json"]))
def test_random_files_and_arguments_never_give_a_traceback(command, data, content, suffix):
    with tempfile.TemporaryDirectory(prefix="referee-fuzz-") as tmp:
        puzzle = Path(tmp) / f"p{suffix}"
        puzzle.write_bytes(content)
        args = data.draw(arguments(command))
        if command == "gen":
            args = [*QUICK[command], *args, "--out", str(Path(tmp) / "out")]
            if "--json" in args:
                args.remove("--json")
        else:
            args = [*QUICK[command], *args, str(puzzle)]
        if command == "show":
            args = [str(puzzle), *args[:-1]]
        with contextlib.chdir(tmp):   # a random output name lands in the scratch folder
            check([command, *args])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789.\n\r\t 1\u00a0\x0b٣", max_size=40))
def test_the_bot_reads_every_puzzle_the_referee_accepts_the_same_way(text):
    try:
        board = parse_board(text)
    except BoardError:
        return
    puzzle = bot_parse(text)
    assert (puzzle.width, puzzle.height) == (board.width, board.height)
    assert dict(zip(puzzle.pos, puzzle.value)) == dict(board.nodes)


def test_a_grid_with_no_island_is_rejected_by_both():
    text = "3\n2\n...\n...\n"
    with pytest.raises(BoardError, match="no island"):
        parse_board(text)
    bot = subprocess.run([sys.executable, "-m", "bot"], input=text, capture_output=True,
                         text=True, timeout=60, cwd=Path(__file__).parents[2])
    assert (bot.returncode, bot.stdout) == (2, "")
    assert bot.stderr == "bot: malformed puzzle: the grid has no island\n"


def test_known_holes_are_usage_errors():
    for argv in (["show", "puzzles/public/01_simplest.txt", "--upto", "٣"],
                 ["run", "--first-line-ms", "inf"],
                 ["gen", "--size", "2x2", "--unique", "--count", "1", "--out",
                  tempfile.mkdtemp(prefix="referee-fuzz-")],
                 ["bench", "--timeout", "inf"]):
        status, _, err = invoke(argv)
        assert status == 2 and len(err.strip().splitlines()) == 1, (argv, err)


@pytest.mark.parametrize("line", ["０ 0 2 0 1", "0\u00a00 2 0 1", "0\x0b0 2 0 1", "0\x0c0 2 0 1",
                                  "٠ 0 2 0 1", "0 0 2 0 1\x1b", "9" * 5000 + " 0 2 0 1"])
def test_only_ascii_digits_and_blanks_make_a_link(line):
    board = parse_board("3\n3\n1.2\n...\n..1\n")
    assert judge_text(board, line + "\n").verdict is Verdict.MALFORMED
    assert judge_text(board, "0 \t0 2  0 1\r\n2 0 2 2 1\n").verdict is Verdict.WIN


def test_control_characters_in_a_file_name_are_escaped(tmp_path):
    puzzle = tmp_path / "evil\x1b]0;pwned\x07\r13 passed.txt"
    puzzle.write_text("3\n3\n1.2\n...\n..1\n")
    links = tmp_path / "links.txt"
    links.write_text("0 0 2 0 1\x1b[2J\n")
    for argv in (["show", str(puzzle), "--links", str(links), "--colour", "never"],
                 ["show", str(tmp_path / "missing\x1b[2J.txt")],
                 ["run", "--bot", "/bin/false", "--bot", "/bin/false", str(puzzle)]):
        status, out, err = invoke(argv)
        assert status in (1, 2)
        assert "\x1b" not in out + err and "\x07" not in out + err and "\r" not in out + err
        assert "\\e" in out + err


@pytest.mark.parametrize("flag", ["--json", "--csv", "--html", "--out"])
def test_an_output_named_with_a_nul_byte_is_a_usage_error(flag):
    # no command line can hold one, but main() is called with a list too
    status, out, err = invoke(["run", "--quiet", flag, "a\0b", "puzzles/public/01_simplest.txt"])
    assert status == 2 and out == ""
    assert "holds a NUL byte" in err and len(err.strip().splitlines()) == 1
