"""The README's examples, and the lab page's (docs/LAB.md), run as written and print what
they quote: none can go stale.

What the pages show, and how each kind is checked:
- a ```console block: `$ COMMAND` lines, each followed by the output it quotes. The command
  is run and its stdout must match the quote line for line, where
    * a line `...` stands for any number of lines, and `...` inside a line for any text;
    * a decimal figure (`73.7`, `1,234.5`, with its `!` marks if any) stands for any
      decimal figure: times and memory vary from run to run, counts do not;
    * a run of spaces stands for any run of spaces (columns widen with the figures).
  The command must exit 0. After a line `$ cd ~/hashi` (not run), the block's commands run
  in a player's folder outside the checkout, holding their bot as bot.py (a copy of the
  bundle), as a player runs them from their own bot's folder.
- a ```sh block: one command a line, each run and required to exit 0, unless listed in
  COVERED_ELSEWHERE with the test that covers it (the slow ones).
- the ```python block: a doctest, run as it stands.
- each command's flag table: the flags it lists are exactly those of the command's --help.

`spoon2` (the console script `make run` installs, on PATH as the README's set-up puts it)
is run as `python -m referee` and `.venv/bin/python` as this interpreter, so the test does
not depend on the script being installed. Other commands run in a scratch copy of the
checkout (its committed files linked), so what they write never lands in the repository.
"""

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import PurePosixPath

import pytest

from tests.project import ROOT

README_PATH = ROOT / "README.md"
README = README_PATH.read_text()
LAB_PAGE = ROOT / "docs" / "LAB.md"
PAGES = README + "\n" + LAB_PAGE.read_text()
SCRIPT, PYTHON = "spoon2", ".venv/bin/python"
PLAYER = "cd ~/hashi"   # a console line: what follows runs in a player's own bot folder
WRITES = {"--out", "--json", "--html", "--csv", ">"}   # the argument after these is an output
MAX_BYTES = 15 * 1024

# Commands the README shows that take minutes: the tests that cover what they do.
COVERED_ELSEWHERE = {
    "make run": "tests/bot/test_build.py (the bundle is current) and "
                "tests/bot/test_bot_end_to_end.py::test_command_solves_every_public_test",
    "make test": "the test suite itself",
    "spoon2 stress-gen --seed 1 --out puzzles/stress":
        "tests/lab/test_stress.py::test_the_command_rewrites_the_committed_suite",
}
# Options of a --help that a flag table leaves out on purpose.
UNLISTED = {"-h", "--help", "--color", "--max-builds"}


def _blocks():
    """(language, text) of each fenced block of the README and the lab page."""
    blocks, language, lines = [], None, []
    for line in PAGES.splitlines():
        if not line.startswith("```"):
            lines.append(line)
        elif language is None:
            language, lines = line[3:].strip(), []
        else:
            blocks.append((language, "\n".join(lines)))
            language = None
    return blocks


def _commands():
    """(command, quoted output or None, True where it runs in the player's folder) for each
    command the pages show."""
    found = []
    for language, text in _blocks():
        if language == "sh":
            found += [(line.split("  #")[0].strip(), None, False)
                      for line in text.splitlines() if line.strip()]
        elif language == "console":
            parts = re.split(r"^\$ (.*)$", text, flags=re.M)
            assert not parts[0].strip(), f"output before any command: {parts[0]!r}"
            player = False
            for i in range(1, len(parts), 2):
                command = parts[i].split("  #")[0].strip()
                if command == PLAYER:
                    player = True
                    continue
                found.append((command, parts[i + 1].strip("\n"), player))
    return found


COMMANDS = [(c, shown) for c, shown, _ in _commands()]
RUN = [entry for entry in _commands() if entry[0] not in COVERED_ELSEWHERE]


def _words(command):
    """Every word of a command, the words of quoted --bot commands included."""
    words = shlex.split(command, comments=True)
    inner = [w for w in words if " " in w]
    return words + [part for w in inner for part in shlex.split(w)]


def _committed():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    return set(listed.stdout.split())


def expected(shown):
    """The quoted output as a pattern for the whole of stdout (see the module's doc)."""
    pattern = ""
    for line in shown.split("\n"):
        if line == "...":
            pattern += r"(?:.*\n)*?"
            continue
        for token in re.split(r"(\.\.\.|\d[\d,]*\.\d+!*| +)", line):
            if token == "...":
                pattern += ".*?"
            elif re.fullmatch(r"\d[\d,]*\.\d+!*", token):
                pattern += r"\d[\d,]*\.\d+!*"
            elif token and not token.strip(" "):
                pattern += " +"
            else:
                pattern += re.escape(token)
        pattern += r"\n"
    return re.compile(pattern + r"\Z")


def test_the_pattern_lets_figures_vary_and_nothing_else():
    quote = "a  1.5 ms  7 runs\n...\nend ... here"
    assert expected(quote).match("a 12.25!! ms  7 runs\nx\ny\nend of it here\n")
    assert expected(quote).match("a 1.5 ms 7 runs\nend  here\n")
    assert not expected(quote).match("a 1.5 ms  8 runs\nend here\n")      # a count differs
    assert not expected(quote).match("a 1.5 ms  7 runs\nend here\nmore\n")  # an extra line
    assert not expected(quote).match("a 15 ms  7 runs\nend here\n")       # not a decimal


