"""How fast Mosquitto's MQTT over WebSockets listener hands messages to a browser, and how far
the static spectator page (web/static/spectator.html) lags a remote game.

    python3 benchmarks/websocket_page.py

Starts its own Mosquitto on 127.0.0.1 with the tests' configuration and a WebSocket listener
(tests/remote/broker.py, remote/broker_config.websocket_listener) and Debian's headless
Chromium (tests/web/browser.py).  Printed:

1. per payload size: the seconds from publishing N retained-free messages of that size
   (QoS 0, by paho over TCP) until a minimal MQTT client in the page (the spectator page's
   own packet reading) has received them all, and the messages a second;
2. a Knockabout game two headless homes play through the broker while the spectator page
   follows it: the entries, the seconds the game took, and the seconds from the homes'
   last hellos until the page shows the result.

Printed, never asserted (tests/web/test_web_spectator_page.py asserts what the page shows).
"""

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for sub in ("host", "tests/remote", "tests/session", "tests/web"):
    sys.path.insert(0, str(ROOT / sub))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402

from broker import Broker, password  # noqa: E402
from browser import Browser  # noqa: E402
from homes import Home, play_headless, run_until  # noqa: E402

SIZES = ((200, 100), (50, 4000), (20, 4200), (20, 8000), (10, 25000), (5, 60000))
WAIT_S = 120
COUNTER = """<!DOCTYPE html><meta charset="utf-8"><script>
const ENC = new TextEncoder();
function u(t) { const b = ENC.encode(t); return [b.length >> 8, b.length & 255, ...b]; }
function pk(t, b) { const l = []; let n = b.length;
  do { let d = n % 128; n = Math.floor(n / 128); if (n) d |= 128; l.push(d); } while (n);
  return new Uint8Array([t, ...l, ...b]); }
window.got = 0; let buf = new Uint8Array(0);
const s = new WebSocket(location.hash.slice(1), ["mqtt"]); s.binaryType = "arraybuffer";
s.onopen = () => s.send(pk(0x10, [...u("MQTT"), 4, 0xC2, 0, 30, ...u("bench"),
                                  ...u("bench-watch"), ...u("PASSWORD")]));
s.onmessage = e => {
  const m = new Uint8Array(e.data), j = new Uint8Array(buf.length + m.length);
  j.set(buf); j.set(m, buf.length); buf = j;
  for (;;) {
    let len = 0, mul = 1, i = 1;
    for (; i < buf.length && i < 5; i++) { len += (buf[i] & 127) * mul; mul *= 128;
                                            if (!(buf[i] & 128)) break; }
    if (i >= buf.length) return;
    const end = i + 1 + len; if (buf.length < end) return;
    if (buf[0] === 0x20) s.send(pk(0x82, [0, 1, ...u("knockboard/bench/#"), 0]));
    else if ((buf[0] & 0xF0) === 0x30) window.got++;
    buf = buf.slice(end);
  }
};
</script>"""


def sizes(broker, browser, folder):
    page = Path(folder) / "counter.html"
    page.write_text(COUNTER.replace("PASSWORD", password("bench-watch")))
    browser.open(f"{page.as_uri()}#ws://127.0.0.1:{broker.ws_port}/")
    time.sleep(1.0)
    sender = mqtt.Client(CallbackAPIVersion.VERSION2)
    sender.username_pw_set("bench-1", password("bench-1"))
    sender.connect("127.0.0.1", broker.port)
    sender.loop_start()
    print(f"{'messages':>8} {'bytes':>6} {'seconds':>8} {'a second':>9}")
    for count, size in SIZES:
        base = browser.run("return window.got")
        start = time.monotonic()
        for _ in range(count):
            sender.publish("knockboard/bench/seat/1/live", b"x" * size, qos=0)
        while browser.run("return window.got") < base + count \
                and time.monotonic() - start < WAIT_S:
            time.sleep(0.01)
        took = time.monotonic() - start
        got = browser.run("return window.got") - base
        print(f"{got:>8} {size:>6} {took:>8.2f} {got / took:>9.1f}")
    sender.disconnect()
    sender.loop_stop()


def game(broker, browser):
    from urllib.parse import urlencode
    page = ROOT / "host/knockboard/web/static/spectator.html"
    fragment = urlencode({"ws": f"ws://127.0.0.1:{broker.ws_port}/", "room": "bench",
                          "user": "bench-watch", "password": password("bench-watch")})
    homes = [Home(broker, "bench", "knockabout", {}, [seat]).start() for seat in (1, 2)]
    try:
        browser.open(f"{page.as_uri()}#{fragment}")
        start = time.monotonic()
        play_headless(homes, (3, 4))
        run_until([h.link.pump for h in homes], lambda: all(h.game._said_over for h in homes),
                  "the homes' last hellos", 10)
        played = time.monotonic()
        entries = len(homes[0].game.record)
        browser.wait_for(f"return document.body.dataset.over === 'yes' && "
                         f"Number(document.body.dataset.plies) === {entries}", WAIT_S,
                         "the result")
        shown = time.monotonic()
    finally:
        for home in homes:
            home.close()
    print(f"a Knockabout game of {entries} entries played in {played - start:.2f} s; the page "
          f"showed the result {shown - played:.2f} s after the homes' last hellos")


def main():
    with tempfile.TemporaryDirectory() as folder:
        broker = Broker(Path(folder) / "broker", {"bench": 2}, websockets=True).start()
        browser = Browser()
        try:
            print(f"mosquitto {os.popen('mosquitto -h').readline().split()[2]}, "
                  "WebSocket listener on 127.0.0.1")
            sizes(broker, browser, folder)
            game(broker, browser)
        finally:
            browser.close()
            broker.stop()


if __name__ == "__main__":
    main()
