"""The HTML report of two bots in a real browser: both bots' matches, a click apart.

Uses the headless Chromium of test_viewer_browser (skipped without it, failed under CI).
"""

import shutil
import subprocess
import sys

import pytest

from tests.referee.test_viewer_browser import ROOT, SOLUTIONS, browser, count, severe_logs  # noqa: F401

FOUR = [f"puzzles/public/{n}.txt" for n in ("01_simplest", "02_simpler", "03_simple", "04_basic")]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A wins all four; B answers slowly (a first line over 3200 ms, of a 6000 ms limit:
    marked) and has no answer for 04_basic. Limits well over CodinGame's: A's Python starts
    must not lose on a loaded machine."""
    partial = tmp_path_factory.mktemp("partial")
    for name in ("01_simplest", "02_simpler", "03_simple"):
        shutil.copy(SOLUTIONS / f"{name}.txt", partial)
    page = tmp_path_factory.mktemp("report") / "versus.html"
    run = subprocess.run(
        [sys.executable, "-m", "referee", "run",
         "--bot", f"python3 tests/fakebots/replay.py {SOLUTIONS}",
         "--bot", f"python3 tests/fakebots/replay.py {partial} --sleep-ms 3200,0",
         "--first-line-ms", "6000", "--turn-ms", "2000", "--html", str(page), "--quiet", *FOUR],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr      # B lost 04_basic
    return page


@pytest.mark.slow
def test_both_bots_rows_per_puzzle_and_the_other_bots_match_a_click_away(browser, report):
    browser.get(report.as_uri())
    assert "A: 4 passed, 0 failed; B: 3 passed, 1 failed" in browser.title
    heads = [th.text for th in browser.find_elements("css selector", "#matches thead th")]
    assert heads[:3] == ["puzzle", "bot", "verdict"]
    rows = browser.find_elements("css selector", "#matches tbody tr")
    assert [(r.find_elements("tag name", "td")[0].text, r.find_elements("tag name", "td")[1].text)
            for r in rows] == [(p, b) for p in ("01_simplest", "02_simpler", "03_simple",
                                                "04_basic") for b in "AB"]
    # The lost match opens first: B's on 04_basic, with a link to A's match there.
    assert browser.find_element("css selector", "#matchpane h2").text.startswith("04_basic")
    assert browser.find_element("id", "match-bot").text == "bot B"
    other = browser.find_element("css selector", "#matchpane a.other")
    assert other.text.startswith("bot A: win")
    other.click()
    assert browser.current_url.endswith("#6")
    # The pane is drawn again on the hash's change, after the click returns: wait for it
    # (reading it at once once met the old pane as it was being replaced).
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(browser, 10, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda b: b.find_element("id", "match-bot").text == "bot A")
    assert browser.find_element("id", "match-bot").text == "bot A"
    assert "win: every node is full" in browser.find_element("id", "status").text
    assert count(browser, "#board .link") == 5
    assert browser.find_element("css selector", "#matchpane a.other").text.startswith("bot B: crash")
    # B's slow first lines are marked in the table, in the colour of a warning.
    marked = browser.find_elements("css selector", "#matches td.half")
    assert [td.text[-1] for td in marked] == ["!"] * 3
    assert {td.find_element("xpath", "..").get_attribute("data-i") for td in marked} == \
        {"1", "3", "5"}           # B's rows: each puzzle has A's row, then B's
    assert marked[0].value_of_css_property("color") in ("rgb(214, 158, 46)", "rgba(214, 158, 46, 1)")
    assert severe_logs(browser) == []
