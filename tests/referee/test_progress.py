"""The one progress line: plain lines when stderr is not a terminal, one line redrawn when it is."""

import io
import os
import pty
import subprocess
import sys
import threading

import pytest

from tests.project import ROOT
from referee.report.progress import Progress, SetProgress
from referee.units import ms, ms_number


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_plain_steps_give_one_line_per_item():
    out = io.StringIO()
    progress = Progress("run", 2, stream=out)
    progress.step("01_simplest: win")
    progress.step("02_simpler: crash")
    progress.close()
    assert out.getvalue() == "run: [1/2] 01_simplest: win\nrun: [2/2] 02_simpler: crash\n"


def test_plain_updates_are_throttled_and_the_summary_always_shows():
    out = io.StringIO()
    progress = Progress("gen x", 100, stream=out, every=3600)
    for done in range(1, 101):
        progress.update(done, f"kept {done // 10}")
    progress.close("tried 100, kept 10")
    assert out.getvalue() == "gen x: tried 100, kept 10\n"


def test_a_terminal_redraws_one_line_and_clears_it_at_the_end():
    out = Terminal()
    progress = Progress("run", 2, stream=out)
    progress.step("a: win")
    progress.close()
    assert out.getvalue() == "\r\x1b[Krun: [##########..........] [1/2] a: win\r\x1b[K"


def test_disabled_progress_writes_nothing():
    out = io.StringIO()
    progress = Progress("run", 3, stream=out, enabled=False)
    progress.step("a: win")
    progress.close()
    assert out.getvalue() == ""


def test_steps_from_threads_are_counted_once_each():
    out = io.StringIO()
    progress = Progress("run", 400, stream=out)
    threads = [threading.Thread(target=lambda: [progress.step() for _ in range(100)])
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = out.getvalue().splitlines()
    assert len(lines) == 400 and sorted(lines) == sorted(f"run: [{i}/400]" for i in range(1, 401))


def test_milliseconds_for_people_and_for_json():
    assert ms(0.01234) == "12.3"
    assert ms(0.1, "g") == "100"
    assert ms(0.0123456, ".2f") == "12.35"
    assert ms(None) == "-"
    assert ms_number(0.0123456) == 12.346
    assert ms_number(None) is None


def test_a_note_is_escaped_for_the_terminal():
    # Notes carry puzzle names, and a file's name may hold an escape code or a newline.
    stream = io.StringIO()
    progress = Progress("bench", 1, stream=stream)
    progress.step("weird/esc\x1b[2J\x07x\nsecond: win")
    written = stream.getvalue()
    assert "\x1b" not in written and "\x07" not in written and written.count("\n") == 1
    assert "esc\\e[2J\\x07x\\nsecond: win" in written


def screen(raw):
    """The lines a terminal shows after `raw`: carriage return, erase-to-end and newline
    applied, as a terminal applies them."""
    lines, col, i = [""], 0, 0
    while i < len(raw):
        if raw.startswith("\x1b[K", i):
            lines[-1] = lines[-1][:col]
            i += 3
            continue
        char = raw[i]
        if char == "\r":
            col = 0
        elif char == "\n":
            lines.append("")
            col = 0
        else:
            line = lines[-1].ljust(col)
            lines[-1] = line[:col] + char + line[col + 1:]
            col += 1
        i += 1
    return lines


def test_a_result_printed_aside_never_shares_the_progress_line():
    out = Terminal()   # stdout and stderr on one screen, as on a terminal
    progress = Progress("gen", 3, stream=out)
    progress.step("a")
    with progress.aside():
        out.write("out/a.txt  islands=4\n")
    progress.step("b")
    progress.close("done")
    assert screen(out.getvalue()) == ["out/a.txt  islands=4", "gen: done", ""]


def test_a_set_counts_what_was_asked_and_shows_the_attempts_beside():
    out = Terminal()
    progress = SetProgress("gen 6x6_hard_s1", 4, 400, stream=out, every=3600)
    progress.attempt(1, 0)     # throttled: nothing kept yet
    progress.attempt(7, 1)     # a puzzle kept is always shown
    progress.attempt(8, 1)     # throttled again
    assert screen(out.getvalue()) == [
        "gen 6x6_hard_s1: [#####...............] [1/4] kept, 7 of at most 400 attempts"]


@pytest.mark.slow
def test_gen_on_a_terminal_never_glues_a_file_to_the_bar(tmp_path):
    # A real terminal (a pty) for stdout and stderr, as a user running `gen` has.
    main, child = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "gen", "--size", "10x10", "--difficulty", "hard",
         "--count", "3", "--out", str(tmp_path)], cwd=ROOT, stdout=child, stderr=child)
    os.close(child)
    raw = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:   # the child closed the terminal
            break
        if not chunk:
            break
        raw += chunk
    os.close(main)
    assert process.wait(timeout=60) == 0
    lines = [line for line in screen(raw.decode()) if line]
    results = [line for line in lines if "islands=" in line]
    assert len(results) == 3
    assert all("[" not in line and "kept" not in line for line in results), results
    assert "[###" in raw.decode()   # the bar was drawn, between the results
    assert lines[-1].startswith("gen 10x10_hard_s1: tried ") and "kept 3 of 3" in lines[-1]
