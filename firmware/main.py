# Knockboard firmware entry point. MicroPython runs main.py only after a hard reset or a
# soft reset from the normal REPL, never after mpremote's raw-REPL soft reset, so flashing
# tools always get a board that is not running the app.
import sys


def safe_boot():
    """A control button (pinmap "safe_boot", BACK by default) held at power-up skips the app
    and leaves the REPL alone: the way back from firmware that will not stop."""
    from machine import Pin
    import json
    import time
    try:
        with open("pinmap.json") as f:
            pins = json.load(f)
        gp = pins["controls"][pins.get("safe_boot", "back")]
    except Exception:
        gp = 22
    p = Pin(gp, Pin.IN, Pin.PULL_UP)
    time.sleep_ms(20)
    return p.value() == 0


def start():
    import gc
    # A Python function whose locals and stack pass 11 words gets them from the heap at
    # every call, and the heap takes the first free run of blocks long enough, searched from
    # the first free block on: past the holes the imports leave, ~65 us a call on the
    # RP2040 (most of the app's calls on a press's path). This room, taken before the
    # imports and given back before the loop, leaves a free run low in the heap for them.
    gc.collect()
    room = bytearray(2048)
    import board
    import app
    from hal_rp2 import HalRp2
    try:
        cfg = board.load()
    except (board.ConfigError, OSError, ValueError, KeyError) as e:
        # No reset loop for a bad board.json: say why and leave the REPL to fix it.
        print("knockboard: bad configuration:", e)
        return
    hal = HalRp2(cfg)
    dev = app.Device(hal, cfg)
    del room  # given back: see above
    gc.collect()
    try:
        why = dev.run()
    except BaseException as e:
        hal.release()
        raise e
    print("knockboard: stopped (%s), REPL free" % ("Ctrl-C", "maintenance")[why - 1])


try:
    # Ctrl-C still works during the safe-boot check (the app disables it later): a flash
    # tool that connects within the first milliseconds lands here too.
    if safe_boot():
        print("knockboard: safe boot, app skipped")
    else:
        start()
except KeyboardInterrupt:
    print("knockboard: interrupted")
except Exception as e:
    # Keep the report: the host sees only garbage on the wire while we crash.
    try:
        with open("last_error.txt", "w") as f:
            sys.print_exception(e, f)
    except OSError:
        pass
    sys.print_exception(e)
    import machine
    machine.reset()
