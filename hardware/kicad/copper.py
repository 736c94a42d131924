"""Nets' copper of a saved board as JSON, for hardware/power/rails.py. Runs under Debian's
/usr/bin/python3 (pcbnew), like hardware/kicad/board_file.py, and apart from it on purpose: the
boards' inputs hash covers hardware/kicad/board_file.py (it draws the boards), not this reader.

    /usr/bin/python3 hardware/kicad/copper.py BOARD.kicad_pcb NET [NET ...]
"""

import json
import sys

import pcbnew


def _mm(p):
    return [pcbnew.ToMM(p.x), pcbnew.ToMM(p.y)]


def copper(path, nets):
    """{net: its copper} for each of `nets`, the board loaded once (a big board takes
    seconds): every piece of copper of a net, {"tracks": [[layer, x1, y1, x2, y2, width]],
    "vias": [[x, y, drill]], "pads": [[ref, number, [layers], [[x, y], ...] its outline]],
    "zones": {layer: [[[x, y], ...] filled outlines]]}, mm in the board's coordinates."""
    board = pcbnew.LoadBoard(path)
    return {net: _net_copper(board, net) for net in nets}


def _net_copper(board, net):
    out = {"tracks": [], "vias": [], "pads": [], "zones": {}}
    for t in board.GetTracks():
        if t.GetNetname() != net:
            continue
        if t.GetClass() == "PCB_VIA":
            out["vias"].append(_mm(t.GetPosition()) + [pcbnew.ToMM(t.GetDrillValue())])
        elif t.GetClass() == "PCB_TRACK":
            out["tracks"].append([t.GetLayerName(), *_mm(t.GetStart()), *_mm(t.GetEnd()),
                                  pcbnew.ToMM(t.GetWidth())])
    for p in board.GetPads():
        if p.GetNetname() != net:
            continue
        ring = p.GetEffectivePolygon().Outline(0)
        layers = [n for n, lid in (("F.Cu", pcbnew.F_Cu), ("B.Cu", pcbnew.B_Cu))
                  if p.IsOnLayer(lid)]
        out["pads"].append([p.GetParent().GetReference(), p.GetNumber(), layers,
                            [_mm(ring.CPoint(j)) for j in range(ring.PointCount())]])
    for z in board.Zones():
        if z.GetNetname() != net:
            continue
        for lid in (pcbnew.F_Cu, pcbnew.B_Cu):
            if not z.IsOnLayer(lid):
                continue
            fill = z.GetFilledPolysList(lid)       # fractured: outlines without holes
            rings = out["zones"].setdefault(board.GetLayerName(lid), [])
            for i in range(fill.OutlineCount()):
                ring = fill.Outline(i)
                rings.append([_mm(ring.CPoint(j)) for j in range(ring.PointCount())])
    return out


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    print(json.dumps(copper(sys.argv[1], sys.argv[2:])))
