"""The box's system-call filter (referee/box/seccomp.py).

First a classic BPF interpreter of the test's own, with number tables of its own, runs the
program for every ABI; then the kernel runs it, under bubblewrap: the refused calls fail
with the chosen errno, and Python, C, C++, Java and Node programs still do their work.
"""

import errno
import json
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from referee.box import seccomp

ROOT = Path(__file__).parents[2]

# The test's own constants, from linux/audit.h and linux/seccomp.h
ARCH_X86_64, ARCH_I386, ARCH_AARCH64, ARCH_ARM = 0xC000003E, 0x40000003, 0xC00000B7, 0x40000028
X32 = 0x40000000
ALLOW, KILL_PROCESS, ERRNO = 0x7FFF0000, 0x80000000, 0x00050000

# Refused calls and the errno each answers
SPLICE_FAMILY = {"splice", "tee", "vmsplice", "sendfile", "sendfile64"}
EXPECTED_ERRNO = {name: errno.EINVAL if name in SPLICE_FAMILY else errno.ENOSYS
                  for name in ("splice", "tee", "vmsplice", "sendfile", "sendfile64",
                               "io_uring_setup", "io_uring_enter", "io_uring_register",
                               "add_key", "request_key", "keyctl")}
REFUSED = {
    "x86_64": (ARCH_X86_64, {"sendfile": 40, "add_key": 248, "request_key": 249,
                             "keyctl": 250, "splice": 275, "tee": 276, "vmsplice": 278,
                             "io_uring_setup": 425, "io_uring_enter": 426,
                             "io_uring_register": 427}),
    "x32": (ARCH_X86_64, {"sendfile": X32 + 40, "add_key": X32 + 248,
                          "request_key": X32 + 249, "keyctl": X32 + 250,
                          "splice": X32 + 275, "tee": X32 + 276, "vmsplice": X32 + 532,
                          "io_uring_setup": X32 + 425, "io_uring_enter": X32 + 426,
                          "io_uring_register": X32 + 427}),
    "i386": (ARCH_I386, {"sendfile": 187, "sendfile64": 239, "add_key": 286,
                         "request_key": 287, "keyctl": 288, "splice": 313, "tee": 315,
                         "vmsplice": 316, "io_uring_setup": 425, "io_uring_enter": 426,
                         "io_uring_register": 427}),
}
ALLOWED = {
    "x86_64": (ARCH_X86_64, {"read": 0, "write": 1, "mmap": 9, "clone": 56, "execve": 59,
                             "wait4": 61, "futex": 202, "exit_group": 231, "openat": 257,
                             "pipe2": 293, "copy_file_range": 326, "clone3": 435}),
    "x32": (ARCH_X86_64, {"read": X32 + 0, "write": X32 + 1, "mmap": X32 + 9,
                          "clone": X32 + 56, "exit_group": X32 + 231, "openat": X32 + 257,
                          "execve": X32 + 520}),
    "i386": (ARCH_I386, {"read": 3, "write": 4, "execve": 11, "socketcall": 102,
                         "clone": 120, "mmap2": 192, "exit_group": 252, "openat": 295}),
}
HEADERS = Path("/usr/include/x86_64-linux-gnu/asm")
HEADER_OF = {"x86_64": "unistd_64.h", "x32": "unistd_x32.h", "i386": "unistd_32.h"}


def run_filter(program: bytes, nr: int, arch: int) -> int:
    """The action the program returns for a call: a cBPF interpreter of the few
    instructions a seccomp filter of this kind may hold, strict about the rest."""
    data = struct.pack("=II7Q", nr & 0xFFFFFFFF, arch, 0x401000, *[0] * 6)
    code = list(struct.iter_unpack("=HBBI", program))
    pc, a = 0, 0
    while True:
        assert 0 <= pc < len(code), "the program ran off its end"
        op, jt, jf, k = code[pc]
        if op == 0x20:                         # ld [k], a 32-bit word of seccomp_data
            assert k % 4 == 0 and k + 4 <= len(data) and jt == jf == 0
            a = struct.unpack_from("=I", data, k)[0]
            pc += 1
        elif op == 0x54:                       # and #k
            assert jt == jf == 0
            a &= k
            pc += 1
        elif op == 0x15:                       # jeq #k, jt, jf (forward only by design)
            pc += 1 + (jt if a == k else jf)
        elif op == 0x06:                       # ret #k
            assert jt == jf == 0
            return k
        else:
            raise AssertionError(f"opcode {op:#x} at {pc}")


