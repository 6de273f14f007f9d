"""`gen` and `stress-gen` at the edges: a reader that stops early, an empty --out, a
suite named twice. The files are the work asked for; the listing on stdout is not."""

import os
import subprocess
import sys

import pytest

from referee.cli.main import main

from tests.project import ROOT


def closed_stdout(*args):
    """`python -m referee ARGS` with stdout closed before it writes (like `| head -0`):
    (exit status, stderr)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-m", "referee", *args], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdout.close()   # every write to stdout fails with EPIPE
    status = process.wait(timeout=120)
    stderr = process.stderr.read()
    process.stderr.close()
    return status, stderr


@pytest.mark.slow
def test_gen_writes_every_puzzle_when_the_reader_has_gone(tmp_path):
    status, stderr = closed_stdout("gen", "--size", "5x5", "--count", "12", "--out", str(tmp_path))
    assert status == 0, stderr
    assert "Traceback" not in stderr and "Broken pipe" not in stderr
    assert sorted(p.name for p in tmp_path.glob("*.txt")) == \
        [f"5x5_any_s1_{i:03d}.txt" for i in range(12)]
    assert len(list(tmp_path.glob("*.solution"))) == 12


@pytest.mark.slow
def test_stress_gen_writes_every_board_and_blames_no_folder_for_a_closed_stdout(tmp_path):
    status, stderr = closed_stdout("stress-gen", "--suite", "tree", "--out", str(tmp_path))
    assert status == 0, stderr
    assert stderr == ""          # not "cannot write to .../tree: Broken pipe"
    written = sorted(p.stem for p in (tmp_path / "tree").glob("*.txt"))
    solutions = sorted(p.stem for p in (tmp_path / "tree").glob("*.solution"))
    assert len(written) == 24 and solutions == written


def invoke(capsys, argv):
    """main(argv) in this process: (exit status, stdout, stderr)."""
    try:
        status = main(argv)
    except SystemExit as stopped:
        status = stopped.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("argv", [["gen", "--size", "5x5", "--count", "1"], ["stress-gen"]])
def test_an_empty_out_is_refused_not_the_current_directory(capsys, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    status, out, err = invoke(capsys, [*argv, "--out", ""])
    assert (status, out) == (2, "")
    assert err == f"python -m referee {argv[0]}: error: argument --out: the path is empty\n"
    assert list(tmp_path.iterdir()) == []


def test_a_suite_named_twice_is_refused(capsys, tmp_path):
    status, out, err = invoke(capsys, ["stress-gen", "--suite", "tree", "--suite", "full",
                                       "--suite", "tree", "--out", str(tmp_path)])
    assert (status, out) == (2, "")
    assert err == "python -m referee stress-gen: error: --suite tree is named twice\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_malformed_dask_address_leaves_no_empty_out_folder(capsys, tmp_path):
    out = tmp_path / "never"
    assert main(["gen", "--size", "5x5", "--count", "1", "--out", str(out),
                 "--dask", "notanaddress"]) == 2
    assert "--dask notanaddress" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("seed", ["٣", "1_000", "-1"])
def test_stress_gen_takes_a_seed_in_ascii_digits_only(capsys, tmp_path, seed):
    with pytest.raises(SystemExit) as stop:
        main(["stress-gen", "--seed", seed, "--out", str(tmp_path)])
    assert stop.value.code == 2
    assert "argument --seed" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["run", "--bot", "python3 dist/bot.py"],
                                     ["bench", "--startup-runs", "0"],
                                     ["play", "--out", "OUT"]])
def test_a_gen_spec_no_board_can_meet_is_a_usage_error(capsys, tmp_path, command):
    argv = [str(tmp_path / "p.html") if arg == "OUT" else arg for arg in command]
    assert main([*argv, "--gen", "2x1:unique:count=1"]) == 2
    assert "a 2x1 board cannot hold two islands" in capsys.readouterr().err


def test_gen_settings_no_board_can_meet_leave_no_empty_folder_behind(capsys, tmp_path):
    out = tmp_path / "new" / "boards"
    assert main(["gen", "--size", "2x1", "--unique", "--out", str(out)]) == 2
    assert "a 2x1 board cannot hold two islands" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()
    kept = tmp_path / "kept"   # a folder the user had is left as it was
    kept.mkdir()
    assert main(["gen", "--size", "2x1", "--unique", "--out", str(kept)]) == 2
    assert kept.is_dir()
