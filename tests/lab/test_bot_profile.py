"""`profile --bot`: a player's bot played through the referee under the profiler, its slow
lines' functions named, a flame graph written, other languages timed line by line with
the CPU of all their threads and processes, and their own profilers' commands given."""

import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import threading
import time

import pytest

from tests.project import PUBLIC, ROOT, run_referee
from referee.lab.profile.bot_match import python_target, sampled_command
from referee.lab.profile.cpu_clock import CpuPoller, ProcessClocks
from referee.lab.profile.next_tools import next_tool
from referee.lab.profile.turn_samples import CpuReadings, read_samples, split_turns
from referee.box import proctree

SLOW_BOT = f"{sys.executable} tests/bots/python/slow_third.py"
BRIEF_BOT = f"{sys.executable} tests/bots/python/brief.py"   # its whole run under 100 ms
PUZZLE = str(PUBLIC / "03_simple.txt")   # four links: the slow part comes before the third
SAMPLER = ROOT / "referee" / "lab" / "profile" / "sampler.py"
PROFILER_FILES = ("sampler.py", "runpy", "threading.py")
ROOMY = ("--slack", "10")   # a loaded machine's slow start must not lose the match


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


def line_rows(out: str) -> list[tuple[int, float, float]]:
    """(line, wall ms, cpu ms) of another language's table, in the order printed."""
    return [(int(m[1]), float(m[2]), float(m[3])) for m in
            re.finditer(r"^\s+(\d+)\s+([\d.]+)\s+([\d.]+)", out, re.MULTILINE)]


def need(*tools: str) -> None:
    """Skip (fail under CI, which installs them) when a toolchain is absent."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing and os.environ.get("CI"):
        pytest.fail(f"{', '.join(missing)} not found")
    if missing:
        pytest.skip(f"{', '.join(missing)} not found")


@pytest.fixture(scope="module")
def java_classes(tmp_path_factory):
    need("javac", "java")
    out = tmp_path_factory.mktemp("java")
    subprocess.run(["javac", "-d", str(out), str(ROOT / "tests/bots/java/Player.java")],
                   check=True, timeout=300)
    return str(out)


@pytest.fixture(scope="module")
def cpp_binary(tmp_path_factory):
    need("g++")
    binary = tmp_path_factory.mktemp("cpp") / "hashi"
    subprocess.run(["g++", "-O2", "-o", str(binary), str(ROOT / "tests/bots/cpp/hashi.cpp")],
                   check=True, timeout=300)
    return str(binary)


# -- a Python bot -----------------------------------------------------------------------------

@pytest.mark.slow
def test_the_slow_function_is_named_on_the_line_that_calls_it(tmp_path):
    flame = tmp_path / "slow.speedscope.json"
    done = run_referee("profile", "--bot", SLOW_BOT, PUZZLE, "--flame", str(flame), "--top", "3",
                       *ROOMY)
    assert done.returncode == 0, done.stderr
    found = tables(done.stdout)
    assert found[3][0] == "slow_part", done.stdout
    assert all("slow_part" not in names for line, names in found.items() if line != 3)
    assert "limits: CodinGame's x10 (first line 10000 ms, later lines 1000 ms)" in done.stdout
    data = json.loads(flame.read_text())
    frames = [frame["name"] for frame in data["shared"]["frames"]]
    third = next(p for p in data["profiles"] if p["name"] == "03_simple line 3")
    assert third["type"] == "sampled" and len(third["samples"]) == len(third["weights"])
    assert any(frames[stack[-1]] == "slow_part" for stack in third["samples"])
    assert data["profiles"][0]["name"] == "03_simple"


@pytest.mark.slow
def test_a_small_bot_gets_a_hundred_samples_and_none_of_the_profilers(tmp_path):
    flame = tmp_path / "brief.speedscope.json"
    done = run_referee("profile", "--bot", BRIEF_BOT, str(PUBLIC / "01_simplest.txt"),
                       "--flame", str(flame), *ROOMY)
    assert done.returncode == 0, done.stderr
    data = json.loads(flame.read_text())
    whole = next(p for p in data["profiles"] if p["name"] == "01_simplest")
    assert len(whole["samples"]) >= 100, done.stdout
    files = {frame["file"] for frame in data["shared"]["frames"]}
    assert not [f for f in files if any(own in f for own in PROFILER_FILES)], files
    assert "think" in tables(done.stdout)[1], done.stdout
    pooled = re.search(r"(\d+) matches pooled, (\d+) samples of the bot's code", done.stdout)
    assert pooled is None or int(pooled[2]) >= 100, done.stdout


@pytest.mark.slow
def test_overhead_prints_the_ratios_of_both_runs():
    done = run_referee("profile", "--bot", SLOW_BOT, PUZZLE, "--overhead", "--repeat", "1", *ROOMY)
    assert done.returncode == 0, done.stderr
    assert re.search(r"first line: profiled/unprofiled median x[\d.]+, max x[\d.]+ over 1 ",
                     done.stdout), done.stdout
    assert re.search(r"slowest later line: profiled/unprofiled median x[\d.]+", done.stdout)


def run_sampler(tmp_path, code: str, stdin: str = "") -> tuple[subprocess.CompletedProcess, bytes]:
    """The sampler run by hand on a script of `code`, every 0.1 ms; its records."""
    script, records = tmp_path / "bot.py", tmp_path / "records"
    script.write_text(code)
    with open(records, "wb") as out:
        done = subprocess.run([sys.executable, str(SAMPLER), "--fd", str(out.fileno()),
                               "--interval", "0.0001", "--", str(script)], input=stdin,
                              pass_fds=(out.fileno(),), capture_output=True, text=True, timeout=60)
    return done, records.read_bytes()


BUSY = """
import time
def work():
    end = time.perf_counter() + 0.03
    while time.perf_counter() < end:
        sum(range(100))
