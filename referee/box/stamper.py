"""The stamping process: starts the bot's launcher, and stamps its input and every output.

    python -I -S stamper.py

Started once by the referee (referee/box/stamper_client.py, at its first match) as a server: for
each match it forks a stamper, so a match costs a fork (a millisecond), not a Python's
start. Its stdin is a Unix SEQPACKET socket; each request is one message with the
descriptors [frames, control, *passed] and the text, NUL-separated:
`cwd, join, pass, idle, tail, env count, env items..., launcher argv...`. JOIN: the
cgroup.procs files the launcher joins, ':'-separated; PASS: the numbers the passed
descriptors keep in the launcher, ','-separated (a status pipe or a filter whose number its
command names); IDLE "1": the launcher runs at SCHED_IDLE (a box made ahead, which the
referee puts back to normal before the bot's exec); TAIL: how many of the last bytes of
the bot's stderr to keep. End of file on the socket (the referee ended, however it died):
the server leaves; each stamper ends with its own control pipe. Standard library only,
and no json: its import alone would double the server's start.

A stamper is the one place that reads the time of a line, so nothing the referee does
(sampling memory, judging, drawing, other matches, its garbage collector) can move a
stamp. Where the kernel allows it (root, or an RLIMIT_RTPRIO), it runs at real-time
priority: a line the bot writes wakes it at once, however many threads the bot keeps
busy. Without it, a stamp can only come late, never early: lateness counts against the
bot and is never forgiven, so no bot can buy a win.

A stamp is taken once read() has returned the bytes, never before: a bot can hold its
pipe's lock (a splice from an empty socket into its stdout holds it while it waits), and
a reader that woke on readable data then waits inside read(). Such a read can wait in the
kernel for as long as the bot likes, where no signal reaches it, so each of the bot's
pipes has a thread of its own (stdout: read and stamp; stderr: read and keep the tail;
stdin: write the gate and the input), and the main thread touches none of them: it
answers the referee (a sync, a kill) whatever the bot holds. A thread held so is never
waited for: the kill of the bot (its session here, its cgroup by the referee) ends the
lock's holder, and the read returns.

A stamper's descriptors: 1 the frames to the referee, control, the referee's commands, and
the passed ones for the launcher. The bot's stdin, stdout and stderr are pipes of the
stamper's; its stdin stays open until it ends, as on CodinGame. The launcher gets those
three and the passed descriptors, nothing else, and a session keyring of its own.

Commands (control): `G`: open the gate (a newline on the bot's stdin: the launcher waits
for it before its start mark and the bot's exec, so a launcher can be started ahead);
`I` + u32 length + bytes: write them to the bot's stdin, stamped as the write begins;
`S`: reply `Y` once every byte read before now is sent; `D`: reply with the bot's stderr
so far (a `D` frame); `C`: close the bot's stdin; `K`: kill the launcher's session.
End of file on control (the referee ended, however it died): kill and leave.

Frames (on 1), each a kind byte, a stamp (f64, perf_counter seconds) and a u32 length:
`T` the stamper's own pid and `P` the launcher's (in the length), `R` 1 if real-time
priority was had, `I` the input written (stamped as begun), `O` output bytes, `E` stdout closed, `Y` sync, `X`
the launcher exited: a text `status cpu_s maxrss_kib`; `D` the bot's stderr, when asked
and as the stamper leaves: a u64 count of all its bytes so far, then its tail.
"""

import os
import select
import signal
import struct
import time

FRAME = struct.Struct("<cdI")
COUNT = struct.Struct("<Q")   # opens a `D` frame: every byte the bot wrote to stderr
READ_BYTES = 65536
PIPE_BYTES = 1 << 20          # room for a burst while the referee is busy elsewhere
F_SETPIPE_SZ = 1031           # from <linux/fcntl.h>
RT_PRIORITY = 50
KILL_WAIT_S = 1.0             # for the launcher to end on SIGTERM
ORPHANS_WAIT_S = 0.5          # for the last of the launcher's processes to die
ERRORS_WAIT_S = 0.2           # for the end of the bot's stderr, once all its processes are gone
FLOOD_PAUSE_S = 0.001         # after each full read of the bot's stderr: 64 MB/s at most
PR_SET_CHILD_SUBREAPER = 36   # from <linux/prctl.h>
KEYCTL_JOIN_SESSION_KEYRING = 1   # from <linux/keyctl.h>
SYS_KEYCTL = {"x86_64": 250, "aarch64": 219}   # the keyctl call's number
AUTOGROUP_IDLE_NICE = 19      # a held launcher's session, until the referee restores it
GATE_OPEN = b"\n"             # what the launcher's gate waits for on the bot's stdin
REQUEST_BYTES = 1 << 20       # a request's text: the environment and the launcher's argv
MAX_FDS = 64                  # descriptors with one request


