"""mqtts:// with the broker's certificate signed by a self-signed CA of the test's own: two
homes that trust that CA play a whole game; a home that does not trust it never connects."""

import time

from knockboard.remote import Room, parse_address

from broker import password
from homes import Home, closing, play_headless

UNTRUSTED_WAIT_S = 3.0


def test_two_homes_play_over_tls_with_a_self_signed_ca(make_broker):
    broker = make_broker({"tls": 2}, tls=True)
    assert broker.url("tls").startswith("mqtts://")
    homes = [Home(broker, "tls", "knockoff", {"players": 2}, [s], ca_file=str(broker.ca)).start()
             for s in (1, 2)]
    with closing(homes):
        play_headless(homes, [1, 2])
        assert homes[0].game.state.is_terminal()
        assert homes[0].game.record == homes[1].game.record
        assert homes[0].lines == homes[1].lines == []


def test_a_home_that_does_not_trust_the_brokers_certificate_never_connects(make_broker):
    broker = make_broker({"tls": 2}, tls=True)
    room = Room(parse_address(broker.url("tls", "tls-1")), password("tls-1"), [0],
                log=lambda line: None)          # the system's CAs: not the test's
    room.start()
    try:
        end = time.monotonic() + UNTRUSTED_WAIT_S
        while time.monotonic() < end and "unknown ca" not in broker.log():
            time.sleep(0.05)
        # the home refused the broker's certificate: the broker was told "unknown ca"
        assert "alert unknown ca" in broker.log()
        assert not room.connected and room.inbox.empty()
    finally:
        room.close()