work()
"""


@pytest.mark.slow
def test_every_stack_starts_at_the_bots_own_code(tmp_path):
    done, records = run_sampler(tmp_path, BUSY)
    assert done.returncode == 0, done.stderr
    samples = read_samples(records)
    stacks = [stack for stack in samples.stacks if stack]
    assert len(stacks) >= 30
    assert all(stack[0].function == "<module>" and stack[0].file.endswith("bot.py")
               for stack in stacks)
    assert any(stack[-1].function == "work" for stack in stacks)
    assert not [f for stack in samples.stacks for f in stack
                if any(own in f.file for own in PROFILER_FILES)]


ALARM = """
import os, signal, time
end = time.perf_counter() + 0.02
while time.perf_counter() < end:
    pass
child = os.fork()
if child == 0:
    print("child", signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL),
          flush=True)
    os._exit(0)
os.waitpid(child, 0)
rang = []
signal.signal(signal.SIGALRM, lambda *_: rang.append(1))
signal.setitimer(signal.ITIMER_REAL, 0.05)
child = os.fork()
if child == 0:
    os._exit(0)
os.waitpid(child, 0)
time.sleep(0.1)
print("rang" if rang else "silent")
"""


@pytest.mark.slow
def test_a_bot_that_sets_its_own_alarm_is_handed_it(tmp_path):
    """Sampled until it takes SIGALRM, which then rings for it, a fork after that included;
    the child it forks is not sampled (no timer, SIGALRM at its default)."""
    done, records = run_sampler(tmp_path, ALARM)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "child 0 (0.0, 0.0)\nrang\n"
    kinds = [json.loads(line)[0] for line in records.splitlines()]
    assert kinds.count("handover") == 1 and kinds.count("sample") >= 10


# -- other languages ------------------------------------------------------------------------

@pytest.mark.slow
def test_a_java_bots_first_line_has_the_cpu_run_counts(java_classes, tmp_path):
    """The JVM's every thread: its first line's CPU within 20% of the match's CPU as run
    counts it, in the same match, and the median of five within what run itself measured of
    the same bot (interleaved), give or take 20%: a JVM's CPU moves with the machine's load
    (118 against 151 ms at the medians beside two busy processes and the hostile kit). The
    JVM's serial collector and first compiler only: with its parallel collector and second
    compiler, the same bot's CPU spanned 117 to 222 ms over ten runs on a loaded machine."""
    bot = f"java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp {java_classes} Player"
    ran, profiled = [], []
    for k in range(5):
        out = tmp_path / f"run{k}.json"
        done = run_referee("run", "--no-record", "--bot", bot, PUZZLE, "--json", str(out),
                           "--first-line-ms", "10000")
        assert done.returncode == 0, done.stderr
        ran.append(json.loads(out.read_text())["matches"][0]["cpu_ms"])
        done = run_referee("profile", "--bot", bot, PUZZLE, *ROOMY)
        assert done.returncode == 0, done.stderr
        first = dict((n, cpu) for n, _, cpu in line_rows(done.stdout))[1]
        whole = float(re.search(r"; ([\d.]+) ms in all, as run counts it", done.stdout)[1])
        assert 0.8 * whole <= first <= whole + 0.1, done.stdout
        profiled.append(first)
    profile_ms = statistics.median(profiled)
    assert 0.8 * min(ran) <= profile_ms <= 1.2 * max(ran), (ran, profiled)
    assert "-XX:StartFlightRecording=" in done.stdout and "+FlightRecorder" not in done.stdout


