"""The stamping process: starts the bot's launcher, and stamps its input and every output.

    python -I -S stamper.py

Started once by the referee (referee/box/stamper_client.py, at its first match) as a server: for
each match it forks a stamper, so a match costs a fork (a millisecond), not a Python's
start. Its stdin is a Unix SEQPACKET socket; each request is one message with the
descriptors [frames, stderr, control, *passed] and the text, NUL-separated:
`cwd, join, pass, idle, env count, env items..., launcher argv...`. JOIN: the cgroup.procs
files the launcher joins, ':'-separated; PASS: the numbers the passed descriptors keep in
the launcher, ','-separated (a status pipe whose number its command names); IDLE "1": the
launcher runs at SCHED_IDLE (a box made ahead, which the referee puts back to normal
before the bot's exec). End of file on the socket (the referee ended, however it died):
the server leaves; each stamper ends with its own control pipe. Standard library only, and no json: its import alone would
double the server's start.

A stamper is the one place that reads the time of a line, so nothing the referee does
(sampling memory, judging, drawing, other matches, its garbage collector) can move a
stamp. Where the kernel allows it (root, or an RLIMIT_RTPRIO), it runs at real-time
priority: a line the bot writes wakes it at once, however many threads the bot keeps
busy. Without it, a stamp can only come late, never early: lateness counts against the
bot and is never forgiven, so no bot can buy a win.

A stamper's descriptors: 1 the frames to the referee, 2 the bot's stderr (the launcher
takes it), and control, the referee's commands. The bot's stdin is a pipe of the
stamper's, open until it ends, as on CodinGame.

Commands (control): `G`: open the gate (a newline on the bot's stdin: the launcher waits
for it before its start mark and the bot's exec, so a launcher can be started ahead);
`I` + u32 length + bytes: write them to the bot's stdin, stamp when written;
`S`: reply `Y` once everything already read is sent; `C`: close the bot's stdin;
`K`: kill the launcher's session.
End of file on control (the referee ended, however it died): kill and leave.

Frames (on 1), each a kind byte, a stamp (f64, perf_counter seconds) and a u32 length:
`T` the stamper's own pid and `P` the launcher's (in the length), `R` 1 if real-time
priority was had, `I` input written, `O` output bytes, `E` stdout closed, `Y` sync, `X`
the launcher exited: a text `status cpu_s maxrss_kib`.
"""

import os
import select
import signal
import struct
import time

FRAME = struct.Struct("<cdI")
READ_BYTES = 65536
PIPE_BYTES = 1 << 20          # room for a burst while the referee is busy elsewhere
F_SETPIPE_SZ = 1031           # from <linux/fcntl.h>
RT_PRIORITY = 50
KILL_WAIT_S = 1.0             # for the launcher to end on SIGTERM
ORPHANS_WAIT_S = 0.5          # for the last of the launcher's processes to die
PR_SET_CHILD_SUBREAPER = 36   # from <linux/prctl.h>
AUTOGROUP_IDLE_NICE = 19      # a held launcher's session, until the referee restores it
GATE_OPEN = b"\n"             # what the launcher's gate waits for on the bot's stdin
REQUEST_BYTES = 1 << 20       # a request's text: the environment and the launcher's argv
MAX_FDS = 64                  # descriptors with one request


def send(kind: bytes, data: bytes = b"", size: int | None = None,
         stamp: float | None = None) -> None:
    """A frame to the referee, written whole."""
    stamp = time.perf_counter() if stamp is None else stamp
    frame = FRAME.pack(kind, stamp, len(data) if size is None else size) + data
    while frame:
        frame = frame[os.write(1, frame):]


def write_all(fd: int, data: bytes) -> None:
    """Write `data` whole to the bot's stdin (nothing, once the bot is gone: the referee
    sees its end)."""
    try:
        while data:
            data = data[os.write(fd, data):]
    except OSError:
        pass


