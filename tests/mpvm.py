"""Run code in a real MicroPython VM: the WebAssembly port from npm under Node.js.

`npm ci` at the repository root installs it (.ci/run does). Where it is missing, tests that
need it fail in CI (CI set) and are skipped elsewhere with the command that installs it.
"""

import glob
import json
import os
import shutil
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "node_modules", "@micropython",
                       "micropython-webassembly-pyscript", "micropython.mjs")
RUNNER = os.path.join(ROOT, "tests", "mpvm", "run.mjs")


def missing():
    """Why the VM cannot run here, or None."""
    if shutil.which("node") is None:
        return "node (Node.js) is not installed"
    if not os.path.exists(PACKAGE):
        return "the MicroPython WebAssembly package is not installed (run `npm ci`)"
    return None


def require(pytest):
    why = missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(f"MicroPython VM required in CI: {why}")
        pytest.skip(f"MicroPython VM unavailable: {why}")


def firmware_files():
    files = {}
    for path in glob.glob(os.path.join(ROOT, "firmware", "*")):
        name = os.path.basename(path)
        if name.endswith((".py", ".json")) and name != "fbcompat.py":
            # fbcompat is the CPython stand-in for framebuf: the VM must use the real one
            files["/fw/" + name] = path
    return files


def test_files():
    files = {"/data/protocol-vectors.json": os.path.join(ROOT, "docs", "protocol-vectors.json")}
    for path in glob.glob(os.path.join(ROOT, "tests", "fw", "*.py")):
        name = os.path.basename(path)
        if name != "conftest.py":
            files["/tests/" + name] = path
    # the simulated HAL the firmware tests share with the simulator (tests/fw/fakehal.py)
    files["/tests/simhal.py"] = os.path.join(ROOT, "host", "knockboard", "sim", "hal.py")
    return files


def run(code, files=None, heapsize=1024 * 1024, timeout=300):
    """Runs `code` with /fw and /tests on sys.path; returns (exit status, stdout). `code`
    may be a list of chunks, run one after another in the same VM: gc.collect() in this
    port reclaims only between chunks, so a heap figure needs a chunk of its own."""
    chunks = [code] if isinstance(code, str) else list(code)
    chunks[0] = "import sys\nsys.path.append('/fw')\nsys.path.append('/tests')\n" + chunks[0]
    manifest = {"root": ROOT, "heapsize": heapsize,
                "files": files if files is not None else {**firmware_files(), **test_files()},
                "code": chunks}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(manifest, f)
    try:
        proc = subprocess.run(["node", RUNNER, f.name], capture_output=True, text=True,
                              timeout=timeout, cwd=ROOT)
    finally:
        os.unlink(f.name)
    return proc.returncode, proc.stdout + proc.stderr
