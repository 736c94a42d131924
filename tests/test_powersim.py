"""The controller's power path simulated with ngspice (hardware/power/simulation.py), from the
committed netlist: each power case with its pass condition, and the behavioural models checked
against their datasheets' own figures. ngspice is Debian's `ngspice`; without it these fail,
they do not skip.

The limits the cases are held to, and where they come from:
- GP15 reads the jack: high at least 2.0 V, low at most 0.8 V (RP2040 datasheet, IO electrical
  characteristics at IOVDD 3.3 V), and never outside -0.3 V .. 3.6 V (IOVDD + 0.3 V);
- the LED rail (+5V) at least 4.5 V on the jack and 4.4 V on USB at the firmware's full LED
  budget (the far LED then still sees the cell boards' 0.3 V drop above 4.1-4.2 V, and the
  SK6812MINI runs from 3.5 V);
- VSYS at least 4.0 V while the Pico runs and at most 5.5 V (Pico datasheet: VSYS 1.8-5.5 V).
"""

import os
from functools import lru_cache

import pytest
from hardware.inputs import power_budget
from hardware.inputs.pinmap import ROOT, load_pinmap
from hardware.power import simulation as P
from hardware.schematic import netlist

NET = os.path.join(ROOT, "hardware", "out", "controller.net")
GP15_HIGH, GP15_LOW, GP15_MIN, GP15_MAX = 2.0, 0.8, -0.3, 3.6
RAIL_JACK, RAIL_USB = 4.5, 4.4
VSYS_MIN, VSYS_MAX = 4.0, 5.5
SETTLED = P.SETTLE_S     # s after the start: the plugs are in, U6's enable delay is over


@lru_cache(maxsize=None)
def wave(name):
    return P.run(netlist.read_file(NET), P.cases()[name])


def lo(w, probe, t0, t1=None):
    return min(P.window(w, probe, t0, w["t"][-1] if t1 is None else t1))


def hi(w, probe, t0, t1=None):
    return max(P.window(w, probe, t0, w["t"][-1] if t1 is None else t1))


def first_time(w, probe, pred, t0=0.0):
    for t, v in zip(w["t"], w[probe]):
        if t >= t0 and pred(v):
            return t
    return None


def test_every_case_keeps_gp15_and_vsys_in_their_ratings():
    for name in P.cases():
        w = wave(name)
        assert GP15_MIN <= lo(w, "JACK_SENSE", 0) and hi(w, "JACK_SENSE", 0) <= GP15_MAX, name
        assert hi(w, "VSYS", 0) <= VSYS_MAX, name


def test_jack_only():
    w = wave("jack only")
    assert lo(w, "+5V", SETTLED) >= RAIL_JACK          # dark, then 1500 mA from 0.5 s
    assert lo(w, "JACK_SENSE", SETTLED) >= GP15_HIGH
    assert P.edges(w, "U6 on") == 0
    assert P.edges(w, "U5 on") == 1                     # on once at plug-in, no chatter
    assert lo(w, "U5 on", SETTLED) > 0.5
    assert lo(w, "VSYS", SETTLED) >= VSYS_MIN


def test_usb_only_with_jp1_feeds_the_leds():
    """The review's finding: on the old wiring U6 turned on, lifted the rail, and Q3 (gate on
    +5V_JACK, back-fed through F1) turned it off again, over and over; the rail never rose."""
    w = wave("USB only, JP1")
    assert P.edges(w, "U6 on") == 1                     # once, and it stays on
    assert lo(w, "U6 on", 0.3) > 0.5
    assert lo(w, "+5V", 0.3) >= RAIL_USB               # dark, then 350 mA from 0.7 s
    assert hi(w, "JACK_SENSE", 0) <= GP15_LOW          # the firmware sees USB, not the jack
    assert lo(w, "VSYS", SETTLED) >= VSYS_MIN
    # plug-in: U6 waits for R13/C10 (about 90 ms at EN's typical threshold), so VBUS meets only
    # this board's 0.2 uF while the attach transient lasts (milliseconds), the LED rail's
    # 1.2 mF only later and through U6's current limit
    on = first_time(w, "U6 on", lambda v: v > 0.5)
    assert on - 0.05 >= 0.05


def test_usb_only_without_jp1_leaves_the_leds_dark():
    w = wave("USB only, no JP1")
    assert hi(w, "+5V", 0) < 0.5 and P.edges(w, "U6 on") == 0
    assert lo(w, "VSYS", SETTLED) >= VSYS_MIN
    assert hi(w, "JACK_SENSE", 0) <= GP15_LOW


def test_jack_and_usb_run_the_leds_from_the_jack():
    w = wave("jack and USB")
    assert P.edges(w, "U6 on") == 0
    assert lo(w, "+5V", SETTLED) >= RAIL_JACK
    assert lo(w, "JACK_SENSE", SETTLED) >= GP15_HIGH
    assert lo(w, "VSYS", SETTLED) >= VSYS_MIN


def test_usb_plugged_and_pulled_while_on_the_jack():
    w = wave("USB plugged and pulled on the jack")
    assert P.edges(w, "U6 on") == 0
    assert lo(w, "+5V", 0.25) >= RAIL_JACK             # 1500 mA throughout
    assert lo(w, "JACK_SENSE", 0.25) >= GP15_HIGH
    assert lo(w, "VSYS", 0.25) >= VSYS_MIN


