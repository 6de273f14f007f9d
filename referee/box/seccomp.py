"""The box's system-call filter: a classic BPF program for bubblewrap's `--seccomp FD`.

A bot's output reaches the referee through a pipe that its stamper reads, stamping each
chunk the moment read() returns it. splice(), tee() and vmsplice() fill a pipe while
holding its lock: a bot that splices from an empty socket into its stdout holds the
stamper in read() after its timestamp was taken, then answers late under an early stamp.
sendfile() is splice underneath, and io_uring runs its own splices where seccomp never
sees them. The key calls (add_key, request_key, keyctl) keep data in the kernel under
the box user's uid, past the end of the match. A filter sees numbers, not which
descriptor is a standard stream, so these calls are refused outright, through every
door the kernel opens: on x86_64 a process may also enter through the i386 gate
(int 0x80) or with the x32 bit set.

A refused call fails as the kernel fails it when it cannot do the job, so that runtimes
take their ordinary path. The splice family answers EINVAL, the kernel's "not for these
descriptors": Java's transferTo and libuv's sendfile (Node's copyFile across file
systems) then copy with read and write, where ENOSYS or EPERM fail them; Python's
shutil and socket.sendfile fall back on any error. io_uring and the key calls answer
ENOSYS, as a kernel built without them: libuv (Node) then does without a ring.
A call through an ABI the filter does not know kills the process.

There is no library: Debian's python3-seccomp serves only the system Python, PyPI has no
maintained binding, and the program is some thirty instructions, which the small
assembler below writes.
"""

from __future__ import annotations

import errno
import os
import select
import struct
from dataclasses import dataclass

# struct sock_filter (linux/filter.h): u16 code, u8 jt, u8 jf, u32 k, in the machine's order
INSTRUCTION = struct.Struct("HBBI")

# Opcodes (linux/bpf_common.h): only what the filter uses
BPF_LD, BPF_ALU, BPF_JMP, BPF_RET = 0x00, 0x04, 0x05, 0x06
BPF_W, BPF_ABS = 0x00, 0x20          # load a 32-bit word at a fixed offset
BPF_AND, BPF_JEQ, BPF_K = 0x50, 0x10, 0x00

# struct seccomp_data (linux/seccomp.h): int nr, u32 arch, u64 ip, u64 args[6]
NR_OFFSET, ARCH_OFFSET = 0, 4

# Actions (linux/seccomp.h); an errno goes in the low 16 bits of SECCOMP_RET_ERRNO
SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000

# linux/audit.h: the ELF machine, 0x80000000 for 64 bits, 0x40000000 for little-endian
AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_I386 = 0x40000003
X32_SYSCALL_BIT = 0x40000000   # x32 shares AUDIT_ARCH_X86_64; its numbers carry this bit

