"""The firmware core's tests again, inside a real MicroPython VM (WebAssembly port, Node.js).

CPython runs tests/fw/ directly; here the same modules run on MicroPython 1.27, where
int/bytes/memoryview semantics, the missing stdlib and the real `framebuf` apply.
"""

import glob
import os
import re

import pytest

import mpvm

FW_TESTS = sorted(os.path.basename(p)[:-3]
                  for p in glob.glob(os.path.join(mpvm.ROOT, "tests", "fw", "test_fw_*.py")))


def run_modules(modules):
    mpvm.require(pytest)
    code = ("import sys\nimport mprunner\nprint('IMPL', sys.implementation.name)\n"
            f"mprunner.run({modules!r})\n")
    rc, out = mpvm.run(code)
    return rc, out


@pytest.mark.parametrize("module", FW_TESTS)
def test_firmware_core_on_micropython(module):
    rc, out = run_modules([module])
    assert rc == 0, out
    assert "IMPL micropython" in out, out
    summary = re.search(r"SUMMARY passed=(\d+) failed=(\d+)", out)
    assert summary, out
    fails = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert not fails and summary.group(2) == "0", out
    # every test_* function of the module ran
    with open(os.path.join(mpvm.ROOT, "tests", "fw", module + ".py")) as f:
        defined = len(re.findall(r"^def test_", f.read(), re.M))
    assert int(summary.group(1)) == defined, out


def test_runner_reports_failures():
    mpvm.require(pytest)
    files = {**mpvm.firmware_files(), **mpvm.test_files()}
    rc, out = mpvm.run(
        "import mprunner\n"
        "open('/tests/test_broken.py','w').write('def test_bad():\\n    assert 1 == 2\\n"
        "def test_good():\\n    pass\\n')\n"
        "mprunner.run(['test_broken'])\n", files=files)
    assert "FAIL test_broken.test_bad" in out and "PASS test_broken.test_good" in out
    assert "SUMMARY passed=1 failed=1" in out


@pytest.mark.parametrize("use_mpy", [False, True], ids=["py", "mpy"])
def test_memory_after_boot_fits_the_budget(use_mpy):
    """The issue's target: under 64 KB of MicroPython heap for a 127-cell board, source or
    compiled (the Pico has ~190 KB of heap; the rest is for buffers and headroom)."""
    mpvm.require(pytest)
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "fw_bench", os.path.join(mpvm.ROOT, "benchmarks", "firmware.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    boot, live = bench.vm_figures("knockabout", use_mpy, rates=False)["MEM"]
    assert 10_000 < boot < 64 * 1024, boot
    assert live < 64 * 1024, live