def send(kind: bytes, data: bytes = b"", size: int | None = None,
         stamp: float | None = None) -> bool:
    """A frame to the referee, stamped now (or at `stamp`) and written whole; False once
    the referee is gone. Callers hold the frames' lock: a frame's stamp and its place in
    the pipe agree."""
    stamp = time.perf_counter() if stamp is None else stamp
    frame = FRAME.pack(kind, stamp, len(data) if size is None else size) + data
    try:
        while frame:
            frame = frame[os.write(1, frame):]
    except OSError:
        return False
    return True


def write_all(fd: int, data: bytes) -> None:
    """Write `data` whole to the bot's stdin (nothing, once the bot is gone: the referee
    sees its end)."""
    try:
        while data:
            data = data[os.write(fd, data):]
    except OSError:
        pass


def real_time() -> bool:
    """Run this thread at real-time priority if allowed; threads and children it makes
    start at the normal policy."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK,
                              os.sched_param(RT_PRIORITY))
    except (OSError, AttributeError):
        return False
    return True


# The launcher's first steps, in a shell spawned without a copy of this process (a Python
# fork and its copied pages cost 5 ms of CPU a match): join each cgroup named before `--`,
# then become the command after it.
JOIN = ('while [ "$1" != -- ]; do { echo 0 > "$1"; } 2>/dev/null || '
        '{ echo "referee: cannot start the bot: cannot join the cgroup $1" >&2; exit 127; }; '
        'shift; done; shift; exec "$@"')
SHELL = "/bin/sh"


def start(config: dict, streams: tuple[int, int, int]) -> int:
    """Start the launcher: it joins the match's cgroups, takes its limits, a session and a
    session keyring of its own, the bot's three streams and the passed descriptors only,
    and becomes the launcher command (which drops to the box user). What the launcher
    inherits of this process (its core limit, its keyring, its folder) is set here first:
    a stamper serves one match."""
    import resource
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    new_session_keyring()
    if config.get("cwd"):
        os.chdir(config["cwd"])
    for fd in [int(name) for name in os.listdir("/proc/self/fd")]:
        try:   # the passed descriptors alone cross the exec (and the streams, below)
            os.set_inheritable(fd, fd in config["pass"])
        except OSError:
            pass   # the listing's own descriptor, closed by now
    streams_to = [(os.POSIX_SPAWN_DUP2, fd, number) for number, fd in enumerate(streams)]
    argv = [SHELL, "-c", JOIN, "sh", *config["join"], "--", *config["argv"]]
    if config["idle"]:   # the policy the launcher is born with (posix_spawn takes no
        set_policy(os.SCHED_IDLE)   # SCHED_IDLE of its own); this process's own after
    try:
        pid = os.posix_spawn(SHELL, argv, config["env"], file_actions=streams_to,
                             setsid=True, setsigmask=(),
                             setsigdef=(signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM))
    except OSError as error:   # said on the bot's stderr, as a launcher that fails says it
        return failed(f"referee: cannot start the bot: {error}\n", streams[2])
    finally:
        if config["idle"]:
            set_policy(os.SCHED_OTHER)
    if config["idle"]:
        idle_session(pid)
    return pid


def set_policy(policy: int) -> None:
    os.sched_setscheduler(0, policy, os.sched_param(0))


def failed(message: str, stderr: int) -> int:
    """A child that only says `message` on `stderr` and exits 127: the referee hears a
    launcher that could not start as it hears any other."""
    pid = os.fork()
    if pid == 0:
        os.write(stderr, message.encode())
        os._exit(127)
    return pid


def libc():
    """The C library, through ctypes (loaded once, by the server)."""
    global _libc
    if _libc is None:
        import ctypes
        _libc = ctypes.CDLL(None)
    return _libc


_libc = None


def new_session_keyring() -> None:
    """A session keyring of the launcher's own, which dies with the match's processes: not
    the referee's, which every bot would share (a channel from one bot to the next)."""
    number = SYS_KEYCTL.get(os.uname().machine)
    if number is not None:
        libc().syscall(number, KEYCTL_JOIN_SESSION_KEYRING, None)