@pytest.mark.slow
def test_a_native_bots_lines_lead_with_the_slowest(cpp_binary):
    done = run_referee("profile", "--bot", cpp_binary, str(PUBLIC / "13_expert.txt"), "--top", "5",
                       *ROOMY)
    assert done.returncode == 0, done.stderr
    rows = line_rows(done.stdout)
    walls = [wall for _, wall, _ in rows]
    assert len(rows) == 5 and walls == sorted(walls, reverse=True) and 1 in [n for n, _, _ in rows]
    more = re.search(r"(\d+) more line\(s\)", done.stdout)
    assert more and int(more[1]) + 5 == 88, done.stdout
    assert "CPU: the match's cgroup" in done.stdout or "CPU: the CPU clocks" in done.stdout
    assert f"perf record -F 10000 --call-graph dwarf -o perf.data -- {cpp_binary}" in done.stdout


@pytest.mark.slow
def test_another_language_gets_every_line_with_its_cpu():
    need("node")
    done = run_referee("profile", "--bot", "node tests/bots/js/hashi.js", PUZZLE, *ROOMY)
    assert done.returncode == 0, done.stderr
    assert sorted(n for n, _, _ in line_rows(done.stdout)) == [1, 2, 3, 4]
    assert "node --cpu-prof --cpu-prof-interval 100 " in done.stdout


def hinted(argv: list[str], language: str) -> str:
    """The command the hint gives, on the public puzzle 03."""
    return next_tool(argv, language, PUZZLE)[0].strip()


def run_hint(command: str, cwd) -> None:
    done = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_the_hints_name_each_fields_profiler_with_current_flags():
    java = hinted(["java", "-cp", "out", "Player"], "java")
    assert java.startswith("java -XX:StartFlightRecording=filename=bot.jfr,settings=profile")
    assert java.endswith(f"-cp out Player < {PUZZLE}")
    assert hinted(["node", "bot.js"], "node").startswith("node --cpu-prof ")
    assert hinted(["./a.out"], "") == (f"perf record -F 10000 --call-graph dwarf -o perf.data "
                                       f"-- ./a.out < {PUZZLE}")
    assert "jfr print --events jdk.ExecutionSample bot.jfr" in next_tool(["java", "P"], "java",
                                                                         PUZZLE)[1]


@pytest.mark.slow
def test_the_java_hint_writes_its_recording(java_classes, tmp_path):
    run_hint(hinted(["java", "-cp", java_classes, "Player"], "java"), tmp_path)
    assert (tmp_path / "bot.jfr").stat().st_size > 0
    summary = subprocess.run(["jfr", "summary", str(tmp_path / "bot.jfr")], capture_output=True,
                             text=True, timeout=120) if shutil.which("jfr") else None
    assert summary is None or "jdk.ExecutionSample" in summary.stdout


