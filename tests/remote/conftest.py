import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "session"))

from broker import Broker, need_mosquitto  # noqa: E402


@pytest.fixture
def make_broker(tmp_path):
    need_mosquitto()
    brokers = []

    def make(rooms, tls=False, name="broker", **kw):
        broker = Broker(tmp_path / f"{name}{len(brokers)}", rooms, tls=tls, **kw)
        brokers.append(broker)
        return broker.start()
    yield make
    for broker in brokers:
        broker.stop()
