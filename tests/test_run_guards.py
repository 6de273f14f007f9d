"""How `python -m referee` and `run` refuse what they would get wrong: a mistyped or
abbreviated option, two outputs at one path, an output named `-`, a puzzle or --gen
SPEC named twice. Each is one line on stderr, exit status 2."""

import pytest

from referee.__main__ import main
from referee.commands import COMMANDS

SIMPLEST = "puzzles/public/01_simplest.txt"
# A positional argument for the commands that need one before they look at the options.
NEEDS_PUZZLE = {"show", "explain"}


def usage_error(capsys, argv) -> str:
    """main(argv) must stop with exit status 2; its one line on stderr."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1, err
    return err.rstrip("\n")


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_unknown_option_is_named_with_its_command(capsys, command):
    puzzle = [SIMPLEST] if command in NEEDS_PUZZLE else []
    assert usage_error(capsys, [command, *puzzle, "--bogus-flag"]) == \
        f"python -m referee {command}: error: unrecognized arguments: --bogus-flag"


@pytest.mark.parametrize("option, unknown", [
    (["--jso", "{tmp}/x.json"], "--jso"),      # not taken for --json
    (["--qui"], "--qui"),                      # not taken for --quiet
])
def test_an_abbreviated_option_is_a_typo(capsys, tmp_path, option, unknown):
    # A bot that cannot start: taken as the option, the typo would fail on that instead.
    argv = ["run", "--bot", "no-such-program-xyz", *[o.format(tmp=tmp_path) for o in option]]
    assert usage_error(capsys, argv) == \
        f"python -m referee run: error: unrecognized arguments: {unknown}"
    assert list(tmp_path.iterdir()) == []


def test_the_top_level_takes_no_abbreviation_either(capsys):
    assert "error:" in usage_error(capsys, ["--hel"])    # not taken for --help


@pytest.mark.parametrize("option", ["--json", "--csv", "--html", "--out"])
@pytest.mark.parametrize("path, why", [("-", "'-' is not stdout here: give a path"),
                                       ("", "the path is empty")], ids=["dash", "empty"])
def test_an_output_named_dash_or_nothing_is_refused(capsys, tmp_path, monkeypatch, option,
                                                     path, why):
    monkeypatch.chdir(tmp_path)       # where a file named `-` would have gone
    argv = ["run", "--bot", "no-such-program-xyz", option, path, "--gen", "5x5:count=1"]
    assert usage_error(capsys, argv) == f"python -m referee run: error: argument {option}: {why}"
    assert list(tmp_path.iterdir()) == []
