"""The one progress line: plain lines when stderr is not a terminal, one line redrawn when it is."""

import io
import threading

from referee.progress import Progress
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
