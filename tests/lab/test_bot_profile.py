"""`profile --bot`: a player's bot played through the referee under the sampler, its slow
lines' functions named, a flame graph written, other languages timed line by line."""

import json
import re
import shutil
import sys

import pytest

from tests.project import PUBLIC, run_referee
from referee.lab.profile.bot_match import python_target, sampled_command
from referee.lab.profile.turn_samples import read_samples, split_turns

SLOW_BOT = f"{sys.executable} tests/bots/python/slow_third.py"
PUZZLE = str(PUBLIC / "03_simple.txt")   # four links: the slow part comes before the third


def tables(out: str) -> dict[int, list[str]]:
    """{line number: the function names of its table, by own time}."""
    found, current = {}, None
    for text in out.splitlines():
        head = re.match(r"line (\d+): ", text)
        if head:
            current = found.setdefault(int(head.group(1)), [])
        elif current is not None and re.match(r"\s+[\d.,]+\s+[\d.,]+\s+\S", text):
            current.append(text.split()[2])
    return found


@pytest.mark.slow
def test_the_slow_function_is_named_on_the_line_that_calls_it(tmp_path):
    flame = tmp_path / "slow.speedscope.json"
    done = run_referee("profile", "--bot", SLOW_BOT, PUZZLE, "--flame", str(flame), "--top", "3")
    assert done.returncode == 0, done.stderr
    found = tables(done.stdout)
    assert found[3][0] == "slow_part", done.stdout
    assert all("slow_part" not in names for line, names in found.items() if line != 3)
    assert "limits: CodinGame's x3 (first line 3000 ms, later lines 300 ms)" in done.stdout
    data = json.loads(flame.read_text())
    frames = [frame["name"] for frame in data["shared"]["frames"]]
    third = next(p for p in data["profiles"] if p["name"] == "03_simple line 3")
    assert third["type"] == "sampled" and len(third["samples"]) == len(third["weights"])
    assert any(frames[stack[-1]] == "slow_part" for stack in third["samples"])
    assert data["profiles"][0]["name"] == "03_simple"


@pytest.mark.slow
def test_overhead_prints_the_ratios_of_both_runs():
    done = run_referee("profile", "--bot", SLOW_BOT, PUZZLE, "--overhead", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    assert re.search(r"first line: profiled/unprofiled median x[\d.]+, max x[\d.]+ over 1 ",
                     done.stdout), done.stdout
    assert re.search(r"slowest later line: profiled/unprofiled median x[\d.]+", done.stdout)


@pytest.mark.slow
def test_another_language_gets_every_line_with_its_cpu():
    if shutil.which("node") is None:
        pytest.skip("node not found")
    done = run_referee("profile", "--bot", "node tests/bots/js/hashi.js", PUZZLE)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if re.match(r"\s+\d+\s+[\d.]+\s+[\d.]+", line)]
    assert [int(row[0]) for row in rows] == [1, 2, 3, 4]
    assert "node --cpu-prof" in done.stdout


@pytest.mark.parametrize("bot, said", [
    (f"{sys.executable} -c pass", "python -c has no file to profile"),
    (f"{sys.executable} -O", "without the bot's file"),
    ("tests/bots/missing.py", "not found"),
])
@pytest.mark.slow
def test_a_bot_that_cannot_be_profiled_is_one_line_and_status_2(bot, said):
    done = run_referee("profile", "--bot", bot, PUZZLE)
    assert done.returncode == 2 and said in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.slow
def test_bot_options_need_a_bot():
    done = run_referee("profile", "--overhead")
    assert done.returncode == 2 and "give --bot CMD" in done.stderr


def test_the_python_command_keeps_its_interpreter_and_flags():
    assert python_target(["python3", "-X", "dev", "-u", "bot.py", "a"]) == (
        ["python3", "-X", "dev", "-u"], ["--", "bot.py", "a"])
    assert python_target(["python3", "-m", "bot"]) == (["python3"], ["-m", "bot", "--"])
    assert python_target(["./a.out"]) is None
    assert sampled_command(["java", "Player"], 7)[-3:] == ["--", "java", "Player"]


def test_samples_are_split_at_the_referees_stamps():
    records = "\n".join(json.dumps(r) for r in [
        ["start", 10.0, 0.001],
        ["frame", 0, "bot.py", "main", 1], ["frame", 1, "bot.py", "slow", 9],
        ["sample", 9.999, 0.5, [0]],             # start-up: before the input
        ["sample", 10.002, 0.501, [0]],
        ["sample", 10.004, 0.503, [0, 1]],
        ["sample", 10.010, 0.509, [0, 1]],       # the first line comes at 10.005
        ["sample", 10.0102, 0.5092, [0]],
    ]) + '\n["sample", 10.01'                   # cut short by the kill
    samples = read_samples(records.encode())
    first, second = split_turns(samples, 10.0, (0.005, 0.006))
    assert first.samples == 2 and second.samples == 2
    assert first.own[1] == pytest.approx(0.002) and first.total[0] == pytest.approx(0.004)
    assert second.own[1] == pytest.approx(0.005) and second.own[0] == pytest.approx(0.0002)
    assert first.cpu_s == pytest.approx(0.003) and second.cpu_s == pytest.approx(0.0062)


def test_run_match_hands_the_bot_a_descriptor_by_its_number(tmp_path):
    from referee.judge.board import load_board
    from referee.box.runner import run_match

    with open(tmp_path / "handed", "w+b") as handed:
        fd = handed.fileno()
        bot = [sys.executable, "-c", f"import os; os.write({fd}, b'from the bot')"]
        run_match(load_board(PUBLIC / "01_simplest.txt"), bot, pass_fds=(fd,))
        handed.seek(0)
        assert handed.read() == b"from the bot"
