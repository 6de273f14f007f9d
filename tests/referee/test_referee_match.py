"""The match loop alone, over a scripted transport with a virtual clock (no process)."""

from dataclasses import dataclass, field

import pytest

from referee.judge.board import parse_board
from referee.judge.limits import MAX_LINE_BYTES, Limits
from referee.judge.match import Event, EventKind, describe_exit, play_match
from referee.judge.result import Usage
from referee.judge.rules import Verdict

SIMPLEST = parse_board("3\n3\n1.2\n...\n..1\n")
WINNING = ["0 0 2 0 1", "2 0 2 2 1"]
LIMITS = Limits(first_line_s=1.0, turn_s=0.1, grace_s=0.05)


@dataclass
class ScriptedBot:
    """A transport that plays a script: (delay after the previous event in seconds, line).

    After the script: `exit_status` (None: the bot stays alive, silent) after `exit_delay`.
    """

    script: list
    exit_status: int | None = 0
    exit_delay: float = 0.0
    stderr: str = ""
    sent: list = field(default_factory=list)
    closed: int = 0
    clock: float = 0.0

    def send(self, text):
        self.sent.append(text)
        return self.clock

    def read_line(self, deadline):
        if self.script:
            delay, text = self.script[0]
            if self.clock + delay > deadline:
                self.clock = deadline
                return Event(EventKind.TIMEOUT, deadline)
            self.script.pop(0)
            self.clock += delay
            if len(text) > MAX_LINE_BYTES:
                return Event(EventKind.LINE, self.clock, text[:MAX_LINE_BYTES], cut=True)
            return Event(EventKind.LINE, self.clock, text)
        if self.exit_status is None:
            self.clock = deadline
            return Event(EventKind.TIMEOUT, deadline)
        return Event(EventKind.EOF, self.clock)

    def wait_exit(self, deadline):
        if self.exit_status is None or self.clock + self.exit_delay > deadline:
            return None
        return self.exit_status

    def close(self):
        self.closed += 1
        return Usage(cpu_s=0.01, peak_rss_bytes=10 * 2**20, exit_status=self.exit_status,
                     stderr_tail=self.stderr, stderr_bytes=len(self.stderr))


def play(script, **kwargs):
    bot = ScriptedBot(script, **kwargs)
    return play_match(SIMPLEST, bot, LIMITS, name="simplest"), bot


def test_win_records_lines_and_latencies_and_closes_the_transport():
    result, bot = play([(0.2, WINNING[0]), (0.03, WINNING[1])])
    assert result.verdict is Verdict.WIN and result.won
    assert bot.sent == [SIMPLEST.to_text()]
    assert bot.closed == 1
    assert result.lines == tuple(WINNING)
    assert result.latencies_s == pytest.approx((0.2, 0.03))
    assert result.first_line_s == pytest.approx(0.2)
    assert result.slowest_turn_s == pytest.approx(0.03)
    assert (result.turn, result.line) == (2, WINNING[1])


def test_lines_after_the_win_are_not_read():
    result, bot = play([(0.1, WINNING[0]), (0.01, WINNING[1]), (0.01, "junk")])
    assert result.won and len(result.lines) == 2 and bot.script == [(0.01, "junk")]


def test_rule_loss_comes_from_the_rules():
    result, _ = play([(0.1, "0 0 2 0 2")])
    assert (result.verdict, result.turn, result.line) == (Verdict.OVER_CAPACITY, 1, "0 0 2 0 2")


def test_first_line_limit_is_one_second_by_default():
    assert Limits().first_line_s == 1.0 and Limits().turn_s == 0.1


def test_silent_bot_times_out_on_the_first_line():
    result, bot = play([], exit_status=None)
    assert (result.verdict, result.turn, result.line) == (Verdict.TIMEOUT, 1, None)
    assert "no output line within 1000 ms" in result.reason
    assert bot.clock == pytest.approx(1.05)  # waited for limit plus grace


def test_line_within_the_grace_is_still_a_timeout_judged_against_the_limit():
    result, _ = play([(0.1, WINNING[0]), (0.12, WINNING[1])])
    assert (result.verdict, result.turn, result.line) == (Verdict.TIMEOUT, 2, WINNING[1])
    assert result.reason == "line 2 came 120.0 ms after line 1, over the 100 ms limit"
    assert result.latencies_s[-1] == pytest.approx(0.12)


def test_late_first_line():
    result, _ = play([(1.01, WINNING[0])])
    assert result.verdict is Verdict.TIMEOUT
    assert "after the input, over the 1000 ms limit" in result.reason


def test_later_line_missing_is_a_timeout_on_that_turn():
    result, _ = play([(0.1, WINNING[0])], exit_status=None)
    assert (result.verdict, result.turn) == (Verdict.TIMEOUT, 2)
    assert result.reason == "no line 2 within 100 ms of line 1"


def test_clean_end_with_short_nodes_is_incomplete():
    result, _ = play([(0.1, WINNING[0])], exit_status=0)
    assert (result.verdict, result.turn, result.line) == (Verdict.INCOMPLETE, 2, None)


def test_nonzero_exit_is_a_crash_with_the_last_stderr_line():
    result, _ = play([(0.1, WINNING[0])], exit_status=3, stderr="Traceback\nValueError: bad\n")
    assert (result.verdict, result.turn) == (Verdict.CRASH, 2)
    assert result.reason == ("the bot exited with status 3 after 1 line(s), before winning "
                             "(stderr: ValueError: bad)")


def test_exit_after_the_win_does_not_matter():
    result, _ = play([(0.1, WINNING[0]), (0.01, WINNING[1])], exit_status=1)
    assert result.won


def test_closed_output_without_exit_is_a_timeout():
    result, _ = play([(0.1, WINNING[0])], exit_status=0, exit_delay=5.0)
    assert result.verdict is Verdict.TIMEOUT
    assert "closed its output after 1 line(s) but did not exit" in result.reason


def test_cut_line_is_malformed():
    result, _ = play([(0.1, "1" * (MAX_LINE_BYTES + 10))])
    assert (result.verdict, result.turn) == (Verdict.MALFORMED, 1)
    assert f"longer than {MAX_LINE_BYTES} bytes" in result.reason


def test_transport_is_closed_even_if_the_loop_fails():
    bot = ScriptedBot([(0.1, WINNING[0])])
    bot.read_line = lambda deadline: 1 / 0
    with pytest.raises(ZeroDivisionError):
        play_match(SIMPLEST, bot, LIMITS)
    assert bot.closed == 1


def test_describe_exit():
    assert describe_exit(2) == "exited with status 2"
    assert describe_exit(-9) == "was killed by signal 9 (SIGKILL)"


def test_result_json_has_the_documented_fields():
    result, _ = play([(0.2, WINNING[0]), (0.03, WINNING[1])])
    data = result.to_json()
    assert data["verdict"] == "win" and data["turn"] == 2 and data["turns"] == 2
    assert data["lines"] == WINNING
    assert data["latencies_ms"] == [200.0, 30.0]
    assert data["first_line_ms"] == 200.0 and data["slowest_turn_ms"] == 30.0
    assert data["cpu_ms"] == 10.0 and data["peak_mb"] == 10.0
    assert data["input"] == SIMPLEST.to_text()
    for key in ("puzzle", "reason", "line", "stderr_tail", "exit_status"):
        assert key in data
