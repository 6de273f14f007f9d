"""Bundle the bot/ package into one CodinGame file, dist/bot.py, with stickytape.

    python build.py            build, check and smoke-run dist/bot.py
    python build.py --check    exit 1 if dist/bot.py is not what bot/ builds now

The bundle must fit CodinGame's 100,000-character limit and be plain ASCII. It is
reproducible: building twice from the same sources gives the same bytes. At run time the
bundle writes its modules to a fresh temporary directory (stickytape's design) and removes it
on exit.
"""

import argparse
import subprocess
import sys
import time
from pathlib import Path

import stickytape

ROOT = Path(__file__).resolve().parent
ENTRY = ROOT / "bot" / "__main__.py"
OUTPUT = ROOT / "dist" / "bot.py"
SMOKE_PUZZLE = ROOT / "puzzles" / "public" / "13_expert.txt"
CODINGAME_MAX_CHARS = 100_000
SMOKE_TIMEOUT_S = 10
HEADER = "# Built by build.py from the bot/ package: edit bot/, not this file.\n"


class BuildError(Exception):
    """The bundle cannot be used on CodinGame."""


def bundle():
    """The bundle's text, checked against CodinGame's limits."""
    text = stickytape.script(str(ENTRY), add_python_paths=[str(ROOT)])
    shebang, _, rest = text.partition("\n")
    text = shebang + "\n" + HEADER + rest + "\n"
    if len(text) > CODINGAME_MAX_CHARS:
        raise BuildError(f"bundle is {len(text):,} characters, over CodinGame's "
                         f"{CODINGAME_MAX_CHARS:,}")
    bad = next((c for c in text if not c.isascii()), None)
    if bad is not None:
        raise BuildError(f"bundle holds a non-ASCII character {bad!r}: keep bot/ sources ASCII")
    return text


def smoke(path):
    """Run the bundle on one puzzle; its lines must equal the package's own answer."""
    import bot

    puzzle = SMOKE_PUZZLE.read_text()
    expected = [" ".join(map(str, link)) for link in bot.solve(puzzle)]
    start = time.perf_counter()
    try:
        run = subprocess.run([sys.executable, str(path)], input=puzzle, capture_output=True,
                             text=True, timeout=SMOKE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise BuildError(f"bundle gave no answer on {SMOKE_PUZZLE.name} "
                         f"within {SMOKE_TIMEOUT_S} s") from None
    elapsed_ms = (time.perf_counter() - start) * 1000
    if run.returncode != 0 or run.stdout.splitlines() != expected:
        tail = run.stderr.strip().splitlines()[-1:] or ["no stderr"]
        raise BuildError(f"bundle's answer on {SMOKE_PUZZLE.name} differs from bot.solve "
                         f"(exit {run.returncode}: {tail[0]})")
    return len(expected), elapsed_ms


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only check that dist/bot.py is up to date")
    args = parser.parse_args()
    try:
        text = bundle()
        if args.check:
            if not OUTPUT.exists() or OUTPUT.read_text() != text:
                print("build: dist/bot.py is out of date with bot/: run `python build.py`",
                      file=sys.stderr)
                return 1
            print("build: dist/bot.py is up to date")
            return 0
        OUTPUT.parent.mkdir(exist_ok=True)
        with open(OUTPUT, "w", newline="\n") as out:
            out.write(text)
        links, elapsed_ms = smoke(OUTPUT)
    except BuildError as error:
        print(f"build: {error}", file=sys.stderr)
        return 1
    share = 100 * len(text) / CODINGAME_MAX_CHARS
    print(f"build: dist/bot.py {len(text):,} characters ({share:.0f}% of CodinGame's "
          f"{CODINGAME_MAX_CHARS:,}); smoke run on {SMOKE_PUZZLE.name}: {links} links, "
          f"{elapsed_ms:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
