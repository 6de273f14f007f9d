"""The player page in a real browser: Debian's headless Chromium driven by Selenium.

The browser comes from the viewer's browser test (skipped without Chromium, failing under
CI). The page is built as `referee play` builds it, with the solver's data; moves are made
by clicking the SVG islands as a person would. Screenshots go to out/play/ (git-ignored).
"""

import time
from pathlib import Path

import pytest

from bot.puzzle import parse
from referee.board import parse_board
from referee.lab.play import solved_entry
from referee.lab.sets import generate_set, parse_spec
from referee.play import build_page
from tests.test_viewer_browser import (EXPERT_CROSSING, browser, distinct_pairs,  # noqa: F401
                                       report, save_full_page, severe_logs)

ROOT = Path(__file__).parent.parent
ARTIFACTS = ROOT / "out" / "play"
EXPERT = ROOT / "puzzles" / "public" / "13_expert.txt"
HARD = ROOT / "puzzles" / "hard30" / "30x30_hard_unique_s1_000.txt"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """A page holding a generated 8x8 puzzle, the Expert test and a hard 30x30 puzzle."""
    made = generate_set(parse_spec("8x8:medium:unique:count=1:seed=5"))[0][0]
    entries = [solved_entry(made.name, parse_board(made.text), made.difficulty),
               solved_entry("13_expert", parse_board(EXPERT.read_text()), None),
               solved_entry("hard30_000", parse_board(HARD.read_text()), "hard")]
    path = tmp_path_factory.mktemp("play") / "play.html"
    path.write_text(build_page(entries))
    return path, entries


def open_puzzle(driver, page, name):
    """Open puzzle `name` on a fresh board (the saved game cleared)."""
    driver.get(page.as_uri() + "#" + name)
    driver.execute_script("localStorage.clear()")
    driver.find_element("id", "btn-restart").click()
    assert driver.find_element("id", "title").text.startswith(name)


def node(driver, x, y):
    """The SVG group of the island at (x, y)."""
    return driver.find_element("css selector", f'g.node[data-i="{index(driver, x, y)}"]')


def index(driver, x, y):
    return driver.execute_script(f"return game.at.get('{x},{y}')")


def click_pair(driver, a, b):
    node(driver, *a).click()
    node(driver, *b).click()


def links(driver):
    """The board's links as {((x1, y1), (x2, y2)): n}, read from the page's state."""
    found = driver.execute_script(
        "return [...game.links].map(([k, n]) => k.split('-').map(Number)"
        ".map(i => [game.nodes[i].x, game.nodes[i].y]).concat([n]))")
    return {tuple(sorted((tuple(a), tuple(b)))): n for a, b, n in found}


def status(driver):
    return driver.find_element("id", "status").text


def shot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    save_full_page(driver, path)
    print(f"\nscreenshot: {path}")
    assert path.stat().st_size > 5_000


def solution_of(entry):
    return {((x1, y1), (x2, y2)): n for x1, y1, x2, y2, n in entry["solution"]}


def test_a_generated_puzzle_solved_by_clicks_announces_the_win(browser, page):
    path, entries = page
    entry = entries[0]
    open_puzzle(browser, path, entry["name"])
    solution = list(solution_of(entry).items())
    for (a, b), n in solution[:-1]:
        for _ in range(n):
            click_pair(browser, a, b)
    assert "Solved" not in status(browser)
    (a, b), n = solution[-1]
    # The last link by dragging from one island to the other.
    from selenium.webdriver.common.action_chains import ActionChains
    for _ in range(n):
        ActionChains(browser).click_and_hold(node(browser, *a)).move_to_element(
            node(browser, *b)).release().perform()
    assert links(browser) == solution_of(entry)
    assert "Solved! Every island is full and all are one group, in" in status(browser)
    assert "won" in browser.find_element("id", "status").get_attribute("class")
    assert len(browser.find_elements("css selector", "#board g.node.short")) == 0
    shot(browser, "won.png")
    # The win and the board survive a reload.
    browser.refresh()
    assert links(browser) == solution_of(entry)
    assert "Solved!" in status(browser)
    assert severe_logs(browser) == []


def test_a_crossing_an_island_in_the_way_and_one_link_too_many_are_refused(browser, page):
    path, _ = page
    open_puzzle(browser, path, "13_expert")
    click_pair(browser, (11, 10), (15, 10))
    assert links(browser) == {((11, 10), (15, 10)): 1}
    click_pair(browser, (12, 8), (12, 16))
    assert status(browser) == "(12,8)-(12,16) would cross the link (11,10)-(15,10)"
    assert "refused" in browser.find_element("id", "status").get_attribute("class")
    assert links(browser) == {((11, 10), (15, 10)): 1}
    # A 1 and its neighbour: the first link is taken, the second refused.
    puzzle = parse(EXPERT.read_text())
    one = next(i for i, v in enumerate(puzzle.value) if v == 1 and puzzle.node_edges[i])
    other = puzzle.node_edges[one][0][1]
    a, b = puzzle.pos[one], puzzle.pos[other]
    click_pair(browser, a, b)
    click_pair(browser, a, b)
    assert status(browser).startswith(f"({a[0]},{a[1]}) is a 1 and already has 1 link: one more "
                                      "would take it over")
    assert links(browser)[tuple(sorted((a, b)))] == 1
    # Not in line, and over an island.
    click_pair(browser, (0, 0), (1, 1))
    assert status(browser) == "(0,0) and (1,1) are not in one row or column"
    click_pair(browser, (0, 0), (5, 0))
    assert status(browser) == "a link from (0,0) to (5,0) would pass over the island at (3,0)"
    shot(browser, "refused.png")
    assert severe_logs(browser) == []


