"""Every --gen SPEC a command's --help shows makes its set: an example never fails."""

import dataclasses
import re

import pytest

from referee.cli.main import build_parser
from referee.cli import COMMANDS
from referee.lab.play.command import parse_gen
from referee.lab.gen.sets import generate_set, parse_spec

SPEC = re.compile(r"\b\d+x\d+(?::[a-z]+(?:=[\d.]+)?)+")


def _help_specs():
    """(command, SPEC) for each spec a command's --help shows."""
    found = set()
    for name in COMMANDS:
        parser = build_parser([name])
        sub = next(a for a in parser._actions if a.dest == "command").choices[name]
        found |= {(name, spec) for spec in SPEC.findall(sub.format_help())}
    return sorted(found)


SPECS = _help_specs()


def test_the_helps_show_specs():
    assert {("play", "10x10:count=3"), ("play", "30x30:medium:count=5"),
            ("play", "30x30:hard:unique:count=1"), ("run", "30x30:count=20:seed=7")} <= set(SPECS)


@pytest.mark.slow
@pytest.mark.parametrize("command, text", SPECS)
def test_a_spec_the_help_shows_finds_its_puzzles(command, text):
    # Big counts are cut to two (the attempts scale with the count asked, so the rate the
    # example needs is the same); `play` makes a set per difficulty of a SPEC naming none.
    for spec in parse_gen(text) if command == "play" else [parse_spec(text)]:
        spec = dataclasses.replace(spec, count=min(spec.count, 2))
        kept, verdicts = generate_set(spec)
        assert len(kept) == spec.count, f"{text}: {verdicts}"
