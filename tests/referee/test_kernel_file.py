"""A kernel file read through one kept descriptor (referee/box/kernel_file.py): each read
is the kernel's text of now, a file gone reads as None, and nothing stays open after close."""

import os
import threading

from referee.box.kernel_file import KernelFile, field, first_int


def own_cpu_ns(file: KernelFile) -> int:
    return first_int(file.read())


def test_each_read_is_the_count_of_now():
    file = KernelFile(f"/proc/self/task/{threading.get_native_id()}/schedstat")
    before = own_cpu_ns(file)
    sum(range(2_000_000))   # some CPU of this thread's
    assert own_cpu_ns(file) > before
    file.close()


def test_a_file_that_is_gone_reads_as_none_and_close_frees_its_descriptor(tmp_path):
    path = tmp_path / "counter"
    path.write_text("7 of them\n")
    file = KernelFile(path)
    opened = len(os.listdir("/proc/self/fd"))
    assert first_int(file.read()) == 7
    assert len(os.listdir("/proc/self/fd")) == opened + 1
    file.close()
    assert len(os.listdir("/proc/self/fd")) == opened
    path.unlink()
    assert file.read() is None and first_int(None) is None


def test_a_field_is_the_number_after_its_key():
    text = b"nr_periods 4\nthrottled_time 1500\nthrottled_usec 2\n"
    assert field(text, b"throttled_time") == 1500 and field(text, b"throttled_usec") == 2
    assert field(text, b"nr_bursts") is None and field(b"key x\n", b"key") is None
