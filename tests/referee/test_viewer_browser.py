"""The HTML report in a real browser: Debian's headless Chromium driven by Selenium.

Needs /usr/bin/chromium and /usr/bin/chromedriver (`.ci/run` installs both). Without
them the tests are skipped, except under CI (the CI environment variable set), where
they fail: the browser test must never silently stop running there.

A screenshot of a lost match is kept in out/viewer/ (git-ignored); its path is printed.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from referee.judge.board import load_board
from referee.judge.result import MatchResult, Usage
from referee.judge.rules import Verdict
from referee.report.viewer import build_html

ROOT = Path(__file__).parents[2]
ARTIFACTS = ROOT / "out" / "viewer"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
# As the machine notes ask: no first-run, sync, component or background network traffic.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--window-size=1400,1100"]
EXPERT_CROSSING = ROOT / "tests" / "fixtures" / "expert_crossing.txt"   # 13_expert, line 56 crosses a link
SOLUTIONS = ROOT / "tests" / "fakebots" / "solutions"


def _missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).is_file() and os.access(path, os.X_OK)):
            return f"{path} not found (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture(scope="module")
def browser():
    missing = _missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but the browser test cannot run: {missing}")
        pytest.skip(f"no browser: {missing}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="viewer-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A real run: four public tests won, 13_expert lost by a crossing at line 56."""
    bots = tmp_path_factory.mktemp("bots")
    for item in SOLUTIONS.iterdir():
        shutil.copy(item, bots / item.name)
    expert = (ROOT / "puzzles/public/13_expert.txt").read_text().strip()
    (bots / "13_expert.txt").write_text(expert + "\n\n" + EXPERT_CROSSING.read_text())
    page = tmp_path_factory.mktemp("report") / "report.html"
    run = subprocess.run(
        [sys.executable, "-m", "referee", "run", "--bot", f"python3 tests/fakebots/replay.py {bots}",
         "--first-line-ms", "5000", "--turn-ms", "1000", "--html", str(page), "--quiet",
         *[f"puzzles/public/{n}.txt" for n in ("01_simplest", "02_simpler", "03_simple",
                                               "04_basic", "13_expert")]],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr     # one match lost
    return page


def distinct_pairs(lines: list[str]) -> tuple[int, int]:
    """(pairs linked, pairs with two links) after these output lines."""
    counts: dict[tuple, int] = {}
    for line in lines:
        x1, y1, x2, y2, n = map(int, line.split())
        pair = tuple(sorted([(x1, y1), (x2, y2)]))
        counts[pair] = counts.get(pair, 0) + n
    return len(counts), sum(c == 2 for c in counts.values())


def count(driver, css: str) -> int:
    return len(driver.find_elements("css selector", css))


def click(driver, element_id: str, times: int = 1) -> None:
    button = driver.find_element("id", element_id)
    for _ in range(times):
        button.click()


def save_full_page(driver, path: Path) -> None:
    """A screenshot of the whole page: the window is made as tall as the document first."""
    width, height = driver.get_window_size().values()
    full = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, full + (height - driver.execute_script("return innerHeight")))
    try:
        driver.save_screenshot(str(path))
    finally:
        driver.set_window_size(width, height)


# A desktop window and a phone: a page fits both with no sideways scroll of the page (a
# table may scroll inside its own box).
SCREENS = ((1280, 900), (390, 844))


def overflow(driver, url: str, whole: str = "") -> list[str]:
    """The screens where the page at `url` scrolls sideways, with its width there; and, on
    the desktop, where the boxes `whole` selects cut their content (a hidden column)."""
    wide = []
    before = driver.get_window_size()
    try:
        for width, height in SCREENS:
            driver.set_window_size(width, height)
            driver.set_window_size(2 * width - driver.execute_script("return innerWidth"),
                                   height)   # the inner width itself, whatever the frame
            driver.get(url)
            page = driver.execute_script("return document.scrollingElement.scrollWidth")
            inner = driver.execute_script("return innerWidth")
            if page > inner:
                wide.append(f"{width}x{height}: the page is {page} px wide in {inner}")
            cut = driver.execute_script(
                "return [...document.querySelectorAll(arguments[0])]"
                ".filter(e => e.scrollWidth > e.clientWidth).map(e => e.className)",
                whole or ":not(*)") if width == SCREENS[0][0] else []
            wide += [f"{width}x{height}: {name} cuts its content" for name in cut]
    finally:
        driver.set_window_size(before["width"], before["height"])
    return wide


def severe_logs(driver) -> list:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


