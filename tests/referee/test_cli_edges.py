"""Edges of the command line: special files, closed stdin, odd bytes, exit statuses."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.project import PUBLIC, ROOT, run_referee
from referee.judge.board import BoardError, load_board, parse_board
from referee.lab.workers import WorkersError, open_workers

SIMPLER = str(PUBLIC / "02_simpler.txt")
FAKE_BOT = f"{sys.executable} tests/fakebots/silent.py"   # never started: the puzzles fail first


def usage_error(run, command, *parts):
    """Exit 2 with one line `python -m referee COMMAND: error: ...` holding each part."""
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.startswith(f"python -m referee {command}: error: "), run.stderr
    for part in parts:
        assert part in run.stderr


@pytest.fixture
def fifo_dir(tmp_path):
    """A directory holding a real puzzle and a named pipe called zz.txt (no writer ever)."""
    shutil.copy(SIMPLER, tmp_path / "02_simpler.txt")
    os.mkfifo(tmp_path / "zz.txt")
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("command, extra", [
    ("run", ["--bot", FAKE_BOT]), ("bench", []), ("profile", []), ("explain", []),
    ("show", []), ("play", ["--out", "{dir}/p.html"])])
def test_a_named_pipe_named_directly_is_refused_not_read(fifo_dir, command, extra):
    extra = [arg.format(dir=fifo_dir) for arg in extra]
    run = run_referee(command, str(fifo_dir / "zz.txt"), *extra, timeout=60)
    usage_error(run, command, "zz.txt: cannot read: a named pipe, not a regular file")


@pytest.mark.slow
@pytest.mark.parametrize("command, extra", [
    ("run", ["--bot", FAKE_BOT]), ("bench", []), ("play", ["--out", "{dir}/p.html"])])
def test_a_named_pipe_inside_a_directory_is_refused_not_read(fifo_dir, command, extra):
    extra = [arg.format(dir=fifo_dir) for arg in extra]
    run = run_referee(command, str(fifo_dir), *extra, timeout=60)
    usage_error(run, command, "zz.txt: cannot read: a named pipe, not a regular file")
    assert not (fifo_dir / "p.html").exists()


@pytest.mark.slow
@pytest.mark.parametrize("command, output", [
    ("run", ["--bot", FAKE_BOT, "--json"]), ("bench", ["--startup-runs", "0", "--json"]),
    ("play", ["--out"])])
def test_an_output_that_is_a_pipe_or_a_symlink_loop_is_refused_before_the_work(
        fifo_dir, command, output):
    os.symlink(fifo_dir / "loop2", fifo_dir / "loop1")
    os.symlink(fifo_dir / "loop1", fifo_dir / "loop2")
    for name, said in (("zz.txt", "not a regular file"), ("loop1", "a symlink to nowhere")):
        run = run_referee(command, str(SIMPLER), *output, str(fifo_dir / name), timeout=60)
        usage_error(run, command, f"cannot write --{output[-1].lstrip('-')}", said)


@pytest.mark.slow
@pytest.mark.parametrize("command, extra", [
    ("run", ["--bot", FAKE_BOT]), ("bench", []), ("play", ["--out", "{dir}/p.html"])])
def test_a_puzzle_name_too_long_or_a_symlink_loop_is_one_line(tmp_path, command, extra):
    extra = [arg.format(dir=tmp_path) for arg in extra]
    os.symlink(tmp_path / "loop2.txt", tmp_path / "loop1.txt")
    os.symlink(tmp_path / "loop1.txt", tmp_path / "loop2.txt")
    for name in ("x" * 300 + ".txt", "loop1.txt"):
        run = run_referee(command, str(tmp_path / name), *extra, timeout=60)
        usage_error(run, command)


@pytest.mark.slow
def test_a_device_is_refused_as_a_puzzle_and_as_links():
    usage_error(run_referee("show", os.devnull, timeout=60), "show",
                "cannot read: a character device, not a regular file")
    run = run_referee("show", SIMPLER, "--links", os.devnull, timeout=60)
    usage_error(run, "show", f"--links {os.devnull}: cannot read: a character device")


@pytest.mark.slow
def test_show_links_from_a_named_pipe_is_refused(fifo_dir):
    run = run_referee("show", SIMPLER, "--links", str(fifo_dir / "zz.txt"), timeout=60)
    usage_error(run, "show", "--links", "a named pipe, not a regular file")


def referee_bytes(*args, stdin=None, close_stdin=False):
    """`python -m referee ARGS` with bytes on stdin, or with stdin closed (`<&-`)."""
    argv = [sys.executable, "-m", "referee", *args]
    if close_stdin:
        argv = ["sh", "-c", 'exec "$@" <&-', "sh", *argv]
    return subprocess.run(argv, cwd=ROOT, input=stdin, capture_output=True, timeout=60)


@pytest.mark.slow
def test_show_links_from_a_closed_stdin_is_a_usage_error():
    run = referee_bytes("show", SIMPLER, "--links", "-", close_stdin=True)
    assert run.returncode == 2, run.stderr
    assert run.stderr == b"python -m referee show: error: cannot read --links -: stdin is closed\n"


@pytest.mark.slow
def test_show_judges_bytes_that_are_not_utf8_alike_from_a_file_and_from_stdin(tmp_path):
    data = b"0 1 1 1 2\n\xff\xfe 0 0 0 1 2\n"
    (tmp_path / "out.txt").write_bytes(data)
    from_file = referee_bytes("show", SIMPLER, "--links", str(tmp_path / "out.txt"))
    from_stdin = referee_bytes("show", SIMPLER, "--links", "-", stdin=data)
    for run in (from_file, from_stdin):
        assert run.returncode == 1, run.stderr
        assert "LOST: malformed at line 2: " in run.stdout.decode()
        assert "\ufffd\ufffd 0 0 0 1 2" in run.stdout.decode()   # as run decodes a bot's output
    assert from_file.stdout == from_stdin.stdout


@pytest.mark.slow
def test_a_puzzle_file_may_start_with_a_bom(tmp_path):
    (tmp_path / "p.txt").write_bytes(b"\xef\xbb\xbf3\r\n1\r\n1.1\r\n")   # as Notepad saves it
    (tmp_path / "p.json").write_text('\ufeff{"testIn": "3\\n1\\n1.1\\n"}', encoding="utf-8")
    expected = parse_board("3\n1\n1.1\n")
    assert load_board(tmp_path / "p.txt") == expected
    assert load_board(tmp_path / "p.json") == expected
    run = run_referee("show", str(tmp_path / "p.txt"), timeout=60)
    assert run.returncode == 0 and run.stdout.startswith("p: 3x1, 2 nodes\n"), run.stderr


def test_a_bom_inside_a_puzzle_is_still_refused(tmp_path):
    (tmp_path / "p.txt").write_text("3\n\ufeff1\n1.1\n", encoding="utf-8")
    with pytest.raises(BoardError, match="line 2: height must be an integer"):
        load_board(tmp_path / "p.txt")


def test_a_bom_before_links_is_judged_as_run_judges_a_bot_printing_it(tmp_path):
    (tmp_path / "out.txt").write_text("\ufeff0 0 2 0 1\n", encoding="utf-8")
    run = referee_bytes("show", SIMPLER, "--links", str(tmp_path / "out.txt"))
    assert run.returncode == 1 and b"LOST: malformed at line 1" in run.stdout, run.stderr


UNSOLVABLE = "3\n1\n1.2\n"   # a 1 and a 2 with one link between them at most


@pytest.mark.slow
def test_play_with_only_unsolvable_puzzles_exits_1_and_writes_no_page(tmp_path):
    (tmp_path / "u.txt").write_text(UNSOLVABLE)
    run = run_referee("play", str(tmp_path / "u.txt"), "--out", str(tmp_path / "p.html"))
    assert run.returncode == 1, run.stderr
    assert "p.html not written: no puzzle to put in it (1 left out with no solution)" in run.stderr
    assert run.stdout == "" and not (tmp_path / "p.html").exists()


@pytest.mark.slow
def test_play_writes_the_solvable_ones_and_says_what_it_left_out(tmp_path):
    (tmp_path / "u.txt").write_text(UNSOLVABLE)
    out = tmp_path / "p.html"
    run = run_referee("play", SIMPLER, str(tmp_path / "u.txt"), "--out", str(out))
    assert run.returncode == 1, run.stderr
    assert run.stdout.startswith(f"{out}: 1 puzzle(s), ") and run.stdout.endswith(
        " bytes; 1 left out with no solution\n")


@pytest.mark.slow
def test_play_gen_short_of_its_count_exits_1_with_gens_hint_and_leaves_the_page(tmp_path):
    out = tmp_path / "p.html"
    out.write_text("an earlier page")
    run = run_referee("play", "--gen", "4x4:count=1", "--out", str(out))   # no 4x4 is medium
    assert run.returncode == 1, run.stderr
    assert "gen 4x4_easy_unique_s1: tried 1, kept 1 of 1\n" in run.stderr   # gen's progress
    assert ("play: --gen 4x4_medium_unique_s1: only 0 of 1 puzzles found in 100 attempts (easy 100); "
            "raise the attempts") in run.stderr and run.stderr.endswith("; no page written\n")
    assert run.stdout == "" and out.read_text() == "an earlier page"
    full = run_referee("play", "--gen", "3x3:easy:count=2", "--out", str(out))
    assert full.returncode == 0 and full.stdout.endswith(" bytes\n"), full.stderr


@pytest.mark.slow
def test_gen_short_of_easy_or_medium_boards_says_to_ask_for_unique_ones(tmp_path):
    run = run_referee("gen", "--size", "30x30", "--difficulty", "medium", "--count", "1",
                      "--attempts", "3", "--out", str(tmp_path))
    assert run.returncode == 1
    assert run.stderr.splitlines()[-1] == (
        "gen: only 0 of 1 puzzles found in 3 attempts (hard 3); most boards had several "
        "solutions and so needed search: ask for unique ones (--unique, or unique in a SPEC)")


@pytest.mark.slow
def test_play_checks_every_gen_spec_before_making_a_set(tmp_path):
    run = run_referee("play", "--gen", "2x2:hard:count=1", "--gen", "6x6:tricky",
                      "--out", str(tmp_path / "p.html"))
    usage_error(run, "play", "--gen 6x6:tricky: unknown part 'tricky'")   # and nothing made first


@pytest.mark.slow
def test_play_names_an_sdk_test_by_its_title_as_run_does(tmp_path):
    sdk = {"title": {"2": "Simpler", "1": "Plus simple"}, "testIn": "2\n2\n2.\n42\n"}
    (tmp_path / "02.json").write_text(json.dumps(sdk))
    out = tmp_path / "p.html"
    run = run_referee("play", str(tmp_path / "02.json"), SIMPLER, "--out", str(out))
    assert run.returncode == 0, run.stderr
    names = re.findall(r'"name": ?"([^"]*)"', out.read_text())
    assert names == ["Simpler", "02_simpler"]


@pytest.mark.slow
@pytest.mark.parametrize("command, extra", [
    ("bench", [SIMPLER]), ("gen", ["--size", "5x5", "--count", "1", "--out", "{dir}"])])
def test_a_malformed_dask_address_is_one_line_and_no_client_is_left(tmp_path, command, extra):
    pytest.importorskip("distributed")
    extra = [arg.format(dir=tmp_path / "out") for arg in extra]
    run = run_referee(command, "--dask", "notanaddress", *extra, timeout=90)
    usage_error(run, command, "--dask notanaddress: cannot reach the scheduler "
                              "(missing port number in address 'notanaddress')")


@pytest.mark.parametrize("address, message", [
    (":8786", "expected HOST:PORT with a port 1..65535"),
    ("tcp://127.0.0.1:99999", "expected HOST:PORT with a port 1..65535"),
    ("inproc://x", "inproc names a scheduler inside this process"),
    ("tcp://[::1", "ipv6 needs brackets"),
    ("nowhere://x", "unknown address scheme 'nowhere'")])
def test_dask_addresses_that_name_no_scheduler_are_refused_before_connecting(address, message):
    pytest.importorskip("distributed")
    with pytest.raises(WorkersError, match=re.escape(f"--dask {address}: cannot reach the "
                                                     f"scheduler (") + ".*" + re.escape(message)):
        open_workers(dask=address)


def python_says(code):
    """Run `code` in a fresh Python from the project root: (exit status, stdout, stderr)."""
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=90)
    return run.returncode, run.stdout, run.stderr


@pytest.mark.slow
def test_a_client_that_fails_to_start_says_nothing_when_it_is_collected():
    pytest.importorskip("distributed")
    status, out, err = python_says(
        "from referee.lab import workers\n"
        "workers._check_address = lambda address: None   # let the Client meet it\n"
        "try:\n"
        "    workers.open_workers(dask='tcp://[::1')\n"
        "except workers.WorkersError as error:\n"
        "    print(error)\n")
    assert status == 0 and out.startswith("--dask tcp://[::1: cannot reach the scheduler ("), err
    assert err == ""   # no "Exception ignored in: Client.__del__", after no 20 s wait


def test_dask_missing_from_the_venv_is_a_plain_workers_error():
    status, out, err = python_says(
        "import sys\n"
        "sys.modules['distributed'] = None   # as if dask.distributed were not installed\n"
        "from referee.lab import workers\n"
        "try:\n"
        "    workers.open_workers(dask='notanaddress')\n"
        "except workers.WorkersError as error:\n"
        "    print(error)\n")
    assert (status, err) == (0, "")
    assert out == "--dask needs dask.distributed: pip install -e '.[lab]'\n"


def _script(path, first_line):
    path.write_text(f"{first_line}\nprint('0 0 2 0 1')\n")
    path.chmod(0o755)
    return str(path)


@pytest.mark.slow
def test_a_bot_whose_shebang_names_no_interpreter_is_a_usage_error_not_a_lost_match(tmp_path):
    # Before, the match was played and lost: "the bot exited with status 127".
    absent = _script(tmp_path / "absent.py", "#!/nonexistent/python3")
    unnamed = _script(tmp_path / "unnamed.py", "#!/usr/bin/env -S no-such-python-xyz -u")
    simplest = str(PUBLIC / "01_simplest.txt")
    for command, said in ((["run", "--bot", absent], "#!/nonexistent/python3, which is not there"),
                          (["run", "--bot", unnamed], "#!/usr/bin/env -S no-such-python-xyz -u"),
                          (["bench", "--startup-runs", "1", "--bundle", absent],
                           "bundle program " + absent + " starts with #!/nonexistent/python3")):
        run = run_referee(*command, simplest)
        assert run.returncode == 2, run.stdout + run.stderr
        assert said in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_a_script_whose_interpreter_is_there_is_accepted(tmp_path):
    from referee.cli.args import command_argv, missing_interpreter

    for first_line in ("#!/bin/sh", "#!/usr/bin/env sh", f"#!{sys.executable} -u", "no shebang"):
        script = _script(tmp_path / "bot", first_line)
        assert missing_interpreter(tmp_path / "bot") == ""
        assert command_argv(script, "--bot") == [script]
