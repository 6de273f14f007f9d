"""The pictures in docs/, taken afresh: `make pictures` (python -m referee.lab.pictures).

    report.png       a run's HTML report at 1280x900: the public tests played by a bot that
                     loses one (tests/fakebots/eight_bug.py), its lost match open
    play.png         the player page on a 12x12 puzzle after 12 hints, at 1000x760
    play-30x30.png   the player page on a 30x30 puzzle, at 1280x900
    play-phone.png   the same at a phone's 390x844

Each page is made by the project's own commands (`spoon2 run --html`, `spoon2 play --gen`)
in a scratch folder, with spoon2 on PATH as a player has it, and shot in Debian's headless
Chromium driven by Selenium (the `test` extra; `apt-get install chromium chromium-driver`).
The same checkout gives the same pages; the report's figures are this machine's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from referee.home import ROOT

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# Run from the checkout, so the report names no machine's path; the bot imports the
# checkout's solver, and a box shows it only the folders its command names.
LOSING_BOT = "tests/fakebots/eight_bug.py bot/"
HINTS = 12


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.lab.pictures",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="default: docs/")
    args = parser.parse_args(argv)
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        print(f"pictures: {missing[0]} not found (apt-get install chromium chromium-driver)",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="pictures-") as work:
        work = Path(work)
        report, play12, play30 = pages(work)
        with Browser(work / "profile") as driver:
            shoot(driver, report, (1280, 900), args.out / "report.png")
            shoot(driver, play12, (1000, 760), args.out / "play.png", hints=HINTS)
            shoot(driver, play30, (1280, 900), args.out / "play-30x30.png")
            shoot(driver, play30, (390, 844), args.out / "play-phone.png")
    return 0


def pages(work: Path) -> tuple[Path, Path, Path]:
    """The run report and two player pages, made by spoon2 as a player runs it."""
    report, play12, play30 = work / "report.html", work / "play12.html", work / "play30.html"
    spoon2(ROOT, "run", "--bot", f"python3 {LOSING_BOT}", "puzzles/public", "--quiet",
           "--no-record", "--html", str(report), ok=(0, 1))
    spoon2(work, "play", "--gen", "12x12:medium:count=1:seed=3", "--out", str(play12))
    spoon2(work, "play", "--gen", "30x30:medium:count=1:seed=1", "--out", str(play30))
    return report, play12, play30


def spoon2(where: Path, *args: str, ok: tuple[int, ...] = (0,)) -> None:
    """One spoon2 command in the folder `where`, this Python's scripts first on PATH."""
    scripts = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": scripts + os.pathsep + os.environ.get("PATH", ""),
           "NO_COLOR": "1"}
    command = [shutil.which("spoon2", path=env["PATH"]) or sys.executable, *args]
    if command[0] == sys.executable:
        command[1:1] = ["-m", "referee"]
    done = subprocess.run(command, cwd=where, env=env, capture_output=True, text=True)
    if done.returncode not in ok:
        raise SystemExit(f"pictures: spoon2 {' '.join(args)} failed: {done.stderr.strip()}")


class Browser:
    """Headless Chromium under Selenium, closed with its profile."""

    def __init__(self, profile: Path):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS + [f"--user-data-dir={profile}"]:
            options.add_argument(flag)
        self.driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))

    def __enter__(self):
        return self.driver

    def __exit__(self, *exc):
        self.driver.quit()


def shoot(driver, page: Path, size: tuple[int, int], out: Path, hints: int = 0) -> None:
    """The page in a window whose inner size is `size`, after `hints` hints, as a PNG."""
    width, height = size
    driver.set_window_size(width, height)
    driver.set_window_size(2 * width - driver.execute_script("return innerWidth"),
                           2 * height - driver.execute_script("return innerHeight"))
    driver.get(page.as_uri())
    driver.execute_script("localStorage.clear()")   # the page as a first visit shows it
    driver.get(page.as_uri())
    for _ in range(hints):
        driver.find_element("id", "btn-hint").click()
    driver.save_screenshot(str(out))
    print(f"{out}: {width}x{height}")


if __name__ == "__main__":
    sys.exit(main())
