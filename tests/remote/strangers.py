"""Strangers with no broker account, as a process of their own: COUNT TCP connections to the
broker that never send MQTT's CONNECT, held until SECONDS have passed or stdin closes; it
prints how many it opened once they are all open.

    python3 strangers.py PORT COUNT SECONDS"""

import select
import socket
import sys


def main(port, count, seconds):
    held = []
    try:
        for _ in range(count):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
    except OSError as err:
        print(f"{len(held)} open ({err})", flush=True)
    else:
        print(f"{len(held)} open", flush=True)
    select.select([sys.stdin], [], [], seconds)      # until the test is done with them
    for connection in held:
        connection.close()
    return 0


if __name__ == "__main__":
    port, count, seconds = sys.argv[1:]
    sys.exit(main(int(port), int(count), float(seconds)))
