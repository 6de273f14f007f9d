"""The player page in a real browser: Debian's headless Chromium driven by Selenium.

The browser comes from the viewer's browser test (skipped without Chromium, failing under
CI). The page is built as `referee play` builds it, with the solver's data; moves are made
by clicking the SVG islands as a person would. Screenshots go to out/play/ (git-ignored).
"""

import re
import time
from pathlib import Path

import pytest

from bot.puzzle import parse
from referee.judge.board import parse_board
from referee.lab.explain.geometry import geometry
from referee.lab.play.command import bot_links, solved_entry
from referee.lab.gen.sets import generate_set, parse_spec
from referee.report.player import build_page
from tests.referee.test_viewer_browser import (EXPERT_CROSSING, browser, distinct_pairs,  # noqa: F401
                                       report, save_full_page, severe_logs)

ROOT = Path(__file__).parents[2]
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


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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
    puzzle = geometry("\n".join([str(entry["w"]), str(entry["h"]), *entry["rows"]]))
    return [(puzzle.pos[a], puzzle.pos[b]) for a, b in puzzle.ends]


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
def test_the_page_of_lost_matches_opened_on_its_own_shows_the_bots_position(browser, report):
    page = report.with_suffix(".play.html")
    browser.get(page.as_uri())
    browser.execute_script("localStorage.clear()")   # no saved game: the page as first opened
    browser.get(page.as_uri())
    assert browser.find_element("id", "title").text.startswith("13_expert: 23x23, 87 islands")
    placed = links(browser)
    lines = EXPERT_CROSSING.read_text().splitlines()[:55]
    assert (len(placed), sum(n == 2 for n in placed.values())) == distinct_pairs(lines)


@pytest.mark.slow
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
    # The lab worked out the solver's data for the page: check finds none of the bot's links
    # wrong (the position holds the lines before the crossing one, all in the one solution),
    # and hint adds the next sure link.
    solution = solved_entry("x", parse_board(EXPERT.read_text()), None)["solution"]
    held = bot_links(" ".join(map(str, link)) for link in solution)
    assert all(n <= held.get(key, 0) for key, n in bot_links(lines).items())
    browser.find_element("id", "btn-check").click()
    assert status(browser) == "every link on the board is in the solution"
    browser.find_element("id", "btn-hint").click()
    assert status(browser).startswith("hint (")
    assert sum(links(browser).values()) > sum(placed.values())


@pytest.mark.slow
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


VIEWPORTS = [(1280, 900), (390, 844)]


