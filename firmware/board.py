# Board configuration: the board definitions (boards.json) and the controller pin map
# (pinmap.json, shared with the hardware schematic) ship with the firmware; a small
# board.json on the device picks the board and may lower the power budget, e.g.
# {"board": "ko"} or {"board": "knockabout", "led_budget_ma": 1000} (supply.py picks the
# budget of the supply present; led_budget_ma caps it).
import json

DEFAULT_BOARD = "knockabout"


class ConfigError(Exception):
    pass


class Config:
    def __init__(self, board_id, board, pins, local):
        self.board_id = board_id
        self.name = board.get("name", board_id)
        self.cells = board["cells"]
        self.rows = board["rows"]
        self.cols = board["cols"]
        self.pins = pins
        power = pins.get("power", {})
        self.budget_ma = local.get("led_budget_ma", power.get("led_budget_ma", 400))
        # the budgets by supply (supply.py picks one); board.json's can only lower them
        self.usb_budget_ma = power.get("led_budget_ma", 400)
        self.jack_budget_ma = power.get("jack_budget_ma", self.usb_budget_ma)
        self.budget_cap_ma = local.get("led_budget_ma")
        self.ma_per_channel = power.get("ma_per_channel", 20)
        self.ma_idle = power.get("ma_idle", 1)
        self.debounce_ms = local.get("debounce_ms", 8)
        self.queue_size = local.get("queue_size", 64)


def _read(path):
    with open(path) as f:
        return json.load(f)


def load(prefix=""):
    """Reads the config files from directory `prefix` ("" = the device's root)."""
    boards = _read(prefix + "boards.json")
    pins = _read(prefix + "pinmap.json")
    try:
        local = _read(prefix + "board.json")
    except OSError:
        local = {}
    return make(boards, pins, local)


def make(boards, pins, local):
    if not isinstance(local, dict):
        raise ConfigError("board.json: expected an object like {\"board\": \"ko\"}")
    board_id = local.get("board", DEFAULT_BOARD)
    if board_id not in boards:
        raise ConfigError("board.json: unknown board %r (known: %s)"
                          % (board_id, ", ".join(sorted(boards))))
    b = boards[board_id]
    m = pins["matrix"]
    if not 0 < b["cells"] <= b["rows"] * b["cols"]:
        raise ConfigError("board %s: %d cells do not fit %dx%d" %
                          (board_id, b["cells"], b["rows"], b["cols"]))
    if b["rows"] > m["rows"]["max"] or b["cols"] > m["cols"]["count"]:
        raise ConfigError("board %s: matrix %dx%d exceeds the controller's %dx%d" %
                          (board_id, b["rows"], b["cols"], m["rows"]["max"], m["cols"]["count"]))
    for key in ("led_budget_ma", "debounce_ms", "queue_size"):
        v = local.get(key)
        if v is not None and (not isinstance(v, int) or v <= 0):
            raise ConfigError("board.json: %s must be a positive integer" % key)
    power = pins.get("power", {})
    idle = b["cells"] * power.get("ma_idle", 1)
    budget = local.get("led_budget_ma", power.get("led_budget_ma", 400))
    if budget <= idle:
        # the dark LEDs alone draw that much: no current would be left for any light
        raise ConfigError("board.json: led_budget_ma %d is not above the %d mA the %d "
                          "LEDs draw while dark" % (budget, idle, b["cells"]))
    d = local.get("debounce_ms")
    if d is not None and not 5 <= d <= 10:
        raise ConfigError("board.json: debounce_ms must be 5..10")
    return Config(board_id, b, pins, local)