def test_the_program_is_whole_instructions_within_the_kernels_limit():
    program = seccomp.program("x86_64")
    assert len(program) % 8 == 0 and 0 < len(program) // 8 <= 4096


@pytest.mark.parametrize("abi", sorted(REFUSED))
def test_each_refused_call_gets_its_errno(abi):
    arch, calls = REFUSED[abi]
    program = seccomp.program("x86_64")
    got = {name: run_filter(program, nr, arch) for name, nr in calls.items()}
    assert got == {name: ERRNO | EXPECTED_ERRNO[name] for name in calls}


@pytest.mark.parametrize("abi", sorted(ALLOWED))
def test_common_calls_are_allowed(abi):
    arch, calls = ALLOWED[abi]
    program = seccomp.program("x86_64")
    assert {name: run_filter(program, nr, arch) for name, nr in calls.items()} == {
        name: ALLOW for name in calls}


def test_x32_entries_the_64_bit_table_leaves_empty_are_refused_too():
    """vmsplice's x32 number without the bit, and its 64-bit number with it: whatever a
    kernel's tables hold there, the filter refuses both."""
    program = seccomp.program("x86_64")
    assert run_filter(program, 532, ARCH_X86_64) == ERRNO | errno.EINVAL
    assert run_filter(program, X32 + 278, ARCH_X86_64) == ERRNO | errno.EINVAL


def test_only_the_x32_bit_is_ignored():
    program = seccomp.program("x86_64")
    assert run_filter(program, 0x80000000 + 275, ARCH_X86_64) == ALLOW   # not a call: ENOSYS
    assert run_filter(program, 275, ARCH_I386) == ALLOW   # i386's 275 is not splice


@pytest.mark.parametrize("arch", [ARCH_AARCH64, ARCH_ARM, 0, 0x3E, 0x4000003E])
def test_an_unknown_arch_is_killed(arch):
    program = seccomp.program("x86_64")
    for nr in (0, 1, 275, 313, X32 + 275):
        assert run_filter(program, nr, arch) == KILL_PROCESS


def test_a_32_bit_personality_gets_the_same_filter():
    assert seccomp.program("i686") == seccomp.program("x86_64")


def test_an_unknown_machine_gets_no_filter():
    with pytest.raises(seccomp.UnknownMachine, match="aarch64"):
        seccomp.program("aarch64")
    with pytest.raises(seccomp.UnknownMachine):
        seccomp.program_fd("riscv64")


def test_this_machine_has_a_filter():
    if os.uname().machine not in seccomp.MACHINES:
        pytest.skip(f"no filter for {os.uname().machine}: the box must refuse to start")
    assert seccomp.program() == seccomp.program(os.uname().machine)


@pytest.mark.parametrize("abi", sorted(HEADER_OF))
def test_the_number_tables_match_the_kernel_headers(abi):
    """The test's tables and the module's, against linux-libc-dev's headers."""
    header = HEADERS / HEADER_OF[abi]
    if not header.exists():
        pytest.skip(f"{header} is not installed (linux-libc-dev)")
    numbers = {name: int(number) + (X32 if bit else 0) for name, bit, number in re.findall(
        r"#define __NR_(\w+)\s+(\(__X32_SYSCALL_BIT \+ )?(\d+)", header.read_text())}
    tables = {**REFUSED[abi][1], **ALLOWED[abi][1]}
    assert tables == {name: numbers[name] for name in tables}
    module = {"x86_64": seccomp.X86_64, "x32": seccomp.X32, "i386": seccomp.I386}[abi]
    assert module == {name: numbers[name] for name in module}