def real_time() -> bool:
    """Run at real-time priority if allowed; children fall back to normal."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK,
                              os.sched_param(RT_PRIORITY))
    except (OSError, AttributeError):
        return False
    return True


def start(config: dict, stdin: int, stdout: int) -> int:
    """Fork the launcher: it joins the match's cgroups, takes its limits and a session
    of its own, and becomes the launcher command (which drops to the box user)."""
    pid = os.fork()
    if pid:
        return pid
    try:
        for path in config["join"]:
            with open(path, "w") as file:
                file.write("0\n")
        import resource
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.setsid()
        os.dup2(stdin, 0)
        os.dup2(stdout, 1)
        for fd in [int(name) for name in os.listdir("/proc/self/fd")]:
            if fd > 2 and fd not in config["pass"]:
                try:
                    os.close(fd)
                except OSError:
                    pass
        for signum in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM):
            signal.signal(signum, signal.SIG_DFL)
        if config.get("cwd"):
            os.chdir(config["cwd"])
        if config["idle"]:   # made ahead: it takes only a CPU no one else wants
            idle()
        os.execvpe(config["argv"][0], config["argv"], config["env"])
    except BaseException as error:
        os.write(2, f"referee: cannot start the bot: {error}\n".encode())
    os._exit(127)


def idle() -> None:
    """Run at idle priority, and so does the session's autogroup (with autogroups on, a
    session competes with others as a whole, whatever its processes' own policy)."""
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    try:
        with open("/proc/self/autogroup", "w") as file:
            file.write(str(AUTOGROUP_IDLE_NICE))
    except OSError:
        pass   # no autogroups here


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


def read_command(commands: int) -> tuple[bytes, bytes]:
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
    """A request's text: cwd, join, pass, idle, the environment, the launcher's argv."""
    cwd, join, passed, idle, count, *rest = text.split("\0")
    items, argv = rest[:int(count)], rest[int(count):]
    return {"cwd": cwd, "join": [p for p in join.split(":") if p],
            "pass": [int(fd) for fd in passed.split(",") if fd], "idle": idle == "1",
            "env": dict(item.split("=", 1) for item in items), "argv": argv}


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
    import ctypes
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


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


def stamp(config: dict, control: int) -> None:
    """One match: start the launcher, then stamp until the referee is done with it."""
    adopt_orphans()
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    send(b"T", size=os.getpid())
    in_read, bot_in = os.pipe()
    out_read, out_write = os.pipe()
    for fd in (out_read, 1):
        try:
            import fcntl
            fcntl.fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES)
        except OSError:
            pass   # the machine's pipe-max-size is smaller: the default size serves
    pid = start(config, in_read, out_write)
    os.close(out_write)
    os.close(in_read)
    send(b"P", size=pid)
    send(b"R", size=int(real_time()))
    exited = os.pidfd_open(pid)
    watched = [out_read, control, exited]
    reaped = False
    while watched:
        ready, _, _ = select.select(watched, [], [])
        now = time.perf_counter()
        if out_read in ready:
            data = os.read(out_read, READ_BYTES)
            send(b"O" if data else b"E", data, stamp=now)
            if not data:
                watched.remove(out_read)
                os.close(out_read)
            continue   # output first: a sync or a kill must see every byte already written
        if control in ready:
            kind, data = read_command(control)
            if kind == "G":
                write_all(bot_in, GATE_OPEN)
            elif kind == "I":
                write_all(bot_in, data)
                send(b"I")
            elif kind == "S":
                send(b"Y")
            elif kind == "C":
                os.close(bot_in)
            else:   # "K", or the referee is gone
                if not reaped:
                    kill(pid, exited)
                watched.remove(control)
                if kind == "":
                    break
        if exited in ready:
            watched.remove(exited)
            send(b"X", exit_text(pid))
            reaped = True
            for target in (-pid,):   # what is left of its session
                try:
                    os.kill(target, signal.SIGKILL)
                except OSError:
                    pass
    reap_orphans()


def stamper(message: bytes, fds: list[int]) -> None:
    """In the forked child: take the request's descriptors, then stamp its match."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)   # the launcher's exit is the stamper's
    config = parse(message.decode())
    control = max([*fds, *config["pass"], 2]) + 1   # a number no other descriptor takes
    place(fds, [1, 2, control, *config["pass"]])    # frames, stderr, control, passed
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
    import ctypes   # noqa: F401  loaded once here: each stamper's subreaper call is then cheap
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
