"""The README stands alone: its examples run as written, on files a clone has.

The library example is a doctest. Every command in a ```sh block, and every `$ command`
shown with its output, must name only committed files (or files the command itself
writes) and spell the interpreter one way, `.venv/bin/python`, as `make run` creates it.
The quick, deterministic commands are run, and where the README shows their output, the
output must be what they print today.
"""

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import PurePosixPath

import pytest

from project import ROOT

README = (ROOT / "README.md").read_text()
PYTHON = ".venv/bin/python"
WRITES = {"--out", "--json", "--html", "--csv", ">"}   # the argument after these is an output
QUICK = ("referee show", "dist/bot.py <", "-m bot <", "build.py --check")


def _committed():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    files = set(listed.stdout.split())
    return files | {str(parent) for f in files for parent in PurePosixPath(f).parents}


def _blocks():
    """(language, text) of each fenced block of the README."""
    blocks, language, lines = [], None, []
    for line in README.splitlines():
        if not line.startswith("```"):
            lines.append(line)
        elif language is None:
            language, lines = line[3:].strip(), []
        else:
            blocks.append((language, "\n".join(lines)))
            language = None
    return blocks


def _commands():
    """(command, shown output or None) for each command in the README."""
    found = []
    for language, text in _blocks():
        if language == "sh":
            found += [(line, None) for line in text.splitlines() if line.strip()]
        elif language == "":
            parts = re.split(r"^\$ (.*)$", text, flags=re.M)
            found += [(parts[i], parts[i + 1].strip("\n")) for i in range(1, len(parts), 2)]
    return found


def _words(command):
    """Every word of a command, the words of quoted --bot commands included."""
    words = shlex.split(command, comments=True)
    inner = [w for w in words if " " in w]
    return words + [part for w in inner for part in shlex.split(w)]


COMMANDS = _commands()


def test_the_readme_has_commands_to_check():
    assert len(COMMANDS) >= 20
    assert sum(output is not None for _, output in COMMANDS) >= 4


def test_every_interpreter_is_spelled_as_make_run_creates_it():
    wrong = [cmd for cmd, _ in COMMANDS
             if any(w in ("python", "python3") for w in _words(cmd))]
    assert not wrong, wrong
    assert "pyenv" not in README


def test_every_file_a_command_reads_is_committed():
    committed = _committed()
    missing = []
    for command, _ in COMMANDS:
        words = _words(command)
        for before, word in zip([""] + words, words):
            looks_like_file = "/" in word and " " not in word and not word.startswith(("-", "tcp://", "http"))
            if (looks_like_file and before not in WRITES and not word.startswith(".venv/")
                    and word.rstrip("/") not in committed):
                missing.append(f"{word} in: {command}")
    assert not missing, missing


def test_the_rules_are_in_the_repository():
    links = re.findall(r"\]\(([^)#]+)\)", README)
    local = [link for link in links if not link.startswith("http")]
    assert "docs/RULES.md" in local
    assert all((ROOT / link).exists() for link in local), local


def _expected(shown):
    """The shown output as a pattern: a line `...` stands for any lines, `...` in a line
    for any text."""
    parts = [re.escape(chunk).replace(re.escape("..."), ".*?") for chunk in shown.split("\n...\n")]
    return re.compile("\n(?:.*\n)*?".join(parts) + r"\n?\Z")


@pytest.mark.parametrize("command, shown", [c for c in COMMANDS if any(q in c[0] for q in QUICK)],
                         ids=lambda value: value[:60] if isinstance(value, str) else "")
def test_quick_commands_run_and_print_what_the_readme_shows(command, shown):
    words = shlex.split(command, comments=True)
    script = " ".join(w if w in ("|", "<", ">") else shlex.quote(sys.executable if w == PYTHON else w)
                      for w in words)
    env = {**os.environ, "NO_COLOR": "1"}
    run = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, env=env)
    assert run.returncode in (0, 1), run.stderr   # 1: a lost match shown on purpose
    if shown is not None:
        assert _expected(shown).match(run.stdout), run.stdout


def test_library_example_in_the_readme_is_current():
    blocks = [text + "\n" for language, text in _blocks() if language == "python"]
    assert blocks, "the README has no python example"
    example = "".join(blocks)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(example, {}, "README", "README.md", 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    cwd = os.getcwd()
    os.chdir(ROOT)  # the example opens puzzles by relative path
    try:
        runner.run(test)
    finally:
        os.chdir(cwd)
    assert runner.failures == 0, f"{runner.failures} README example(s) differ from the bot"