def test_the_assembler_refuses_a_jump_cbpf_cannot_make():
    far = [seccomp.jump_if(1, equal="end")] + [seccomp.ret(0)] * 256 + ["end", seccomp.ret(0)]
    with pytest.raises(ValueError, match="end"):
        seccomp.assemble(far)
    backward = ["start", seccomp.ret(0), seccomp.jump_if(1, equal="start"), seccomp.ret(0)]
    with pytest.raises(ValueError, match="start"):
        seccomp.assemble(backward)


def test_the_descriptor_holds_the_program_then_its_end():
    fd = seccomp.program_fd()
    try:
        assert stat.S_ISFIFO(os.fstat(fd).st_mode)
        assert not os.get_inheritable(fd)   # reaches a launcher through pass_fds only
        assert os.read(fd, 65536) == seccomp.program() and os.read(fd, 1) == b""
    finally:
        os.close(fd)


# ---- The kernel runs it, under bubblewrap -------------------------------------------


def boxed(argv: list[str], filtered: bool = True, **run) -> subprocess.CompletedProcess:
    """Run `argv` in a bubblewrap box (the host read-only, /dev/shm its own), under the
    filter unless told otherwise."""
    command = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
               "--tmpfs", "/dev/shm", "--unshare-pid", "--die-with-parent"]
    if os.geteuid() != 0:
        command.insert(1, "--unshare-user")
    fd = seccomp.program_fd() if filtered else None
    try:
        if fd is not None:
            command += ["--seccomp", str(fd)]
        return subprocess.run([*command, "--", *argv], pass_fds=() if fd is None else (fd,),
                              capture_output=True, text=True, timeout=120, **run)
    finally:
        if fd is not None:
            os.close(fd)


def _box_failure() -> str | None:
    """Why bubblewrap cannot make a filtered box here, or None."""
    if shutil.which("bwrap") is None:
        return "bwrap is not installed"
    if os.uname().machine not in seccomp.MACHINES:
        return f"no filter for {os.uname().machine}"
    try:
        run = boxed(["true"])
    except (OSError, subprocess.SubprocessError) as error:
        return f"bwrap cannot run: {error}"
    return None if run.returncode == 0 else f"bwrap cannot make a box: {run.stderr.strip()}"


BOX_FAILURE = _box_failure()
needs_box = pytest.mark.skipif(BOX_FAILURE is not None, reason=str(BOX_FAILURE))

# Each refused call, made with harmless arguments; prints {call: errno, or 0 on success}
PROBE = r"""
import ctypes, json, os

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def call(nr, *args):
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(nr), *(ctypes.c_long(arg) for arg in args))
    return ctypes.get_errno() if result == -1 else 0


def failure(function, *args):
    try:
        function(*args)
    except OSError as error:
        return error.errno
    return 0


def address(data):
    return ctypes.addressof(ctypes.create_string_buffer(data)) if data else 0


NONBLOCK = 2   # SPLICE_F_NONBLOCK: an empty pipe says EAGAIN at once
source, _ = os.pipe()
_, sink = os.pipe()
byte = ctypes.create_string_buffer(b"x")
iovec = (ctypes.c_void_p * 2)(ctypes.addressof(byte), 1)
params = ctypes.create_string_buffer(120)   # struct io_uring_params, zeroed
user, name = ctypes.create_string_buffer(b"user"), ctypes.create_string_buffer(b"probe")
file = os.open("/etc/passwd", os.O_RDONLY)
print(json.dumps({
    "splice": failure(os.splice, source, sink, 1, None, None, NONBLOCK),
    "tee": call(276, source, sink, 1, NONBLOCK),
    "vmsplice": call(278, sink, ctypes.addressof(iovec), 1, 0),
    "sendfile": failure(os.sendfile, sink, file, 0, 1),
    "io_uring_setup": call(425, 1, ctypes.addressof(params)),
    "io_uring_enter": call(426, -1, 0, 0, 0, 0, 0),
    "io_uring_register": call(427, -1, 0, 0, 0),
    "add_key": call(248, ctypes.addressof(user), ctypes.addressof(name),
                    ctypes.addressof(byte), 1, -2),   # the process keyring
    "request_key": call(249, ctypes.addressof(user), ctypes.addressof(name), 0, 0),
    "keyctl": call(250, 0, -3, 0),   # KEYCTL_GET_KEYRING_ID of the session keyring
}))
"""