@pytest.mark.slow
def test_the_node_hint_writes_its_cpu_profile(tmp_path):
    need("node")
    run_hint(hinted(["node", str(ROOT / "tests/bots/js/hashi.js")], "node"), tmp_path)
    profiles = list(tmp_path.glob("CPU.*.cpuprofile"))
    assert len(profiles) == 1 and json.loads(profiles[0].read_text())["samples"]


@pytest.mark.slow
def test_the_perf_hint_writes_its_data(cpp_binary, tmp_path):
    if shutil.which("perf") is None or subprocess.run(["perf", "--version"],
                                                      capture_output=True).returncode:
        pytest.skip("perf not found (linux-perf)")
    run_hint(hinted([cpp_binary], ""), tmp_path)
    assert (tmp_path / "perf.data").stat().st_size > 0


# -- the CPU count ----------------------------------------------------------------------------

FAMILY = """
import os, resource, sys, threading, time
def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
child = os.fork()
if child == 0:
    burn(0.15)
    os._exit(0)
os.waitpid(child, 0)
worker = threading.Thread(target=burn, args=(0.1,))
worker.start(); worker.join()
own, child = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(own.ru_utime + own.ru_stime + child.ru_utime + child.ru_stime, flush=True)   # in us, not ticks
sys.stdin.readline()
"""


