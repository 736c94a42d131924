"""The test broker itself (`broker.py`): a port another program takes between `free_port`
choosing it and Mosquitto binding it must not leave a test talking to that program."""

import socket

from broker import Broker, listens, need_mosquitto


def test_a_port_taken_before_the_first_start_is_replaced(tmp_path):
    need_mosquitto()
    broker = Broker(tmp_path / "b", {"room": 2})
    taken = broker.port
    with socket.create_server(("127.0.0.1", taken)) as stranger:
        broker.start()
        try:
            assert broker.port != taken
            assert listens(broker.proc.pid, broker.port)
            assert not listens(broker.proc.pid, taken)
            stranger.settimeout(0.05)
            try:                              # nothing was sent to the stranger's port
                stranger.accept()[0].close()
                reached = True
            except socket.timeout:
                reached = False
            assert not reached
            port = broker.port
            broker.restart()                  # a restart keeps the port the clients know
            assert broker.port == port and listens(broker.proc.pid, port)
        finally:
            broker.stop()
