"""A stranger with no broker account against the documented broker, through the test's
Mosquitto: about 1,100 connections that never log in (Mosquitto 2.0 keeps them open) used
up a broker run as Debian's service runs it (1,024 files), and a spectator or a
restarting home could not connect (the second review).  The documented set-up raises the
service's file limit (systemd's LimitNOFILE, `broker_config.service_limits`) and bounds
the listener's connections below it; the test's broker runs with that file limit."""

import subprocess
import sys
from pathlib import Path

from knockboard.remote.broker_config import SERVICE_NOFILE

from homes import Home, closing, run_until

STRANGERS = 1100
HOLD_S = 60.0             # the strangers' process ends by itself after this at the latest
PROGRAM = Path(__file__).with_name("strangers.py")


def test_connections_that_never_log_in_leave_room_for_a_spectator_and_a_home(make_broker):
    broker = make_broker({"busy": 2}, nofile=SERVICE_NOFILE)
    assert broker.nofile > STRANGERS + 100       # this machine allows the documented limit
    strangers = subprocess.Popen([sys.executable, str(PROGRAM), str(broker.port),
                                  str(STRANGERS), str(HOLD_S)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
    try:
        assert strangers.stdout.readline().split()[:2] == [str(STRANGERS), "open"]
        watcher = Home(broker, "busy", "knockabout", {}, [], user="busy-watch")
        home = Home(broker, "busy", "knockabout", {}, [1])
        with closing([watcher.start(), home.start()]):
            run_until([watcher.link.pump, home.link.pump],
                      lambda: watcher.room.connected and home.room.connected,
                      f"a spectator and a home connected beside {STRANGERS} strangers", 15)
            assert watcher.room.error is None and home.room.error is None
    finally:
        strangers.stdin.close()                   # the strangers leave
        strangers.wait(10)
        strangers.stdout.close()
