"""How `python -m referee` and `run` refuse what they would get wrong: a mistyped or
abbreviated option, two outputs at one path, an output named `-`, a puzzle or --gen
SPEC named twice. Each is one line on stderr, exit status 2."""

import json
import shlex
from pathlib import Path

import pytest

from referee.cli.main import main
from referee.cli import COMMANDS
from tests.fakebots.procs import no_process_left_behind, referee  # noqa: F401

from tests.project import ROOT

SIMPLEST = "puzzles/public/01_simplest.txt"
# A positional argument for the commands that need one before they look at the options.
NEEDS_PUZZLE = {"show", "explain"}
NEEDS_IDS = {"compare"}   # two run ids


def usage_error(capsys, argv) -> str:
    """main(argv) must stop with exit status 2 (from argparse or a UsageError); its one
    line on stderr."""
    try:
        status = main(argv)
    except SystemExit as stopped:
        status = stopped.code
    assert status == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1, err
    return err.rstrip("\n")


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_unknown_option_is_named_with_its_command(capsys, command):
    puzzle = [SIMPLEST] if command in NEEDS_PUZZLE else ["1", "2"] if command in NEEDS_IDS else []
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


SILENT = f"python3 {ROOT / 'tests' / 'fakebots' / 'silent.py'}"


@pytest.mark.parametrize("outputs, message", [
    (["--json", "r.json", "--csv", "r.json"],
     "--csv {tmp}/r.json is the same file as --json {tmp}/r.json"),
    (["--html", "r.json", "--json", "sub/../r.json"],
     "--html {tmp}/r.json is the same file as --json {tmp}/sub/../r.json"),
    (["--json", "r.play.html", "--html", "r.html"],   # the page of lost matches beside r.html
     "the --html page of lost matches {tmp}/r.play.html is the same file as "
     "--json {tmp}/r.play.html"),
])
def test_two_outputs_at_one_path_are_refused_before_any_match(capsys, tmp_path, outputs,
                                                               message):
    (tmp_path / "sub").mkdir()
    argv = ["run", "--bot", SILENT, "--first-line-ms", "100", SIMPLEST,
            *[str(tmp_path / o) if not o.startswith("--") else o for o in outputs]]
    assert usage_error(capsys, argv) == "python -m referee run: error: " + \
        message.format(tmp=tmp_path) + ": give each output its own path"
    assert [p.name for p in tmp_path.iterdir()] == ["sub"]


def test_a_file_at_the_out_folders_path_is_refused_before_any_puzzle_is_written(capsys,
                                                                                  tmp_path):
    out = str(tmp_path / "g")
    argv = ["run", "--bot", SILENT, "--gen", "3x3:count=1", "--out", out, "--json", out]
    assert usage_error(capsys, argv) == (f"python -m referee run: error: --json {out} is the "
                                         f"same file as --out {out}: give each output its "
                                         "own path")
    assert list(tmp_path.iterdir()) == []


def test_the_help_names_the_second_page_html_writes(capsys):
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "also FILE with the suffix .play.html" in help_text     # the --html option
    assert "FILE with the suffix .play.html (r.html: r.play.html)" in help_text


@pytest.mark.slow
def test_sets_that_differ_only_in_density_keep_their_own_names_and_files(tmp_path):
    out, report = tmp_path / "gen", tmp_path / "r.json"
    run = referee("run", "--bot", SILENT, "--first-line-ms", "100", "--quiet",
                  "--gen", "5x5:count=1", "--gen", "5x5:count=1:density=0.6",
                  "--gen", "6x6:count=1:density=0.6", "--out", str(out), "--json", str(report))
    assert run.returncode == 1, run.stderr
    matches = json.loads(report.read_text())["matches"]
    # A set alone under its name keeps gen's name, as bench --gen gives it.
    assert [m["puzzle"] for m in matches] == ["5x5_any_s1_000", "5x5_any_s1_density0.6_000",
                                              "6x6_any_s1_000"]
    assert matches[0]["input"] != matches[1]["input"]        # two boards, so two files
    for m in matches:   # each replay plays the board that was lost, from its own file
        assert m["path"] == str(out / f"{m['puzzle']}.txt")
        assert Path(m["path"]).read_text() == m["input"]
        assert m["replay"].endswith(m["path"])
    assert len(list(out.iterdir())) == 6                      # .txt and .solution each


@pytest.mark.parametrize("named, message", [
    (["--gen", "5x5:count=1", "--gen", "5x5:count=1"], "--gen 5x5:count=1 is named twice"),
    (["--gen", "5x5", "--gen", "5x5:count=3:seed=1"],
     "--gen 5x5:count=3:seed=1 makes the boards of --gen 5x5 (count and attempts say only "
     "how many)"),
    ([SIMPLEST, SIMPLEST], f"{SIMPLEST} is named twice"),
    (["puzzles/public", "puzzles/public/"], "puzzles/public/ is named twice"),
    (["puzzles/public", SIMPLEST], f"{SIMPLEST} is named twice"),   # in the folder too
])
def test_a_puzzle_folder_or_spec_named_twice_is_refused(capsys, monkeypatch, named, message):
    monkeypatch.chdir(ROOT)
    argv = ["run", "--bot", SILENT, "--first-line-ms", "100", *named]
    assert usage_error(capsys, argv) == f"python -m referee run: error: {message}"


@pytest.mark.slow
def test_a_lost_match_in_a_set_of_several_says_its_replay_plays_the_whole_set():
    run = referee("run", "--bot", SILENT, "--first-line-ms", "100", "--gen", "6x6:count=2:seed=2")
    assert run.returncode == 1, run.stderr
    replays = [line.removeprefix("  replay: ") for line in run.stdout.splitlines()
               if line.startswith("  replay: ")]
    assert [r.partition("  # ")[2] for r in replays] == [
        f"plays all 2 of its set: add --out DIR to write 6x6_any_s2_00{k}.txt and get a "
        "replay of just this one" for k in range(2)]
    # The note is a shell comment: the line still runs as it stands.
    assert shlex.split(replays[0], comments=True)[-2:] == ["--gen", "6x6:count=2:seed=2"]


@pytest.mark.slow
def test_a_gen_set_short_of_its_count_says_so_even_when_quiet():
    run = referee("run", "--bot", "python3 dist/bot.py", "--quiet",
                  "--gen", "4x4:unique:count=30:attempts=40")
    assert run.returncode == 0, run.stderr       # the boards found are played and won
    assert ("run: --gen 4x4:unique:count=30:attempts=40: only 25 of 30 puzzles found within "
            "the attempts; playing those") in run.stderr
    assert run.stdout.strip().splitlines()[-1] == "25 passed, 0 failed"
