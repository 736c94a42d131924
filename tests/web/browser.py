"""Debian's headless Chromium driven through Debian's chromedriver with the W3C WebDriver
protocol (JSON over HTTP on loopback, stdlib only): nothing is downloaded at test time."""

import base64
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]
START_SECONDS = 30
SHOTS = os.environ.get("KNOCKBOARD_WEB_SHOTS")     # a folder that also keeps the screenshots


def browser_missing():
    """Why no browser test can run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return f"{path} is missing (Debian's chromium and chromium-driver)"
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriverError(Exception):
    pass


class Browser:
    """One headless Chromium window, `width` x `height` CSS pixels; `flags`: more of
    Chromium's command-line flags."""

    def __init__(self, width=1280, height=800, flags=()):
        self.profile = tempfile.mkdtemp(prefix="knockboard-chromium-")
        self.port = free_port()
        self.driver = subprocess.Popen([CHROMEDRIVER, f"--port={self.port}"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        self.session = None
        try:
            self._wait_for_driver()
            options = {"binary": CHROMIUM,
                       "args": FLAGS + [f"--user-data-dir={self.profile}",
                                        f"--window-size={width},{height}", *flags]}
            answer = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
                "browserName": "chrome", "goog:chromeOptions": options}}})
            self.session = answer["sessionId"]
        except BaseException:
            self.close()
            raise

    def _wait_for_driver(self):
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            try:
                self._call("GET", "/status")
                return
            except (OSError, WebDriverError):
                time.sleep(0.1)
        raise WebDriverError("chromedriver did not start")

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                value = json.loads(answer.read())["value"]
        except urllib.error.HTTPError as err:
            raise WebDriverError(err.read().decode(errors="replace")[:500]) from None
        return value

    def _session(self, method, path, body=None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def open(self, url):
        self._session("POST", "/url", {"url": url})

    def run(self, script, *args):
        """The value of a JavaScript function body run in the page."""
        return self._session("POST", "/execute/sync", {"script": script, "args": list(args)})

    def screenshot(self, path):
        path.write_bytes(base64.b64decode(self._session("GET", "/screenshot")))

    def shot(self, tmp_path, name):
        """A screenshot as `tmp_path`/`name`, kept in KNOCKBOARD_WEB_SHOTS as well when it
        is set (docs/web/); its path."""
        path = tmp_path / name
        self.screenshot(path)
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            with open(os.path.join(SHOTS, name), "wb") as kept:
                kept.write(path.read_bytes())
        return path

    def set_size(self, width, height):
        self._session("POST", "/window/rect", {"width": width, "height": height})

    def wait_for(self, script, seconds, what, *args):
        """Run `script` until it returns something true (at most `seconds`); returns it."""
        deadline = time.monotonic() + seconds
        while True:
            value = self.run(script, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"the page did not show {what} within {seconds} s")
            time.sleep(0.05)

    def close(self):
        try:
            if self.session is not None:
                self._call("DELETE", f"/session/{self.session}")
        except (OSError, WebDriverError):
            pass
        self.driver.terminate()
        try:
            self.driver.wait(10)
        except subprocess.TimeoutExpired:
            self.driver.kill()
        shutil.rmtree(self.profile, ignore_errors=True)