@pytest.mark.slow
@needs_box
def test_the_kernel_refuses_each_call_with_its_errno():
    run = boxed([sys.executable, "-c", PROBE])
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got == {name: EXPECTED_ERRNO[name] for name in got}


@pytest.mark.slow
@needs_box
def test_without_the_filter_the_same_calls_do_not_say_so():
    """The errnos come from the filter, not from this kernel or the arguments."""
    run = boxed([sys.executable, "-c", PROBE], filtered=False)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    present = set(SPLICE_FAMILY)
    if Path("/proc/sys/kernel/keys").exists():
        present |= {"add_key", "request_key", "keyctl"}
    if Path("/proc/sys/kernel/io_uring_disabled").exists():
        present |= {"io_uring_setup", "io_uring_enter", "io_uring_register"}
    assert {name: got[name] for name in got if name in present
            and got[name] == EXPECTED_ERRNO[name]} == {}


WORK = r"""
import shutil, subprocess, sys, threading

print("line", sys.stdin.readline().strip(), flush=True)
with open("/etc/passwd") as file:
    print("read", len(file.read()) > 0)
child = subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True, text=True)
print("subprocess", child.stdout.strip())
done = []
threads = [threading.Thread(target=done.append, args=(n,)) for n in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("threads", sorted(done))
shutil.copyfile("/etc/passwd", "/dev/shm/copy")   # sendfile refused: read and write
with open("/etc/passwd") as original, open("/dev/shm/copy") as copy:
    print("copy", original.read() == copy.read())
for n in range(3):
    print("answer", n, flush=True)
"""


@pytest.mark.slow
@needs_box
def test_a_python_program_does_its_ordinary_work():
    run = boxed([sys.executable, "-c", WORK], input="hello\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "line hello", "read True", "subprocess 42", "threads [0, 1, 2, 3]", "copy True",
        "answer 0", "answer 1", "answer 2"]


@pytest.mark.slow
@needs_box
def test_setpriv_drops_to_a_user_under_the_filter():
    """The referee's launcher: bubblewrap, then setpriv, both under the filter."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("setpriv drops root only for root")
    run = boxed(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                 "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--",
                 "/bin/sh", "-c", "id -u; grep Seccomp: /proc/self/status"])
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["65534", "Seccomp:", "2"]


# Enters the kernel through the i386 gate (int 0x80) from a 64-bit program: no 32-bit
# libraries needed. rbp carries the sixth argument, so it is saved around the call.
I386_GATE = r"""
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static long i386_call(long nr, long a, long b, long c, long d, long e, long f)
{
    long result;
    __asm__ volatile("push %%rbp\n\tmov %7, %%rbp\n\tint $0x80\n\tpop %%rbp"
                     : "=a"(result)
                     : "0"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e), "r"(f)
                     : "memory", "r8", "r9", "r10", "r11");
    return result;
}

