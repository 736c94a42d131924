"""What KiCad itself reads from a saved board about the files a fab takes, as JSON, for
tests/test_fab_files.py: the auxiliary origin the Gerbers are plotted from, the outline's
bounding box (line width included), each footprint's pads and courtyard, every track and
via, and everything on the silkscreen. Runs under Debian's /usr/bin/python3 (pcbnew), apart
from hardware/kicad/board_file.py on purpose: it checks the boards and draws none of them.

    /usr/bin/python3 hardware/kicad/fab_facts.py BOARD.kicad_pcb
"""

import json
import sys

import pcbnew

MM = pcbnew.ToMM
SILK = (pcbnew.F_SilkS, pcbnew.B_SilkS)


def _box(item):
    b = item.GetBoundingBox()
    return [MM(b.GetLeft()), MM(b.GetTop()), MM(b.GetRight()), MM(b.GetBottom())]


def _sides(p, layers):
    """The sides ("F", "B") of `layers` (front layer, back layer) that pad p is on."""
    return [name for ly, name in zip(layers, ("F", "B")) if p.IsOnLayer(ly)]


def _pad(p):
    return {"number": p.GetNumber(), "x": MM(p.GetPosition().x), "y": MM(p.GetPosition().y),
            "box": _box(p), "smd": p.GetAttribute() == pcbnew.PAD_ATTRIB_SMD,
            "plated": p.GetAttribute() == pcbnew.PAD_ATTRIB_PTH,
            "unplated": p.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH,
            "paste": _sides(p, (pcbnew.F_Paste, pcbnew.B_Paste)),
            "copper": _sides(p, (pcbnew.F_Cu, pcbnew.B_Cu)), "net": p.GetNetname()}


def _silk_item(it, owner):
    side = "F" if it.GetLayer() == pcbnew.F_SilkS else "B"
    if isinstance(it, pcbnew.EDA_TEXT):
        if not it.IsVisible():
            return None
        return {"owner": owner, "side": side, "text": it.GetShownText(), "box": _box(it),
                "stroke": MM(it.GetTextThickness()), "height": MM(it.GetTextSize().y)}
    return {"owner": owner, "side": side, "box": _box(it),
            "stroke": MM(it.GetWidth()), "filled": it.IsFilled()}


def _courtyard(m):
    """The box of a footprint's courtyard lines (its side's), or None."""
    boxes = [_box(it) for it in m.GraphicalItems()
             if it.GetLayer() in (pcbnew.F_CrtYd, pcbnew.B_CrtYd)]
    if not boxes:
        return None
    return [min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes)]


def facts(path):
    board = pcbnew.LoadBoard(path)
    aux = board.GetDesignSettings().GetAuxOrigin()
    edge = board.GetBoardEdgesBoundingBox()
    fps, silk = {}, []
    for m in board.GetFootprints():
        ref = m.GetReference()
        fps[ref] = {"bottom": m.IsFlipped(), "x": MM(m.GetPosition().x),
                    "y": MM(m.GetPosition().y), "rot": m.GetOrientationDegrees(),
                    "footprint": m.GetFPID().GetLibItemName().wx_str(),
                    "pads": [_pad(p) for p in m.Pads()],
                    "reference_layer": m.Reference().GetLayerName(),
                    "courtyard": _courtyard(m)}
        for it in list(m.GraphicalItems()) + [m.Reference(), m.Value()]:
            if it.GetLayer() in SILK:
                s = _silk_item(it, ref)
                if s:
                    silk.append(s)
    for it in board.GetDrawings():
        if it.GetLayer() in SILK:
            s = _silk_item(it, None)
            if s:
                silk.append(s)
    tracks = [[t.GetNetname(), t.GetLayerName(), MM(t.GetStart().x), MM(t.GetStart().y),
               MM(t.GetEnd().x), MM(t.GetEnd().y), MM(t.GetWidth())]
              for t in board.GetTracks() if t.Type() == pcbnew.PCB_TRACE_T]
    vias = [[v.GetNetname(), MM(v.GetPosition().x), MM(v.GetPosition().y), MM(v.GetWidth())]
            for v in board.GetTracks() if v.Type() == pcbnew.PCB_VIA_T]
    return {"aux_origin": [MM(aux.x), MM(aux.y)],
            "tracks": tracks, "vias": vias,
            "edge_box": [MM(edge.GetLeft()), MM(edge.GetTop()), MM(edge.GetRight()),
                         MM(edge.GetBottom())],
            "footprints": fps, "silk": silk}


if __name__ == "__main__":
    print(json.dumps(facts(sys.argv[1])))
