"""What a test reads from the page in the browser: every snapshot it rendered (recorded by a
MutationObserver the test installs, so none is missed between two looks), the score sheet
and the result as the DOM shows them."""

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
ADDRESS = re.compile(r"the game in a browser: (http://\S+)")

# every value body[data-plies] took, in order, from the moment this runs
RECORD_PLIES = """
window.knockboardPlies = [document.body.dataset.plies];
new MutationObserver(records => {
  for (const r of records) window.knockboardPlies.push(r.target.dataset.plies);
}).observe(document.body, {attributes: true, attributeFilter: ["data-plies"]});
return true;
"""
PAGE_STATE = """
const sheet = [...document.querySelectorAll('#sheet li')].map(li => li.textContent);
return {plies: Number(document.body.dataset.plies), over: document.body.dataset.over,
        connection: document.body.dataset.connection, sheet: sheet,
        result: document.getElementById('result').hidden ? null
                : document.getElementById('result').textContent,
        last: document.getElementById('last-move').textContent,
        seen: window.knockboardPlies || []};
"""


class Command:
    """`knockboard ARGV` in a process of its own (a process group: the simulator's threads
    with it); its output read by a thread, so a full pipe never stops it."""

    def __init__(self, *argv, display=None):
        env = dict(os.environ, PYTHONPATH=f"{ROOT / 'host'}{os.pathsep}{ROOT}",
                   PYTHONUNBUFFERED="1")
        env.pop("DISPLAY", None)
        if display is not None:
            env["DISPLAY"] = display
        self.proc = subprocess.Popen([sys.executable, "-m", "knockboard.cli",
                                      *map(str, argv)], env=env, cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, start_new_session=True)
        self.lines = []
        self.printed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.printed:
                self.lines.append(line)
                self.printed.notify_all()
        with self.printed:
            self.lines.append(None)             # the output ended
            self.printed.notify_all()

    def address(self, seconds=60):
        """The address the command printed (before the game starts)."""
        deadline = time.monotonic() + seconds
        with self.printed:
            while True:
                for line in self.lines:
                    found = line and ADDRESS.search(line)
                    if found:
                        return found.group(1)
                left = deadline - time.monotonic()
                if None in self.lines or left <= 0:
                    raise AssertionError("no address printed: " + self.output())
                self.printed.wait(left)

    def output(self):
        return "".join(line for line in self.lines if line)

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
