"""The stamper's frames and requests, the reaper's report, and the box's filter option,
without a process: what the referee takes from the stamper, and what it takes on trust
from no one."""

import os

from referee.box import bubblewrap, sandbox, seccomp, stamper
from referee.box.lines import FrameReader, StderrTail
from referee.box.runner import ReaperStatus
from referee.box.sandbox import Mode
from referee.judge.limits import STDERR_TAIL_BYTES


def frame(kind: bytes, data: bytes = b"", at: float = 1.5) -> bytes:
    return stamper.FRAME.pack(kind, at, len(data)) + data


def test_the_stderr_frame_brings_the_count_and_the_tail_cut_to_its_size():
    tail = b"x" * 5000 + b"last words\n"
    data = frame(b"D", stamper.COUNT.pack(123456) + tail)
    reader = FrameReader()
    frames = reader.feed(data[:7]) + reader.feed(data[7:] + frame(b"Y"))
    assert [f.kind for f in frames] == ["D", "Y"]
    got = StderrTail.from_frame(frames[0].data)
    assert got.bytes == 123456 and got.text().endswith("last words\n")
    assert len(got.tail) == STDERR_TAIL_BYTES


def test_a_request_names_the_tail_and_the_passed_descriptors():
    text = "\0".join(["/w", "/a/cgroup.procs:/b/cgroup.procs", "5,7", "", "4096", "1",
                      "PATH=/bin", "bwrap", "--seccomp", "5"])
    config = stamper.parse(text)
    assert config == {"cwd": "/w", "join": ["/a/cgroup.procs", "/b/cgroup.procs"],
                      "pass": [5, 7], "idle": False, "tail": 4096, "env": {"PATH": "/bin"},
                      "argv": ["bwrap", "--seccomp", "5"]}


def test_the_reapers_report_is_read_only_in_its_own_shape():
    status = ReaperStatus()
    try:
        os.write(status.write_end, b"garbage\n\xff\xfe\0\n")
        assert status.read() is None and status.text == ""   # no report, no exception
    finally:
        os.close(status.write_end)
        status.close()
    status = ReaperStatus()
    try:
        os.write(status.write_end, b"-9 0.25 1e-05 2048\n")
        assert status.read() == -9 and status.text == "-9 0.25 1e-05 2048\n"
    finally:
        os.close(status.write_end)
        status.close()


def test_the_filter_is_one_of_bubblewraps_own_options(monkeypatch):
    monkeypatch.setattr(bubblewrap, "bwrap", lambda: "/usr/bin/bwrap")
    command = bubblewrap.bwrap_command(["/bin/true"], "/", "/bin", None, ("ready", "go"),
                                       seccomp_fd=9)
    end = command.index("--")
    assert command[command.index("--seccomp") + 1] == "9" and command.index("--seccomp") < end
    assert "--seccomp" not in bubblewrap.bwrap_command(["/bin/true"], "/", "/bin", None,
                                                       ("ready", "go"))


def test_a_box_without_a_filter_says_so_on_the_runs_first_line(monkeypatch):
    monkeypatch.setattr(seccomp, "this_machine", lambda: "x86_64")
    assert "system-call filter" not in sandbox.describe(Mode.BWRAP)
    monkeypatch.setattr(seccomp, "this_machine", lambda: "aarch64")
    assert ", no system-call filter on aarch64" in sandbox.describe(Mode.BWRAP)
    assert "system-call filter" not in sandbox.describe(Mode.SUBREAPER)