int main(void)
{
    int source[2], sink[2];
    int file = open("/etc/passwd", O_RDONLY);
    if (pipe(source) || pipe(sink) || file < 0)
        return 2;
    long pid = i386_call(20, 0, 0, 0, 0, 0, 0);                       /* getpid */
    long spliced = i386_call(313, source[0], 0, sink[1], 0, 1, 2);    /* splice, NONBLOCK */
    long sent = i386_call(187, sink[1], file, 0, 1, 0, 0);           /* sendfile */
    printf("getpid %s splice %ld sendfile %ld\n", pid > 0 ? "ok" : "failed", spliced, sent);
    return 0;
}
"""


@pytest.fixture(scope="module")
def i386_gate(tmp_path_factory):
    """The int 0x80 program, built; skipped where it cannot be."""
    if os.uname().machine != "x86_64" or shutil.which("gcc") is None:
        pytest.skip("needs gcc on x86_64")
    folder = tmp_path_factory.mktemp("i386-gate")
    (folder / "gate.c").write_text(I386_GATE)
    build = subprocess.run(["gcc", "-O1", "-mno-red-zone", "-o", str(folder / "gate"),
                            str(folder / "gate.c")], capture_output=True, text=True)
    if build.returncode != 0:
        pytest.skip(f"gcc cannot build the i386-gate program: {build.stderr.strip()}")
    return str(folder / "gate")


@pytest.mark.slow
@needs_box
def test_the_i386_gate_is_filtered_too(i386_gate):
    unfiltered = boxed([i386_gate], filtered=False)
    if "getpid ok" not in unfiltered.stdout:
        pytest.skip(f"this kernel has no i386 gate: {unfiltered.stdout}{unfiltered.stderr}")
    assert unfiltered.stdout.split() == ["getpid", "ok", "splice", str(-errno.EAGAIN),
                                         "sendfile", "1"]   # an empty pipe; a byte sent
    run = boxed([i386_gate])
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["getpid", "ok", "splice", str(-errno.EINVAL),
                                  "sendfile", str(-errno.EINVAL)]


# ---- Other languages' runtimes take their ordinary path -----------------------------


def needs(tool: str):
    return pytest.mark.skipif(shutil.which(tool) is None, reason=f"{tool} is not installed")


NODE = r"""
const fs = require("fs");
const line = fs.readFileSync(0, "utf8").trim();
fs.copyFileSync("/etc/passwd", "/dev/shm/copy");   // across file systems: sendfile
const same = fs.readFileSync("/dev/shm/copy", "utf8") === fs.readFileSync("/etc/passwd", "utf8");
fs.promises.readFile("/etc/passwd").then(data => {   // libuv's io_uring, if it has one
  console.log("line", line, "copy", same, "read", data.length > 0);
});
"""


@pytest.mark.slow
@needs_box
@needs("node")
@pytest.mark.parametrize("io_uring", ["", "1"])
def test_node_runs(io_uring):
    env = {**os.environ, "UV_USE_IO_URING": io_uring} if io_uring else None
    run = boxed(["node", "-e", NODE], input="hello\n", env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["line", "hello", "copy", "true", "read", "true"]


JAVA = r"""
import java.nio.channels.FileChannel;
import java.nio.file.*;

public class Copy {
    public static void main(String[] args) throws Exception {
        String line = new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
        Path from = Path.of("/etc/passwd"), to = Path.of("/dev/shm/copy");
        try (FileChannel in = FileChannel.open(from);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            in.transferTo(0, in.size(), out);   // sendfile, refused: a copy by read and write
        }
        Process child = new ProcessBuilder("true").start();
        System.out.println("line " + line + " copy " + (Files.mismatch(from, to) == -1)
                           + " child " + child.waitFor());
    }
}
"""


@pytest.mark.slow
@needs_box
@needs("java")
def test_java_runs(tmp_path):
    version = boxed(["java", "-version"])
    assert version.returncode == 0 and "version" in version.stderr, version.stderr
    (tmp_path / "Copy.java").write_text(JAVA)
    run = boxed(["java", str(tmp_path / "Copy.java")], input="hello\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["line", "hello", "copy", "true", "child", "0"]


CPP = r"""
#include <iostream>
#include <string>
#include <thread>

int main()
{
    std::string line;
    std::getline(std::cin, line);
    int answer = 0;
    std::thread worker([&answer] { answer = 42; });
    worker.join();
    std::cout << "line " << line << " thread " << answer << std::endl;
}
"""


@pytest.mark.slow
@needs_box
@needs("g++")
def test_a_cpp_program_runs(tmp_path):
    (tmp_path / "hello.cpp").write_text(CPP)
    build = subprocess.run(["g++", "-O1", "-pthread", "-o", str(tmp_path / "hello"),
                            str(tmp_path / "hello.cpp")], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = boxed([str(tmp_path / "hello")], input="hello\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["line", "hello", "thread", "42"]