@pytest.mark.slow
def test_the_process_clocks_keep_what_ended_processes_and_threads_used():
    """A child process and a thread that both end before the last reading still count."""
    family = subprocess.Popen([sys.executable, "-c", FAMILY], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        clocks = ProcessClocks(lambda: [family.pid, *proctree.descendants(family.pid)])
        done = threading.Event()
        readings = []

        def poll():
            while not done.is_set():
                readings.append(clocks.seconds())
                time.sleep(0.001)
        poller = threading.Thread(target=poll)
        poller.start()
        told = float(family.stdout.readline())   # the family's own count, with its child
        done.set()
        poller.join()
        assert readings[-1] == pytest.approx(told, rel=0.1, abs=0.02)
        assert readings[-1] >= 0.25
    finally:
        family.kill()
        family.wait()


class Unboxed:
    """A sandbox with no cgroup: its processes are read."""

    def __init__(self, pids):
        self.pids = pids

    def cpu_seconds(self):
        return None

    def processes(self):
        return self.pids


def test_without_a_cgroup_the_poller_reads_the_processes_clocks():
    poller = CpuPoller(Unboxed([os.getpid()]), interval_s=0.001)
    end = time.process_time() + 0.02
    while time.process_time() < end:
        pass
    readings = poller.stop()
    assert "CPU clocks" in readings.source and len(readings.times) >= 2
    assert readings.seconds[-1] - readings.seconds[0] >= 0.015


# -- commands and records ---------------------------------------------------------------------

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
    for option in (["--overhead"], ["--samples", "50"], ["--interval", "0.3"]):
        done = run_referee("profile", *option)
        assert done.returncode == 2 and "give --bot CMD" in done.stderr


def test_the_python_command_keeps_its_interpreter_and_flags():
    assert python_target(["python3", "-X", "dev", "-u", "bot.py", "a"]) == (
        ["python3", "-X", "dev", "-u"], ["--", "bot.py", "a"])
    assert python_target(["python3", "-m", "bot"]) == (["python3"], ["-m", "bot", "--"])
    assert python_target(["./a.out"]) is None
    assert sampled_command(["java", "Player"], 7, 0.001) == ["java", "Player"]
    assert sampled_command(["python3", "bot.py"], 7, 0.0002)[-5:] == [
        "7", "--interval", "0.0002", "--", "bot.py"]


def test_samples_and_cpu_are_split_at_the_referees_stamps():
    records = "\n".join(json.dumps(r) for r in [
        ["start", 10.0, 0.001],
        ["frame", 0, "bot.py", "main", 1], ["frame", 1, "bot.py", "slow", 9],
        ["sample", 9.999, [0]],                  # start-up: before the input
        ["sample", 10.002, [0]],
        ["sample", 10.004, [0, 1]],
        ["sample", 10.0045, []],                 # outside the bot's code: no function's
        ["sample", 10.010, [0, 1]],              # the first line comes at 10.005
        ["sample", 10.0102, [0]],
    ]) + '\n["sample", 10.01'                   # cut short by the kill
    samples = read_samples(records.encode())
    cpu = CpuReadings((9.99, 10.0, 10.01, 10.02), (0.4, 0.5, 0.51, 0.53), "test")
    first, second = split_turns(samples, cpu, 10.0, (0.005, 0.006))
    assert first.samples == 2 and second.samples == 2
    main, slow = (frame for frame in samples.stacks[2])
    assert first.own[slow] == pytest.approx(0.002) and first.total[main] == pytest.approx(0.004)
    assert second.own[slow] == pytest.approx(0.005) and second.own[main] == pytest.approx(0.0002)
    assert first.cpu_s == pytest.approx(0.105)   # from the first reading, the bot's start
    assert second.cpu_s == pytest.approx(0.007)  # 10.005 to 10.011, between the readings


def test_work_after_a_line_left_the_bot_is_the_next_lines_though_stamped_later():
    # the bot's process says line 1 left at 10.003 and line 2 at 10.006; the referee read
    # line 1 at 10.005 (a late stamp) and line 2 at 10.0055 (said later than stamped)
    records = "\n".join(json.dumps(r) for r in [
        ["start", 10.0, 0.001],
        ["frame", 0, "bot.py", "main", 1], ["frame", 1, "bot.py", "slow", 9],
        ["sample", 10.002, [0]],
        ["wrote", 10.003, 1],
        ["sample", 10.004, [0, 1]],              # after line 1 left, before its stamp
        ["wrote", 10.006, 2],
        ["sample", 10.0058, [0, 1]],             # after line 2's stamp, before it was said
    ])
    samples = read_samples(records.encode())
    cpu = CpuReadings((10.0, 10.01), (0.5, 0.51), "test")
    first, second, third = split_turns(samples, cpu, 10.0, (0.005, 0.0005, 0.001))
    slow = samples.stacks[1][1]
    assert (first.samples, second.samples, third.samples) == (1, 1, 1)
    assert second.own[slow] == pytest.approx(0.001)   # from 10.003, when line 1 left
    assert third.own[slow] == pytest.approx(0.0003)   # from line 2's stamp, the earlier
    assert first.cpu_s == pytest.approx(0.003)


@pytest.mark.slow
def test_the_sampler_says_when_each_line_left_the_bot(tmp_path):
    # a forked child's line is not counted: a count that lags leaves the stamps to rule
    code = ("import os, sys\nprint('a', flush=True)\nsys.stdout.write('b\\nc\\n')\n"
            "sys.stdout.flush()\nif os.fork() == 0:\n    print('d', flush=True)\n"
            "    os._exit(0)\nos.wait()\n")
    done, records = run_sampler(tmp_path, code)
    assert done.returncode == 0 and done.stdout == "a\nb\nc\nd\n", done.stderr
    wrote = read_samples(records).wrote
    assert [lines for _, lines in wrote] == [1, 3]
    assert wrote[0][0] < wrote[1][0]


def test_run_match_hands_the_bot_a_descriptor_by_its_number(tmp_path):
    from referee.judge.board import load_board
    from referee.box.runner import run_match

    with open(tmp_path / "handed", "w+b") as handed:
        fd = handed.fileno()
        bot = [sys.executable, "-c", f"import os; os.write({fd}, b'from the bot')"]
        run_match(load_board(PUBLIC / "01_simplest.txt"), bot, pass_fds=(fd,))
        handed.seek(0)
        assert handed.read() == b"from the bot"