def test_jack_pulled_while_running_hands_over_to_usb():
    w = wave("jack pulled while running")
    pull = P.PULL_S
    assert lo(w, "+5V", 0.3, pull) >= RAIL_JACK and lo(w, "JACK_SENSE", 0.3, pull) >= GP15_HIGH
    # GP15 falls first: the firmware (polling every 10 ms) lowers the LEDs to USB's budget
    # before U6 feeds them (firmware/supply.py counts on it)
    low = first_time(w, "JACK_SENSE", lambda v: v <= GP15_LOW, pull)
    on = first_time(w, "U6 on", lambda v: v > 0.5, pull)
    assert low is not None and on is not None and on - low >= 0.02
    assert lo(w, "+5V", on + 0.1) >= RAIL_USB           # back on USB, and stays there
    assert P.edges(w, "U6 on", pull) == 1
    assert lo(w, "VSYS", 0.1) >= VSYS_MIN               # the Pico never browns out


@pytest.mark.parametrize("name", ["12 V plug", "reversed plug", "reversed 12 V plug"])
def test_a_wrong_plug_stays_out_and_usb_feeds_the_leds(name):
    w = wave(name)
    assert hi(w, "U5 on", 0) < 0.5                      # Q2 never let it through
    for probe in ("+5V_JACK", "+5V", "VSYS"):
        assert -0.3 <= lo(w, probe, 0) and hi(w, probe, 0) <= 5.5, probe
    assert hi(w, "JACK_SENSE", 0) <= GP15_LOW           # the firmware keeps USB's budget
    assert lo(w, "+5V", SETTLED) >= RAIL_USB
    assert P.edges(w, "U6 on") == 1


def test_leds_dark_to_full_white_on_the_jack():
    w = wave("LEDs dark to full white on the jack")
    assert lo(w, "+5V", 0.2) >= RAIL_JACK               # through the step at 0.3 s
    # C2 carries the step: the rail dips no more than 50 mV below where it settles
    assert lo(w, "+5V", 0.3, 0.35) >= lo(w, "+5V", 0.5) - 0.05


def test_jack_window_is_the_ladders():
    """Swept 0 -> 7 -> 0 V: U5 passes the jack only inside the window the R7/R8/R9 ladder sets
    on its 0.5 V comparators (4.26-5.67 V, hardware/inputs/power_budget.py), and does pass it
    there."""
    w = wave("jack swept 0-7 V")
    uv, ov = power_budget.uv_v(), power_budget.ov_v()
    on = [(t, v) for t, v, s in zip(w["t"], w["+5V_IN"], w["U5 on"]) if s > 0.5]
    assert on, "U5 never passed the jack"
    assert all(uv - 0.02 <= v <= ov + 0.02 for _, v in on)
    rising = [v for t, v in on if t < 1.0]
    falling = [v for t, v in on if t > 1.0]
    assert rising and falling
    assert max(rising) > ov - 0.05 and min(falling) < uv + 0.05


def test_switch_current_limit_follows_the_datasheets_rilim_table():
    """TPS2553 datasheet (SLVS841E) Table 1, typical IOS: 26.1 k 989.1 mA, 52.3 k 501.6 mA,
    66.5 k 396.7 mA, 226 k 120.0 mA; the board's 56.2 k gives what the budget counts."""
    for rilim, ma in ((26.1e3, 989.1), (52.3e3, 501.6), (66.5e3, 396.7), (226e3, 120.0)):
        assert P.switch_limit_a(rilim) * 1000 == pytest.approx(ma, rel=0.02), rilim
    nl = netlist.read_file(NET)
    u6 = nl.components["U6"]
    r = [c for c in nl.components.values()
         if c.part.prefix == "R" and set(c.pins.values()) == {u6.net_of("ILIM"), "GND"}]
    assert len(r) == 1
    from hardware.schematic.checks import _ohms
    assert P.switch_limit_a(_ohms(r[0].value)) * 1000 == pytest.approx(
        power_budget.USB_SWITCH_LIMIT_MA, rel=0.02)


def test_usb_load_stays_below_the_switch_limit():
    """On USB at the firmware's LED budget U6 is not limiting: its current stays below the
    limit, so the rail holds (a USB budget above the limit would sag it)."""
    w = wave("USB only, JP1")
    limit = power_budget.USB_SWITCH_LIMIT_MA / 1000
    assert hi(w, "U6 A", 0.8) < 0.95 * limit
    assert load_pinmap()["power"]["led_budget_ma"] / 1000 < limit


def test_a_part_without_a_model_stops_the_deck():
    nl = netlist.read_file(NET)
    comp = nl.components["R9"]
    comp.fields = dict(comp.fields, Catalogue="buzzer")  # a part the simulation cannot model
    with pytest.raises(P.SimError, match="R9"):
        P.deck(nl, P.cases()["jack only"])


def test_docs_give_what_the_simulation_gives():
    """docs/build.md's table of the cases ("The power path, simulated") against the simulation
    of the committed netlist, to the 0.01 V it is written in (0.02 V allowed: another ngspice)."""
    with open(os.path.join(ROOT, "docs", "build.md")) as f:
        text = f.read()
    table = text.split("<!-- powersim:table -->")[1].split("<!-- /powersim:table -->")[0]
    rows = [ln.strip("| ").split(" | ") for ln in table.strip().splitlines()[2:]]
    assert [r[0] for r in rows] == list(P.cases())
    for name, rail, vsys, gp15, u6 in rows:
        f = P.summary(wave(name))
        v_end, v_min = vsys.replace(" V", "").replace(")", "").split(" (")
        for doc, sim in ((rail, f["+5V"]), (v_end, f["VSYS"]), (v_min, f["VSYS min"]),
                         (gp15, f["GP15"])):
            assert abs(float(doc.replace(" V", "")) - sim) <= 0.02, (name, doc, sim)
        assert int(u6.rstrip("x")) == f["U6 on"], name