def idle_session(pid: int) -> None:
    """The launcher's session at idle weight too (with autogroups on, a session competes
    with others as a whole, whatever its processes' own policy; the policy itself was set
    as it was spawned)."""
    try:
        with open(f"/proc/{pid}/autogroup", "w") as file:
            file.write(str(AUTOGROUP_IDLE_NICE))
    except OSError:
        pass   # no autogroups here, or it has ended


def kill(pid: int, exited: int) -> None:
    """End the launcher: SIGTERM first (the reaper then kills and reaps all the bot
    started; a box dies with bubblewrap), SIGKILL to its session if it lingers."""
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        pass
    select.select([exited], [], [], KILL_WAIT_S)
    for target in (-pid, pid):
        try:
            os.kill(target, signal.SIGKILL)
        except OSError:
            pass


def exit_text(pid: int) -> bytes:
    _, status, usage = os.wait4(pid, 0)
    return (f"{os.waitstatus_to_exitcode(status)} {usage.ru_utime + usage.ru_stime} "
            f"{usage.ru_maxrss}").encode()


def read_command(commands: int) -> tuple[str, bytes]:
    """One command from the referee; ('', b'') at end of file."""
    kind = os.read(commands, 1)
    if kind != b"I":
        return kind.decode(), b""
    size = struct.unpack("<I", _read_exactly(commands, 4))[0]
    return "I", _read_exactly(commands, size)


def _read_exactly(fd: int, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def parse(text: str) -> dict:
    """A request's text: cwd, join, pass, idle, tail, the environment, the launcher's argv."""
    cwd, join, passed, idle, tail, count, *rest = text.split("\0")
    items, argv = rest[:int(count)], rest[int(count):]
    return {"cwd": cwd, "join": [p for p in join.split(":") if p],
            "pass": [int(fd) for fd in passed.split(",") if fd], "idle": idle == "1",
            "tail": int(tail), "env": dict(item.split("=", 1) for item in items),
            "argv": argv}


def place(fds: list[int], targets: list[int]) -> None:
    """Give each descriptor of `fds` the number at the same place in `targets`."""
    base = max([*fds, *targets, 2]) + 1   # above every number in play: no move overwrites one
    import fcntl
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, base) for fd in fds]
    for fd in fds:
        os.close(fd)
    for fd, target in zip(high, targets):
        os.dup2(fd, target)
        os.close(fd)


def adopt_orphans() -> None:
    """Be the child subreaper of the launcher's processes: what a killed launcher leaves (the
    init of bubblewrap's PID namespace) comes here to be reaped, not to the machine's init,
    which in a container may never reap it."""
    libc().prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def reap_orphans() -> None:
    """Reap every child left (each dead or dying: the referee has killed the bot)."""
    deadline = time.monotonic() + ORPHANS_WAIT_S
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return   # none left
        if pid == 0:
            if time.monotonic() > deadline:
                return
            time.sleep(0.001)