# The numbers, as seccomp_data.nr shows them: the kernel's arch/x86/entry/syscalls/
# syscall_64.tbl and syscall_32.tbl, read from linux-libc-dev's
# /usr/include/x86_64-linux-gnu/asm/unistd_64.h, unistd_x32.h and unistd_32.h.
X86_64 = {"sendfile": 40, "add_key": 248, "request_key": 249, "keyctl": 250,
          "splice": 275, "tee": 276, "vmsplice": 278,
          "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427}
# x32 takes the 64-bit numbers but for vmsplice, whose x32 entry is 532 (its iovec differs)
X32 = {name: X32_SYSCALL_BIT + (532 if name == "vmsplice" else number)
       for name, number in X86_64.items()}
I386 = {"sendfile": 187, "sendfile64": 239, "add_key": 286, "request_key": 287,
        "keyctl": 288, "splice": 313, "tee": 315, "vmsplice": 316,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427}

# What each refused call answers (see the docstring)
ERRNO = {"sendfile": errno.EINVAL, "sendfile64": errno.EINVAL, "splice": errno.EINVAL,
         "tee": errno.EINVAL, "vmsplice": errno.EINVAL,
         "io_uring_setup": errno.ENOSYS, "io_uring_enter": errno.ENOSYS,
         "io_uring_register": errno.ENOSYS,
         "add_key": errno.ENOSYS, "request_key": errno.ENOSYS, "keyctl": errno.ENOSYS}


@dataclass(frozen=True)
class Gate:
    """One value of seccomp_data.arch, and the calls refused through it."""
    arch: int
    refused: tuple[tuple[str, int], ...]   # (call, nr), the bits `ignored` cleared
    ignored: int = 0                       # bits of nr that do not change the call


# x86_64 and x32 share one gate, so each number is refused with and without the x32 bit:
# vmsplice's x32 entry is refused however it is reached, and no table needs writing twice
X86_GATES = (
    Gate(AUDIT_ARCH_X86_64,
         tuple(sorted({(name, nr & ~X32_SYSCALL_BIT)
                       for table in (X86_64, X32) for name, nr in table.items()})),
         ignored=X32_SYSCALL_BIT),
    Gate(AUDIT_ARCH_I386, tuple(I386.items())),
)
# uname's machine, even under a 32-bit personality, to the gates its kernel opens
MACHINES = {"x86_64": X86_GATES, "i386": X86_GATES,
            "i486": X86_GATES, "i586": X86_GATES, "i686": X86_GATES}


class UnknownMachine(RuntimeError):
    """No filter is known for this machine: a box without one would let the calls through."""


def this_machine() -> str:
    """The kernel's name for this machine's architecture (x86_64, aarch64, ...)."""
    return os.uname().machine


def program(machine: str | None = None) -> bytes:
    """The filter for `machine` (this one's by default), as bubblewrap reads it."""
    machine = machine or this_machine()
    gates = MACHINES.get(machine)
    if gates is None:
        raise UnknownMachine(f"no system-call filter for a {machine} machine: the box "
                             f"knows {', '.join(sorted(MACHINES))}")
    return assemble(instructions(gates))


def program_fd(machine: str | None = None) -> int:
    """A descriptor to read the filter from, once, to its end: the read end of a pipe
    that holds it whole (its writer closed), for `bwrap --seccomp FD`.
    A pipe needs no file and nothing to clean up; the program is far smaller than the
    page a pipe always holds, so the write never waits for a reader.
    The caller passes it to one launcher (pass_fds) and closes it."""
    data = program(machine)
    if len(data) > select.PIPE_BUF:
        raise ValueError(f"a {len(data)}-byte filter may not fit in a pipe")
    read, write = os.pipe()
    try:
        os.write(write, data)
    except OSError:
        os.close(read)
        raise
    finally:
        os.close(write)
    return read


def instructions(gates: tuple[Gate, ...]) -> list:
    """The filter's code: each gate refuses its calls and allows the rest; a call through
    no gate kills the process. Labels (strings) name the jumps' targets."""
    code: list = [load(ARCH_OFFSET)]
    for index, gate in enumerate(gates):
        code += [f"gate {index}", jump_if(gate.arch, other=f"gate {index + 1}"),
                 load(NR_OFFSET)]
        if gate.ignored:
            code.append(keep_bits(~gate.ignored & 0xFFFFFFFF))
        for name, nr in gate.refused:
            code.append(jump_if(nr, equal=f"errno {ERRNO[name]}"))
        code.append(ret(SECCOMP_RET_ALLOW))
    code += [f"gate {len(gates)}", ret(SECCOMP_RET_KILL_PROCESS)]
    for number in sorted(set(ERRNO.values())):
        code += [f"errno {number}", ret(SECCOMP_RET_ERRNO | number)]
    return code


def load(offset: int) -> tuple:
    """A = the 32-bit word of seccomp_data at `offset`."""
    return BPF_LD | BPF_W | BPF_ABS, None, None, offset


def keep_bits(bits: int) -> tuple:
    """A = A & bits."""
    return BPF_ALU | BPF_AND | BPF_K, None, None, bits


def jump_if(value: int, equal: str | None = None, other: str | None = None) -> tuple:
    """To label `equal` if A == value, else to label `other` (None: the next instruction)."""
    return BPF_JMP | BPF_JEQ | BPF_K, equal, other, value


def ret(action: int) -> tuple:
    """End the filter with `action`."""
    return BPF_RET | BPF_K, None, None, action


def assemble(code: list) -> bytes:
    """Encode `code` (instructions and the labels between them) as struct sock_filter."""
    at, count = {}, 0
    for line in code:
        if isinstance(line, str):
            at[line] = count
        else:
            count += 1
    encoded = []
    for line in code:
        if not isinstance(line, str):
            op, true, false, k = line
            here = len(encoded)
            encoded.append(INSTRUCTION.pack(op, offset(true, at, here),
                                            offset(false, at, here), k))
    return b"".join(encoded)


def offset(label: str | None, at: dict[str, int], here: int) -> int:
    """The jump from instruction `here` to `label`: cBPF jumps only forward, 255 at most."""
    if label is None:
        return 0
    jump = at[label] - here - 1
    if not 0 <= jump <= 255:
        raise ValueError(f"no cBPF jump from {here} to {label!r} ({jump})")
    return jump
