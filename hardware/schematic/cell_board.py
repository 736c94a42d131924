"""Per-game cell boards: one SK6812MINI (with its own 100 nF), one key and one diode under
every cell of the game's layout (knockboard.layouts), the LEDs chained in cell order and
the keys wired into the firmware's matrix: cell i is row i // cols, column i % cols
(firmware/boards.json; docs/firmware.md, "Board configuration")."""


from ..inputs.game_layouts import cells, chain_length_mm, load_boards


def second_feed(game, boards=None):
    from ..inputs.power_budget import needs_second_feed
    return needs_second_feed(chain_length_mm(game, boards))


def build(game, boards=None):
    from .controller import ribbon
    from .skidl_parts import Net, new_circuit, part, supply

    boards = boards or load_boards()
    b = boards[game]
    rows, cols = b["rows"], b["cols"]
    circ = new_circuit()
    with circ:
        NC = circ.NC
        v5, gnd = supply("+5V"), supply("GND")
        row_nets = [Net(f"ROW{r}") for r in range(rows)]
        col_nets = [Net(f"COL{c}") for c in range(cols)]
        j1 = part("vh3", "J1", "Connectors")
        j1["+5V"] += v5
        j1["GND"] += gnd
        din = Net("LED_DIN")
        j1["DIN"] += din
        j2 = part("idc20", "J2", "Connectors", value="ROWS")
        j3 = part("idc20", "J3", "Connectors", value="COLS")
        ribbon(j2, row_nets + [None] * (16 - rows), gnd, NC)
        ribbon(j3, col_nets + [None] * (16 - cols), gnd, NC)
        cb1 = part("c100u", "CB1", "Connectors", Decouples="LED0")   # at the chain's start
        cb1["+"] += v5
        cb1["-"] += gnd
        n = b["cells"]
        cb2 = part("c100u", "CB2", "Connectors", Decouples=f"LED{n - 1}")   # at its end
        cb2["+"] += v5
        cb2["-"] += gnd
        if second_feed(game, boards):              # the rail fed from both ends of the chain
            j4 = part("vh2", "J4", "Connectors", value="LED 5V/GND far end")
            j4["+5V"] += v5
            j4["GND"] += gnd
        prev = din
        for index, space, r, c, _, _ in cells(game, boards):
            led = part("sk6812mini", f"LED{index}", "Cells", Cell=index, Space=space)
            led["VDD"] += v5
            led["VSS"] += gnd
            led["DIN"] += prev
            if index + 1 < n:
                prev = Net(f"CHAIN{index + 1}")
                led["DOUT"] += prev
            else:
                led["DOUT"] += NC
            cap = part("c100n", f"C{index}", "Cells", Decouples=f"LED{index}")
            cap[1, 2] += v5, gnd
            sw = part("key", f"SW{index}", "Cells", Cell=index, Space=space)
            d = part("keydiode", f"D{index}", "Cells", Cell=index)
            k = Net(f"KEY{index}")
            sw[1, 2] += col_nets[c], k
            d["A"] += k
            d["K"] += row_nets[r]
    return circ