def viewport(driver, width, height):
    """The page's viewport exactly width x height (a window's size includes its frame)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1,
                            "mobile": width < 600})


def box(driver, selector):
    """The union of the client rectangles of the elements matching `selector`."""
    return driver.execute_script("""
        const rs = [...document.querySelectorAll(arguments[0])].map(e => e.getBoundingClientRect());
        return [Math.min(...rs.map(r => r.left)), Math.min(...rs.map(r => r.top)),
                Math.max(...rs.map(r => r.right)), Math.max(...rs.map(r => r.bottom))];""", selector)


def centre(driver, element):
    r = driver.execute_script("return arguments[0].getBoundingClientRect()", element)
    return (r["left"] + r["right"]) / 2, (r["top"] + r["bottom"]) / 2


def island_width(driver, x, y):
    return node(driver, x, y).find_element("css selector", "circle").size["width"]


@pytest.mark.slow
@pytest.mark.parametrize("width, height", VIEWPORTS)
def test_a_30x30_board_fits_the_window_with_its_controls(browser, page, width, height):
    path, _ = page
    viewport(browser, width, height)
    try:
        open_puzzle(browser, path, "hard30_000")
        browser.find_element("id", "btn-hint").click()   # a hint's sentence above the board
        left, top, right, bottom = box(browser, "#board g.node, #board .coord text")
        assert 0 <= left and right <= width and 0 <= top and bottom <= height
        for control in ("btn-hint", "btn-undo", "btn-fit", "btn-zoom-in", "puzzle", "status"):
            r = browser.find_element("id", control).rect
            assert r["x"] >= 0 and r["x"] + r["width"] <= width and r["y"] + r["height"] <= height
        assert browser.execute_script(
            "return document.documentElement.scrollHeight <= innerHeight "
            "&& document.documentElement.scrollWidth <= innerWidth")
        if width > 1000:   # on a desktop the islands are big enough to read whole
            assert island_width(browser, 1, 0) >= 16
        browser.save_screenshot(str(ARTIFACTS / f"fit-{width}.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.slow
def test_the_numbers_on_the_edges_name_the_cells_hints_name(browser, page):
    path, entries = page
    open_puzzle(browser, path, "hard30_000")
    assert len(browser.find_elements("css selector", "#board .coord text[data-x]")) == 30
    assert len(browser.find_elements("css selector", "#board .coord text[data-y]")) == 30
    browser.find_element("id", "btn-hint").click()
    x, y = map(int, re.search(r"\((\d+),(\d+)\)", status(browser)).groups())
    island = node(browser, x, y).find_element("css selector", "circle")
    column = browser.find_element("css selector", f'#board .coord text[data-x="{x}"]')
    row = browser.find_element("css selector", f'#board .coord text[data-y="{y}"]')
    assert (column.text, row.text) == (str(x), str(y))
    (cx, cy), (lx, _), (_, ly) = centre(browser, island), centre(browser, column), centre(browser, row)
    assert abs(cx - lx) < 1.5 and abs(cy - ly) < 4   # the column above it, the row beside it
    # Every island sits under its column's number and beside its row's.
    for xx, yy in [(1, 0), (29, 29), (10, 24), (0, 13)]:
        if index(browser, xx, yy) is None:
            continue
        ix, iy = centre(browser, node(browser, xx, yy).find_element("css selector", "circle"))
        assert abs(ix - centre(browser, browser.find_element(
            "css selector", f'#board .coord text[data-x="{xx}"]'))[0]) < 1.5
        assert abs(iy - centre(browser, browser.find_element(
            "css selector", f'#board .coord text[data-y="{yy}"]'))[1]) < 4


@pytest.mark.slow
def test_zoom_by_buttons_wheel_and_pinch_pan_by_drag_and_fit(browser, page):
    path, _ = page
    viewport(browser, 1280, 900)
    try:
        open_puzzle(browser, path, "hard30_000")
        mid = browser.execute_script(   # an island near the middle of the board
            "return game.nodes.filter(n => n.x > 9 && n.y > 9 && n.x < 20 && n.y < 20)"
            ".map(n => [n.x, n.y])[0]")
        whole = island_width(browser, *mid)
        browser.find_element("id", "btn-zoom-in").click()
        browser.find_element("id", "btn-zoom-in").click()
        assert island_width(browser, *mid) == pytest.approx(whole * 1.96, rel=0.05)
        browser.find_element("id", "btn-fit").click()
        assert island_width(browser, *mid) == pytest.approx(whole, rel=0.01)
        # The wheel zooms about the pointer: the island under it stays under it.
        ix, iy = centre(browser, node(browser, *mid))
        browser.execute_script("""document.getElementById('board').dispatchEvent(new WheelEvent(
            'wheel', {deltaY: -400, clientX: arguments[0], clientY: arguments[1], bubbles: true,
                      cancelable: true}))""", ix, iy)
        assert island_width(browser, *mid) > whole * 1.5
        after = centre(browser, node(browser, *mid))
        assert abs(after[0] - ix) < 2 and abs(after[1] - iy) < 2
        # A drag on the empty board pans it; the column numbers stay along the top.
        stage = browser.find_element("id", "stage").rect
        top_before = box(browser, '#board .coord text[data-x]')[1]
        empty = next((xx, yy) for yy in range(30) for xx in range(30)
                     if index(browser, xx, yy) is None and 10 < xx < 20 and 10 < yy < 20)
        cell = browser.find_element("css selector", f'#board .coord text[data-x="{empty[0]}"]')
        start = (centre(browser, cell)[0], centre(browser, browser.find_element(
            "css selector", f'#board .coord text[data-y="{empty[1]}"]'))[1])
        browser.execute_script("""
            const svg = document.getElementById('board'), [x, y] = arguments[0];
            const ev = (type, dx) => new PointerEvent(type, {pointerId: 7, clientX: x + dx,
                clientY: y + dx, bubbles: true, isPrimary: true});
            svg.dispatchEvent(ev('pointerdown', 0));
            for (const dx of [-20, -60, -100]) window.dispatchEvent(ev('pointermove', dx));
            window.dispatchEvent(ev('pointerup', -100));""", start)
        moved = centre(browser, node(browser, *mid))
        assert moved[0] == pytest.approx(after[0] - 100, abs=3)
        assert moved[1] == pytest.approx(after[1] - 100, abs=3)
        assert links(browser) == {}   # a pan is no move
        assert abs(box(browser, '#board .coord text[data-x]')[1] - top_before) < 2
        assert top_before >= stage["y"]
        # Two fingers spread twice as far apart zoom in twice as much.
        browser.find_element("id", "btn-fit").click()
        browser.execute_script("""
            const svg = document.getElementById('board'), r = svg.getBoundingClientRect();
            const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
            const ev = (type, id, dx) => new PointerEvent(type, {pointerId: id, clientX: cx + dx,
                clientY: cy, bubbles: true, pointerType: 'touch'});
            svg.dispatchEvent(ev('pointerdown', 1, -50));
            svg.dispatchEvent(ev('pointerdown', 2, 50));
            window.dispatchEvent(ev('pointermove', 1, -100));
            window.dispatchEvent(ev('pointermove', 2, 100));
            window.dispatchEvent(ev('pointerup', 1, -100));
            window.dispatchEvent(ev('pointerup', 2, 100));""")
        assert island_width(browser, *mid) == pytest.approx(whole * 2, rel=0.05)
        assert links(browser) == {}
        assert severe_logs(browser) == []
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.slow
def test_the_difficulty_says_what_it_means(browser, page):
    path, _ = page
    open_puzzle(browser, path, "hard30_000")
    assert browser.find_element("id", "title").text.endswith("hard: needs search")
    levels = [o.text for o in browser.find_elements("css selector", "#difficulty option")]
    assert "hard: needs search" in levels and "medium: needs elimination" in levels