class Streams:
    """The bot's three pipes, each served by a thread of its own (see the docstring);
    `lock` orders the frames, each stamped as it is sent."""

    def __init__(self, tail_bytes: int):
        import _queue
        import _thread
        self.lock = _thread.allocate_lock()
        self.orders = _queue.SimpleQueue()   # (command, bytes) for the stdin thread
        self.tail, self.count, self._tail_bytes = b"", 0, tail_bytes
        self._errors_open = _thread.allocate_lock()   # held until the bot's stderr ends
        self._errors_open.acquire()
        self.in_read, self.bot_in = os.pipe()
        self.out_read, self.out_write = os.pipe()
        self.err_read, self.err_write = os.pipe()
        for fd in (self.out_read, 1):
            try:
                import fcntl
                fcntl.fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES)
            except OSError:
                pass   # the machine's pipe-max-size is smaller: the default size serves

    def bot_ends(self) -> tuple[int, int, int]:
        return self.in_read, self.out_write, self.err_write

    def serve(self) -> None:
        """Close the bot's ends here (the launcher has them) and start the threads."""
        import _thread   # not threading, whose import would add milliseconds to the server's start
        for fd in self.bot_ends():
            os.close(fd)
        for work in (self._stamp_output, self._keep_errors, self._feed_input):
            _thread.start_new_thread(work, ())

    def _stamp_output(self) -> None:
        """The bot's stdout: each chunk stamped once read() has returned it, so a read held
        by the pipe's lock stamps the bytes when they came, never when the pipe woke us."""
        real_time()
        while True:
            try:
                data = os.read(self.out_read, READ_BYTES)
            except OSError:
                data = b""
            with self.lock:
                if not send(b"O" if data else b"E", data) or not data:
                    return

    def _keep_errors(self) -> None:
        """The bot's stderr: only its tail and its count are kept, for the referee at the
        end. A flood is read at a pace (a full read, then a pause): real-time priority is
        for stamps, not for a bot's stderr, and a bot that floods waits on its own pipe."""
        real_time()   # a thread at the normal policy holding the GIL would delay a stamp
        try:
            while data := os.read(self.err_read, READ_BYTES):   # no lock: a stamp never waits
                self.count += len(data)
                self.tail = (self.tail + data)[-self._tail_bytes:]
                if len(data) == READ_BYTES:
                    time.sleep(FLOOD_PAUSE_S)
        except OSError:
            pass
        self._errors_open.release()

    def _feed_input(self) -> None:
        """The bot's stdin: the gate, the input, its end. The input is stamped as its write
        begins: the bot may read and answer before this thread runs again, and a write the
        bot holds up starts its clock all the same."""
        real_time()
        while True:
            kind, data = self.orders.get()
            if kind == "C":
                os.close(self.bot_in)
                return
            begun = time.perf_counter()
            write_all(self.bot_in, data)
            if kind == "I":
                with self.lock:
                    send(b"I", stamp=begun)

    def send_errors(self) -> None:
        """The stderr's count and tail so far."""
        with self.lock:
            send(b"D", COUNT.pack(self.count) + self.tail)

    def send_last_errors(self) -> None:
        """The stderr's count and tail, once the bot's processes are gone (its stderr ends
        then; one held open elsewhere is not waited for past ERRORS_WAIT_S)."""
        if self._errors_open.acquire(timeout=ERRORS_WAIT_S):
            self._errors_open.release()
        self.send_errors()


def stamp(config: dict, control: int) -> None:
    """One match: start the launcher, then serve the referee until it is done with it."""
    adopt_orphans()
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    streams = Streams(config["tail"])
    send(b"T", size=os.getpid())
    pid = start(config, streams.bot_ends())
    send(b"P", size=pid)
    send(b"R", size=int(real_time()))
    streams.serve()
    exited = os.pidfd_open(pid)
    watched = [control, exited]
    while True:
        ready, _, _ = select.select(watched, [], [])
        if control in ready:
            kind, data = read_command(control)
            if kind in ("G", "I", "C"):
                streams.orders.put((kind, GATE_OPEN if kind == "G" else data))
            elif kind == "S":
                with streams.lock:   # after every chunk stamped before now
                    send(b"Y")
            elif kind == "D":
                streams.send_errors()
            else:   # "K", or the referee is gone
                if exited in watched:
                    kill(pid, exited)
                if kind == "":
                    break
        if exited in ready:
            watched.remove(exited)
            text = exit_text(pid)
            with streams.lock:
                send(b"X", text)
            try:
                os.kill(-pid, signal.SIGKILL)   # what is left of its session
            except OSError:
                pass
    reap_orphans()
    streams.send_last_errors()


def stamper(message: bytes, fds: list[int]) -> None:
    """In the forked child: take the request's descriptors, then stamp its match."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)   # the launcher's exit is the stamper's
    config = parse(message.decode())
    control = max([*fds, *config["pass"], 2]) + 1   # a number no other descriptor takes
    place(fds, [1, control, *config["pass"]])       # frames, control, passed
    null = os.open(os.devnull, os.O_RDONLY)
    if null != 0:
        os.dup2(null, 0)
        os.close(null)
    stamp(config, control)


def reap_stampers(*_) -> None:
    """SIGCHLD in the server: reap every stamper that has ended."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def serve() -> None:
    """Fork a stamper for each request on stdin until the referee closes it."""
    # what every stamper uses, loaded once here: a stamper's own import would cost it
    import _queue    # noqa: F401  (a millisecond a match, and the pages it writes)
    import fcntl     # noqa: F401
    import resource  # noqa: F401
    libc()
    import socket
    server = socket.socket(fileno=os.dup(0))
    os.close(0)
    signal.signal(signal.SIGCHLD, reap_stampers)
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(server, REQUEST_BYTES, MAX_FDS)
        except OSError:
            return
        if not message:
            return   # the referee is gone
        if os.fork() == 0:
            server.close()
            try:
                stamper(message, fds)
            except BaseException as error:
                os.write(2, f"referee: the stamper failed: {error}\n".encode())
            os._exit(0)
        for fd in fds:
            os.close(fd)


if __name__ == "__main__":
    serve()
