"""Every footprint in every committed netlist resolves to a real .kicad_mod file (KiCad 6's
standard libraries or hardware/footprints/Knockboard.pretty), and every pin of every
component is a pad of its footprint: the netlists import into KiCad's PCB editor whole."""

import copy
import glob
import os

import pytest
from hardware.inputs import pinmap
from hardware.parts import libraries
from hardware.schematic import netlist

NETS = sorted(glob.glob(os.path.join(pinmap.ROOT, "hardware", "out", "*.net")))


@pytest.fixture(scope="module", autouse=True)
def kicad_footprints():
    if not os.path.isdir(os.path.join(libraries.standard_dir(), "LED_SMD.pretty")):
        msg = "KiCad 6's footprint libraries missing: apt-get install kicad-footprints"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)


def test_there_are_netlists():
    names = {os.path.basename(p) for p in NETS}
    assert {"controller.net", "cellboard-ko.net"} <= names, names


@pytest.mark.parametrize("net", NETS, ids=os.path.basename)
def test_every_footprint_resolves_and_every_pin_is_a_pad(net):
    nl = netlist.read_file(net)
    assert nl.components
    assert libraries.problems(nl) == []


def test_a_misnamed_footprint_and_a_missing_pad_are_caught():
    nl = netlist.read_file(os.path.join(pinmap.ROOT, "hardware", "out", "cellboard-ko.net"))
    bad = copy.deepcopy(nl)
    bad.components["SW0"].footprint = "Button_Switch_THT:SW_PUSH_12mm"   # KiCad: SW_PUSH-12mm
    assert libraries.problems(bad) == [
        "SW0: footprint 'Button_Switch_THT:SW_PUSH_12mm': no "
        + os.path.join(libraries.standard_dir(), "Button_Switch_THT.pretty",
                       "SW_PUSH_12mm.kicad_mod")]
    bad = copy.deepcopy(nl)
    bad.components["LED0"].footprint = "Capacitor_SMD:C_0603_1608Metric"  # 2 pads, the LED has 4
    assert libraries.problems(bad) == [
        "LED0: pin 3 is no pad of Capacitor_SMD:C_0603_1608Metric",
        "LED0: pin 4 is no pad of Capacitor_SMD:C_0603_1608Metric"]
    with pytest.raises(ValueError, match="not Library:Name"):
        libraries.path("SW_PUSH-12mm")
