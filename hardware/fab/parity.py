"""The board against its netlist, the project's own check (KiCad 6's DRC report never runs its
footprint/netlist parity test, so its "0 footprint errors" says nothing about it): every part
of the netlist on the board with the netlist's footprint, no other part but the mounting holes
and fiducials, and every pad on the net the netlist gives its pin (none where it gives none).
Reads the board as pcbnew does (hardware/kicad/fab_facts.py: its JSON)."""

# the plan's mounting holes and overlay marks: not in the netlist
MECHANICAL = ("H", "FID")


def problems(facts, nl):
    """[one line per difference] between the board `facts` and the netlist `nl`."""
    out = []
    fps = {ref: fp for ref, fp in facts["footprints"].items()
           if not (ref.startswith(MECHANICAL) and ref.lstrip("HFID").isdigit())}
    for ref in sorted(set(nl.components) - set(fps)):
        out.append(f"{ref}: in the netlist, not on the board")
    for ref in sorted(set(fps) - set(nl.components)):
        out.append(f"{ref}: on the board, not in the netlist")
    for ref in sorted(set(fps) & set(nl.components)):
        c, fp = nl.components[ref], fps[ref]
        if c.footprint.split(":")[-1] != fp["footprint"]:
            out.append(f"{ref}: footprint {fp['footprint']} on the board, {c.footprint} in "
                       "the netlist")
        for pad in fp["pads"]:
            if pad["unplated"] or not pad["number"]:
                continue
            want = c.pins.get(pad["number"]) or ""
            if pad["net"] != want:
                out.append(f"{ref}.{pad['number']}: on {pad['net'] or 'no net'} on the board, "
                           f"{want or 'no net'} in the netlist")
    return out