def test_the_readme_is_short_and_shows_commands_to_check():
    assert len(README.encode()) <= MAX_BYTES
    assert len(RUN) >= 10
    assert sum(shown is not None for _, shown in COMMANDS) >= 6


def test_what_is_covered_elsewhere_is_still_in_the_readme():
    shown = {command for command, _ in COMMANDS}
    assert set(COVERED_ELSEWHERE) <= shown, set(COVERED_ELSEWHERE) - shown


def test_commands_are_spelled_as_the_set_up_installs_them():
    # spoon2 on PATH, the venv's Python named; a bot's own command (--bot "python3 bot.py") aside
    wrong = [c for c, _ in COMMANDS if any(w in ("python", "python3", ".venv/bin/spoon2")
                                           for w in shlex.split(c, comments=True))
             or "-m referee" in c]
    assert not wrong, wrong


def test_every_file_a_command_reads_is_committed():
    committed = _committed()
    folders = {str(parent) for f in committed for parent in PurePosixPath(f).parents}
    missing = []
    for command, _ in COMMANDS:
        words = _words(command)
        for before, word in zip([""] + words, words):
            named = {word.rstrip("/"), f"puzzles/{word}", f"puzzles/{word}.txt"}   # run finds those
            if ("/" in word and " " not in word and before not in WRITES
                    and not word.startswith((".venv/", "-"))
                    and not named & (committed | folders)):
                missing.append(f"{word} in: {command}")
    assert not missing, missing


def test_every_link_leads_to_a_file():
    links = [link for link in re.findall(r"\]\(([^)#]+)\)", README) if not link.startswith("http")]
    assert "docs/RULES.md" in links
    missing = [link for link in links if not (ROOT / link).exists()]
    assert not missing, missing


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A scratch directory holding links to the checkout's committed top-level entries."""
    where = tmp_path_factory.mktemp("clone")
    for name in sorted({PurePosixPath(f).parts[0] for f in _committed()}):
        (where / name).symlink_to(ROOT / name)
    return where


@pytest.fixture(scope="module")
def player(tmp_path_factory):
    """A player's bot folder outside the checkout: their bot as bot.py, their own history."""
    folder = tmp_path_factory.mktemp("home") / "hashi"
    folder.mkdir()
    (folder / "bot.py").write_text((ROOT / "dist" / "bot.py").read_text())
    return folder


def _shell(command):
    """The command for bash, with the project's script and interpreter as this test runs them."""
    python = shlex.quote(sys.executable)
    # -P: the working folder stays off the path, as for the installed script, so a player's
    # bot.py is never taken for the bot package
    spelled = {SCRIPT: f"{python} -P -m referee", PYTHON: python}
    pattern = r"(?<![\w/.-])(spoon2|\.venv/bin/python)(?![\w.-])"
    return re.sub(pattern, lambda m: spelled[m.group(1)], command)


@pytest.mark.slow
@pytest.mark.parametrize("command, shown, in_player", RUN, ids=[c[:70] for c, _, _ in RUN])
def test_the_command_runs_and_prints_what_the_page_quotes(command, shown, in_player, checkout,
                                                          player):
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(checkout),
           "XDG_DATA_HOME": str(player.parent / "data"),
           "SPOON2_HISTORY": str(player.parent / "history.sqlite")}   # the pages' runs alone
    run = subprocess.run(["bash", "-c", _shell(command)], cwd=player if in_player else checkout,
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    if shown is not None:
        assert expected(shown).match(run.stdout), run.stdout


def help_options(command):
    argv = ([sys.executable, "build.py"] if command == "build.py"
            else [sys.executable, "-m", "referee", command])
    text = subprocess.run(argv + ["--help"], cwd=ROOT, capture_output=True, text=True).stdout
    return set(re.findall(r"(?:^|[ ,])(--?[a-z][a-z-]*)", text.split("options:")[1], flags=re.M))


def _tables():
    """{command: the flags its README table lists}, for each `### `COMMAND`` section."""
    tables = {}
    for command, body in re.findall(r"^### `([a-z.-]+)`:.*?\n(.*?)(?=^##)", PAGES + "\n##",
                                    flags=re.M | re.S):
        rows = [line.split("|")[1] for line in body.splitlines() if line.startswith("| `")]
        tables[command] = {flag for row in rows for flag in re.findall(r"`(--?[a-z][a-z-]*)", row)}
    return tables


def test_each_command_has_a_flag_table():
    assert set(_tables()) == {"run", "show", "hunt", "gen", "bench", "profile", "explain",
                              "play", "stress-gen", "build.py"}


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(_tables()))
def test_the_flag_table_lists_exactly_the_options_of_help(command):
    listed = _tables()[command]
    assert listed == help_options(command) - UNLISTED


def test_the_library_example_is_current():
    example = "".join(text + "\n" for language, text in _blocks() if language == "python")
    test = doctest.DocTestParser().get_doctest(example, {}, "README", "README.md", 0)
    assert len(test.examples) >= 4
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    cwd = os.getcwd()
    os.chdir(ROOT)  # the example opens puzzles by relative path
    try:
        runner.run(test)
    finally:
        os.chdir(cwd)
    assert runner.failures == 0, f"{runner.failures} README example(s) differ from the bot"
