"""A Mosquitto broker of the test's own on 127.0.0.1: a free port, a generated config with a
password file and an ACL per room (each seat's user writes only its seat's topics, a
spectator reads only; the ACL and the limits are docs/remote.md's, from
`remote.broker_config`), optionally TLS with a self-signed CA; started, restarted and stopped
by the test.  No test uses any other broker."""

import os
import resource
import shutil
import socket
import subprocess
import time
from pathlib import Path

from knockboard.remote.broker_config import LIMITS, SERVICE_NOFILE, acl, websocket_listener

START_TRIES = 100           # x 0.05 s: the broker listens within 5 s or the test fails
PORT_TRIES = 5              # ports tried at a first start, when another program took one
PASSWORD = "pw-{user}-k7"


def mosquitto():
    path = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    return path if Path(path).exists() else None


def need_mosquitto():
    """A test that needs the broker: failed in CI without it (.ci/run installs it), skipped
    on a developer's machine without it. Here, not in conftest.py: another folder's
    conftest.py may be the module named `conftest` when both folders run at once."""
    import pytest
    if mosquitto() is None:
        if os.environ.get("CI"):
            pytest.fail("mosquitto is not installed (.ci/run installs it)")
        pytest.skip("mosquitto is not installed")


def retained(broker, user, pattern):
    """topic -> payload of the retained messages under `pattern`, read by `user` once the
    broker's retained burst has stopped coming (20 s at most); None when `user` cannot
    connect."""
    import threading

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion
    held, lock, up = {}, threading.Lock(), threading.Event()
    c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    c.username_pw_set(user, password(user))
    c.on_connect = lambda cl, u, f, rc, p: rc.is_failure or up.set()

    def keep(client, userdata, m):
        if m.retain:
            with lock:
                held[m.topic] = m.payload
    c.on_message = keep
    try:
        c.connect("127.0.0.1", broker.port, 10)
    except OSError:
        return None
    c.loop_start()
    try:
        if not up.wait(5):
            return None
        c.subscribe(pattern, qos=1)
        seen = -1
        for _ in range(40):                  # the retained burst has come once it stops
            time.sleep(0.5)
            if len(held) == seen:
                break
            seen = len(held)
    finally:
        c.disconnect()
        c.loop_stop()
    return held


def free_port():
    """A port free now; another process may take it before the caller binds it (the other
    test worker's client sockets take ports from the same range), so a caller that cannot
    bind port 0 itself must check that it got the port (`Broker.start`)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listens(pid, port):
    """Whether process `pid` holds a TCP socket listening on `port` (Linux's /proc): a
    connection that succeeds may have reached another program that took the port."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            link = fd.readlink().name
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        field = line.split()
        if field[3] == "0A" and int(field[1].rsplit(":", 1)[1], 16) == port \
                and field[9] in inodes:
            return True
    return False


def password(user):
    return PASSWORD.format(user=user)


class Broker:
    def __init__(self, folder, rooms, tls=False, nofile=SERVICE_NOFILE, websockets=False):
        """`rooms`: room -> number of seats, or the homes' seats ([[1], [2, 3], [4]]);
        users `ROOM-N` (the home whose first seat is N) and `ROOM-watch`; `nofile`: the
        broker's file limit, the documented service's (as far as this machine's hard
        limit allows); `websockets`: a second listener, MQTT over WebSockets (`ws_port`),
        as docs/remote.md's for a spectator's browser."""
        self.folder = Path(folder)
        self.nofile = min(nofile, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.tls = tls
        self.ws_port = free_port() if websockets else None
        self.proc = None
        self.started = False
        self.users = {}
        grants = {}                  # room -> {user: seats}, as docs/remote.md's ACL
        for room, homes in rooms.items():
            if isinstance(homes, int):
                homes = [[seat] for seat in range(1, homes + 1)]
            grants[room] = {f"{room}-{seats[0]}": seats for seats in homes}
            grants[room][f"{room}-watch"] = []
            self.users.update((user, password(user)) for user in grants[room])
        (self.folder / "acl").write_text(acl(grants))
        passwd = self.folder / "passwd"
        passwd.write_text("".join(f"{u}:{p}\n" for u, p in self.users.items()))
        subprocess.run(["mosquitto_passwd", "-U", str(passwd)], check=True,
                       capture_output=True)
        if tls:
            self.ca = make_certificates(self.folder)
        self._configure()

    def _configure(self):
        passwd = self.folder / "passwd"
        lines = [f"listener {self.port} 127.0.0.1", "allow_anonymous false",
                 f"password_file {passwd}", f"acl_file {self.folder / 'acl'}",
                 "persistence false", "user root", *LIMITS,
                 f"log_dest file {self.folder / 'mosquitto.log'}",
                 "log_type error", "log_type warning", "log_type notice"]
        if self.tls:
            lines += [f"cafile {self.ca}", f"certfile {self.folder / 'server.crt'}",
                      f"keyfile {self.folder / 'server.key'}"]
        if self.ws_port is not None:
            # docs/remote.md's, on loopback, with TLS when the broker has it (the test's
            # certificate where the documented one is)
            lines += websocket_listener(self.ws_port, "127.0.0.1", tls=self.tls,
                                        certs=str(self.folder))
        (self.folder / "mosquitto.conf").write_text("\n".join(lines) + "\n")

    def url(self, room, user=None, port=None):
        scheme = "mqtts" if self.tls else "mqtt"
        return f"{scheme}://{user + '@' if user else ''}127.0.0.1:{port or self.port}/{room}"

    def start(self):
        """Start and wait until it listens.  At the first start a port that another program
        took after `free_port` chose it is replaced by a new one; a restart keeps its port
        (the clients reconnect to it)."""
        for _ in range(1 if self.started else PORT_TRIES):
            if self._start_on_port():
                self.started = True
                return self
            self.port = free_port()
            if self.ws_port is not None:
                self.ws_port = free_port()
            self._configure()
        raise RuntimeError(f"mosquitto could not bind a port: {self.log()}")

    def _start_on_port(self):
        """True once listening; False if the port was taken; RuntimeError otherwise."""
        self.proc = subprocess.Popen([mosquitto(), "-c", str(self.folder / "mosquitto.conf")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     preexec_fn=self._limit_files)
        for _ in range(START_TRIES):
            if self.proc.poll() is not None:
                said = self.proc.stderr.read().decode() + self.log()
                self.proc.stderr.close()
                self.proc = None
                if "in use" in said:
                    return False
                raise RuntimeError(f"mosquitto exited: {said}")
            if listens(self.proc.pid, self.port) and (
                    self.ws_port is None or listens(self.proc.pid, self.ws_port)):
                return True
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on {self.port}: {self.log()}")

    def _limit_files(self):
        """In the broker's process, before it runs: its file limit, as systemd's
        LimitNOFILE sets it for the service."""
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.nofile, self.nofile))

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc is not None:
            self.proc.stderr.close()
        self.proc = None

    def restart(self):
        self.stop()
        return self.start()

    def log(self):
        path = self.folder / "mosquitto.log"
        return path.read_text() if path.exists() else ""


def make_certificates(folder):
    """A self-signed CA and a server certificate for 127.0.0.1 signed by it (openssl)."""
    def run(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder)
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
        "/CN=knockboard test CA", "-keyout", "ca.key", "-out", "ca.crt")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
        "-keyout", "server.key", "-out", "server.csr")
    (Path(folder) / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
        "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.crt")
    return Path(folder) / "ca.crt"
