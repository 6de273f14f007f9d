"""How busy the machine was: read at a run's start and end, so that two runs that saw
different load are not compared as if they had not."""

from __future__ import annotations

import os

LOAD_DIFFERS_PER_CPU = 0.5   # run queue per CPU: a gap over this is a different machine
PRESSURE_DIFFERS = 10.0      # percentage points of time some task waited for a CPU
BUSY_PER_CPU = 1.0           # a run queue this long per CPU, or
BUSY_PRESSURE = 10.0         # this share of time with a task waiting for a CPU: a busy machine


def load_now() -> dict:
    """The 1-minute load average, the CPUs, and the share of the last 10 s some task waited
    for a CPU (/proc/pressure/cpu); a figure Linux does not give here is None."""
    return {"loadavg1": _loadavg(), "cpus": len(os.sched_getaffinity(0)),
            "cpu_pressure10": _pressure()}


def _loadavg() -> float | None:
    try:
        with open("/proc/loadavg") as file:
            return float(file.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _pressure() -> float | None:
    try:
        with open("/proc/pressure/cpu") as file:
            first = file.readline().split()
        return float(dict(part.split("=") for part in first[1:])["avg10"])
    except (OSError, ValueError, KeyError, IndexError):
        return None


def busiest(snapshots: list[dict]) -> dict:
    """The highest load per CPU and pressure among a run's snapshots (start, end)."""
    per_cpu = [s["loadavg1"] / s["cpus"] for s in snapshots
               if s.get("loadavg1") is not None and s.get("cpus")]
    pressure = [s["cpu_pressure10"] for s in snapshots if s.get("cpu_pressure10") is not None]
    return {"load_per_cpu": max(per_cpu, default=None), "cpu_pressure10": max(pressure, default=None)}


def load_differs(a: dict, b: dict) -> bool:
    """Whether two runs' busiest() figures are far enough apart to move timings."""
    def apart(key: str, gap: float) -> bool:
        return a.get(key) is not None and b.get(key) is not None and abs(a[key] - b[key]) > gap
    return apart("load_per_cpu", LOAD_DIFFERS_PER_CPU) or apart("cpu_pressure10", PRESSURE_DIFFERS)


def busy(figures: dict) -> bool:
    """Whether a run's busiest() figures say its tasks waited for a CPU: its wall times
    then hold those waits, however the other run fared."""
    load, pressure = figures.get("load_per_cpu"), figures.get("cpu_pressure10")
    return (load is not None and load > BUSY_PER_CPU) or (pressure is not None
                                                          and pressure > BUSY_PRESSURE)


def load_text(figures: dict) -> str:
    """'load 0.4 per CPU, CPU pressure 3%' (a figure not known: '?')."""
    load, pressure = figures.get("load_per_cpu"), figures.get("cpu_pressure10")
    return (f"load {'?' if load is None else f'{load:.2f}'} per CPU, CPU pressure "
            f"{'?' if pressure is None else f'{pressure:.0f}%'}")
