"""The docs are reference, not diaries: no numbered rounds of work, no "today", no commit ids
(but the one each tuning constant names as the commit that set it); every link leads to a
file; docs/TUNING.md has a paragraph for each field of bot.options.Options, and only those."""

import re
import subprocess

import pytest

from bot.options import FIELDS
from tests.project import ROOT

PAGES = [ROOT / "README.md", ROOT / "puzzles" / "stress" / "README.md",
         *sorted((ROOT / "docs").glob("*.md"))]
TUNING_PAGE = ROOT / "docs" / "TUNING.md"
ORDINALS = ("first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
            "thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|"
            "twentieth|\\d+(?:st|nd|rd|th)")
DIARY = re.compile(rf"\b(?:(?:{ORDINALS}) (?:session|round)s?\b|(?:session|round) \d+|today)", re.I)
COMMIT = re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")
# A bot's version in the history is 12 hex digits (its hash); a commit is quoted by 7.
VERSION = re.compile(r"\b[0-9a-f]{12}\b")
SET_BY = re.compile(r"Set\s+by\s+(`[0-9a-f]{7}`(?:\s+and\s+`[0-9a-f]{7}`)?)")
PATH = re.compile(r"(?<![\w/.-])((?:bot|referee|tests|docs|puzzles|dist)/[\w./-]*[\w/])(?![\w*])")


def _ids(page):
    return [p.name for p in page] if isinstance(page, list) else page.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=_ids)
def test_no_page_speaks_of_rounds_of_work_or_today(page):
    assert not DIARY.findall(page.read_text())


@pytest.mark.parametrize("page", PAGES, ids=_ids)
def test_commit_ids_appear_only_where_tuning_names_the_commit_that_set_a_constant(page):
    text = VERSION.sub("", page.read_text())
    if page == TUNING_PAGE:
        text = SET_BY.sub("", text)
    assert not COMMIT.findall(text)


@pytest.mark.parametrize("page", PAGES, ids=_ids)
def test_every_link_leads_to_a_file(page):
    links = re.findall(r"\]\(([^)#]+)\)", page.read_text())
    missing = [link for link in links if not link.startswith("http")
               and not (page.parent / link).exists()]
    assert not missing


@pytest.mark.parametrize("page", PAGES, ids=_ids)
def test_every_path_a_page_names_exists(page):
    named = set(PATH.findall(page.read_text()))
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert not missing


def _constants():
    """{name: default as written} of every field of bot.options.Options."""
    return {name: repr(value) for name, value in FIELDS}


def test_tuning_has_a_paragraph_for_each_constant_and_no_other():
    text = TUNING_PAGE.read_text()
    named = set(re.findall(r"`([a-z][a-z_]+) = [^`]+`", text))
    assert len(_constants()) >= 30
    assert named == set(_constants())


def test_each_commit_tuning_names_is_in_the_history():
    ids = [i for found in SET_BY.findall(TUNING_PAGE.read_text()) for i in re.findall(r"[0-9a-f]{7}", found)]
    assert len(ids) >= 15
    known = subprocess.run(["git", "cat-file", "--batch-check"], cwd=ROOT, capture_output=True,
                           text=True, input="\n".join(ids) + "\n")
    if known.returncode != 0:
        pytest.skip("not a git checkout")
    assert "missing" not in known.stdout, known.stdout


def test_tuning_states_each_value_as_the_code_has_it():
    page = dict(re.findall(r"`([a-z][a-z_]+) = ([^`]+)`", TUNING_PAGE.read_text()))
    assert page == _constants()