@pytest.fixture(scope="module")
def wide_report(tmp_path_factory):
    """Every public test played by a bot that loses one: the widest names in the table."""
    page = tmp_path_factory.mktemp("wide") / "report.html"
    run = subprocess.run(
        [sys.executable, "-m", "referee", "run", "--bot", "python3 tests/fakebots/eight_bug.py bot/",
         "--first-line-ms", "5000", "--turn-ms", "1000", "--html", str(page), "--quiet",
         "puzzles/public"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    return page


@pytest.mark.slow
def test_the_report_fits_a_desktop_window_and_a_phone(browser, wide_report):
    assert overflow(browser, wide_report.as_uri(), whole=".tablewrap") == []


@pytest.mark.slow
def test_a_ring_round_a_node_on_the_boards_edge_shows_whole(browser, report):
    browser.get(report.as_uri())
    margin, reach = browser.execute_script(
        "const box = document.getElementById('board').viewBox.baseVal;"
        "const ring = document.querySelector('#offending circle');"
        "return [-box.x, ring.r.baseVal.value + parseFloat(getComputedStyle(ring).strokeWidth) / 2]")
    assert margin >= reach   # the board reaches past an edge cell's centre as far as a ring


@pytest.mark.slow
def test_the_lost_match_opens_first_with_the_losing_link_in_red(browser, report):
    browser.get(report.as_uri())
    assert "0 passed" not in browser.title and "4 passed, 1 failed" in browser.title
    assert browser.find_element("css selector", "#matchpane h2").text.startswith("13_expert")
    assert browser.find_element("id", "frame").text == "line 56 / 56"
    status = browser.find_element("id", "status")
    assert "crossing" in status.text and "(12,8)-(12,16) crosses the link (11,10)-(15,10)" in status.text
    assert "lost" in status.get_attribute("class")
    assert count(browser, "#offending line") == 1                  # a single link, one stroke
    assert count(browser, "#offending circle") == 2                # its two endpoints ringed
    color = browser.find_element("css selector", "#offending line").value_of_css_property("stroke")
    assert color == "rgb(197, 48, 48)"
    pairs, doubles = distinct_pairs(EXPERT_CROSSING.read_text().splitlines()[:55])
    assert count(browser, "#board .link") == pairs
    assert count(browser, "#board .link.double") == doubles
    assert count(browser, "#board .node") == 87
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "lost_match.png"
    save_full_page(browser, shot)
    print(f"\nscreenshot of the lost match: {shot}")
    assert shot.stat().st_size > 10_000
    assert severe_logs(browser) == []


@pytest.mark.slow
def test_stepping_through_the_replay_draws_the_links_placed_so_far(browser, report):
    browser.get(report.as_uri() + "#4")
    lines = EXPERT_CROSSING.read_text().splitlines()
    click(browser, "btn-first")
    assert browser.find_element("id", "frame").text == "line 0 / 56"
    assert count(browser, "#board .link") == 0
    assert count(browser, "#board .node.full") == 0
    assert count(browser, "#offending line") == 0
    click(browser, "btn-next", 10)
    assert browser.find_element("id", "frame").text == "line 10 / 56"
    assert (count(browser, "#board .link"),
            count(browser, "#board .link.double")) == distinct_pairs(lines[:10])
    assert count(browser, "#board .link.last") == 1
    assert "line 10: " in browser.find_element("id", "status").text
    click(browser, "btn-prev", 3)
    assert count(browser, "#board .link") == distinct_pairs(lines[:7])[0]
    # The slider, moved as a user would: set its value and fire `input`.
    browser.execute_script("const s = document.getElementById('turn'); s.value = 40;"
                           "s.dispatchEvent(new Event('input'));")
    assert browser.find_element("id", "frame").text == "line 40 / 56"
    assert count(browser, "#board .link") == distinct_pairs(lines[:40])[0]
    # The keyboard: End goes to the deciding line, where the losing link appears.
    browser.find_element("tag name", "body").send_keys("\ue010")     # End
    assert browser.find_element("id", "frame").text == "line 56 / 56"
    assert count(browser, "#offending line") == 1
    # Play from the start: frames advance on their own until paused.
    click(browser, "btn-play")
    time.sleep(0.5)
    click(browser, "btn-play")
    shown = int(browser.find_element("id", "frame").text.split()[1])
    assert 0 < shown < 56
    time.sleep(0.3)
    assert int(browser.find_element("id", "frame").text.split()[1]) == shown
    assert severe_logs(browser) == []


@pytest.mark.slow
def test_a_won_match_from_the_table_and_the_latency_chart(browser, report):
    browser.get(report.as_uri())
    browser.find_element("css selector", '#matches tr[data-i="3"]').click()   # 04_basic
    assert browser.find_element("css selector", "#matchpane h2").text.startswith("04_basic")
    assert browser.current_url.endswith("#3")
    assert "win: every node is full" in browser.find_element("id", "status").text
    assert (count(browser, "#board .link"), count(browser, "#board .link.double")) == (5, 3)
    assert count(browser, "#board .node.short") == 0
    assert count(browser, "#offending line") == 0
    assert count(browser, "#chart rect.bar") == 5                  # one bar per output line
    assert count(browser, "#chart path.limit") == 1
    # Only lost matches: the four wins are hidden.
    browser.find_element("id", "lost-only").click()
    visible = [r for r in browser.find_elements("css selector", "#matches tbody tr") if r.is_displayed()]
    assert [r.get_attribute("data-i") for r in visible] == ["4"]
    # Nothing was fetched: the page is one file.
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


@pytest.mark.slow
def test_five_hundred_30x30_matches_open_fast(browser, tmp_path):
    """The size and the time to open a run of 500 matches of 200+ links on 30x30."""
    board = load_board(ROOT / "puzzles/public/13_expert.txt")
    lines = EXPERT_CROSSING.read_text().splitlines()
    won = MatchResult(name="expert", board=board, verdict=Verdict.WIN, reason="won",
                      turn=len(lines) - 1, line=None, lines=tuple(lines[:55] + lines[56:]) * 1,
                      latencies_s=(0.05,) + (0.0001,) * (len(lines) - 2), usage=Usage())
    results = [MatchResult(**{**won.__dict__, "name": f"m{i:03}"}) for i in range(500)]
    page = tmp_path / "big.html"
    page.write_text(build_html(results))
    size = page.stat().st_size
    start = time.perf_counter()
    browser.get(page.as_uri() + "#499")
    opened = time.perf_counter() - start
    load_ms = browser.execute_script(
        "return performance.getEntriesByType('navigation')[0].loadEventEnd")
    print(f"\n500 matches: {size / 1e6:.2f} MB, opened in {opened:.2f} s (load event {load_ms:.0f} ms)")
    assert browser.find_element("css selector", "#matchpane h2").text.startswith("m499")
    assert count(browser, "#matches tbody tr") == 500
    assert count(browser, "svg.board") == 1                        # only the open match drawn
    assert size < 3_000_000
    assert opened < 10