def test_ten_hints_in_a_row_each_add_a_link_of_the_solution(browser, page):
    path, entries = page
    entry = entries[2]
    solution = solution_of(entry)
    open_puzzle(browser, path, "hard30_000")
    seen = {}
    rules = set()
    for _ in range(10):
        browser.find_element("id", "btn-hint").click()
        now = links(browser)
        added = [pair for pair, n in now.items() if n > seen.get(pair, 0)]
        assert len(added) == 1 and len(now) >= len(seen)
        assert now[added[0]] <= solution[added[0]]
        text = status(browser)
        assert text.startswith("hint (")
        rules.add(text.split("(")[1].split(")")[0])
        seen = now
    assert rules <= {"magicVal", "sieve", "crossing", "isolation", "connectivity", "elimination",
                     "search"}
    assert "magicVal" in rules
    shot(browser, "hints.png")
    # Check marks a link no solution holds; hint then asks to take it back first.
    wrong = next(((a, b) for (a, b) in pairs(entry) if solution.get((a, b), 0) == 0
                  and not links(browser).get((a, b))), None)
    click_pair(browser, *wrong)
    browser.find_element("id", "btn-check").click()
    assert status(browser).startswith("1 link in red: no solution holds")
    assert len(browser.find_elements("css selector", "#board g.link.wrong")) == 1
    browser.find_element("id", "btn-hint").click()
    assert status(browser).startswith("first take back the link marked in red")
    assert severe_logs(browser) == []


def pairs(entry):
    """Every pair of islands a link may join, from the explainer's own geometry."""
    puzzle = parse("\n".join([str(entry["w"]), str(entry["h"]), *entry["rows"]]))
    return [(puzzle.pos[a], puzzle.pos[b]) for a, b in puzzle.ends]


def test_undo_restores_the_board_and_redo_replays(browser, page):
    path, entries = page
    open_puzzle(browser, path, "13_expert")
    solution = list(solution_of(entries[1]).items())[:6]
    states = [links(browser)]
    for (a, b), _ in solution:
        click_pair(browser, a, b)
        states.append(links(browser))
    assert len(states[-1]) == 6
    for expected in reversed(states[:-1]):
        browser.find_element("id", "btn-undo").click()
        assert links(browser) == expected
    assert browser.find_element("id", "btn-undo").get_attribute("disabled") == "true"
    body = browser.find_element("tag name", "body")
    for expected in states[1:4]:
        body.send_keys("r")                       # redo from the keyboard
        assert links(browser) == expected
    # Keyboard moves: Shift+arrow from the ring's island links that way (here the 4th link).
    from selenium.webdriver.common.keys import Keys
    (a, b), _ = solution[3]
    browser.execute_script(f"game.cursor = game.at.get('{a[0]},{a[1]}'); draw()")
    body.send_keys(Keys.SHIFT + (Keys.ARROW_RIGHT if a[1] == b[1] else Keys.ARROW_DOWN))
    assert links(browser) == states[4]
    assert browser.find_element("id", "btn-redo").get_attribute("disabled") == "true"
    body.send_keys("u")
    assert links(browser) == states[3]


def test_solve_plays_the_solution_in_and_the_page_fits_a_phone(browser, page):
    path, entries = page
    open_puzzle(browser, path, "13_expert")
    browser.find_element("id", "btn-solve").click()
    deadline = time.time() + 30
    while "Solved!" not in status(browser) and time.time() < deadline:
        time.sleep(0.2)
    assert links(browser) == solution_of(entries[1])
    assert "with 1 hint or the solver" in status(browser)
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0
    size = browser.get_window_size()
    browser.set_window_size(390, 844)
    try:
        browser.get(path.as_uri() + "#hard30_000")
        board = browser.find_element("id", "board")
        assert board.size["width"] <= browser.execute_script("return innerWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        for _ in range(3):
            browser.find_element("id", "btn-hint").click()
        browser.save_screenshot(str(ARTIFACTS / "phone.png"))
    finally:
        browser.set_window_size(size["width"], size["height"])


def test_a_lost_match_in_the_report_opens_its_position_in_the_player(browser, report):
    browser.get(report.as_uri())
    link = browser.find_element("id", "play-link")
    assert link.get_attribute("href").split("#")[0].endswith(".play.html")
    link.click()
    assert browser.find_element("id", "title").text.startswith("13_expert: 23x23, 87 islands")
    placed = links(browser)
    lines = EXPERT_CROSSING.read_text().splitlines()[:55]
    assert (len(placed), sum(n == 2 for n in placed.values())) == distinct_pairs(lines)
    assert status(browser).startswith("the position from the report")
    # No solver data in this page (the judge never imports the bot): hint says how to get it.
    browser.find_element("id", "btn-restart").click()   # enabled; hint is not
    assert browser.find_element("id", "btn-hint").get_attribute("disabled") == "true"


def test_a_hundred_30x30_puzzles_open_fast(browser, page, tmp_path):
    """The size and the time to open a page of 100 hard 30x30 puzzles with their hints."""
    _, entries = page
    hundred = [{**entries[2], "name": f"p{i:03}"} for i in range(100)]
    big = tmp_path / "hundred.html"
    big.write_text(build_page(hundred))
    size = big.stat().st_size
    start = time.perf_counter()
    browser.get(big.as_uri() + "#p099")
    opened = time.perf_counter() - start
    load_ms = browser.execute_script(
        "return performance.getEntriesByType('navigation')[0].loadEventEnd")
    print(f"\n100 puzzles 30x30: {size / 1e6:.2f} MB, opened in {opened:.2f} s "
          f"(load event {load_ms:.0f} ms)")
    assert browser.find_element("id", "title").text.startswith("p099: 30x30")
    assert len(browser.find_elements("css selector", "#puzzle option")) == 100
    assert size < 5_000_000
