"""The printed circuit boards: for the controller and each game's cell board (split into tiles where
the fab's panel is too small, hardware/placement/tiles.py), place and route the parts in the
project's Python (hardware/placement/cell_board_layout.py, hardware/placement/controller_layout.py,
hardware/routing/router.py), then have KiCad's pcbnew (Debian's /usr/bin/python3,
hardware/kicad/board_file.py) write the .kicad_pcb with its ground pour filled, beside it the
assembly files (JLCPCB's BOM and CPL formats) and, on request, Gerbers, drill file and an upload
zip.

Routing a big board takes about a minute, so a board is remade only when its inputs changed:
each board carries the SHA-256 of its inputs (netlist, cell positions, the placing and
routing code, the fab's rules: hardware/inputs_hash.py) in its title block, and
tests/test_pcb.py checks it."""

import json
import os
import re
import tempfile

from .fab.bom import bom_csv
from .inputs import game_layouts, pinmap
from .inputs_hash import inputs_hash  # noqa: F401 (pcb.inputs_hash, for the tests)
from .kicad.run import PcbError, kicad
from .parts import libraries
from .parts.refdes import natural_order
from .placement import cell_board_layout
from .routing import net_order
from .schematic import netlist

PCB_DIR = "hardware/pcb"
RENDER_DIR = "docs/pcb"
GERBER_DIR = "hardware/pcb/gerbers"      # not committed: `python3 -m hardware.build --gerbers`
HASH = re.compile(r'\(comment 1 "inputs sha256 ([0-9a-f]{64})"\)')


def _read(path):
    with open(path) as f:
        return f.read()


def board_hash(path):
    """The inputs hash a saved board carries, or None."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        head = f.read(4000)
    m = HASH.search(head)
    return m.group(1) if m else None


def boards(root=pinmap.ROOT):
    """[(board name, netlist text, extra hash input, plan maker)] of every PCB."""
    from .placement import tiles
    out = []
    reg = game_layouts.registry()
    bds = reg.firmware_boards()
    out_dir = os.path.join(root, "hardware", "out")
    ctl_text = _read(os.path.join(out_dir, "controller.net"))
    from .placement import controller_layout
    out.append(("controller", ctl_text, "",
                lambda: controller_layout.place_controller(netlist.read(ctl_text))))
    for g in game_layouts.game_names():
        text = _read(os.path.join(out_dir, f"cellboard-{g}.net"))
        full = netlist.read(text)
        cells = _read(os.path.join(out_dir, f"cells-{g}.csv"))
        n = len(tiles.regions(g, bds))
        if n == 1:
            out.append((f"cellboard-{g}", text, cells,
                        lambda g=g, full=full: cell_board_layout.place_cells(g, full, bds)))
            continue
        for t in range(n):
            name = f"cellboard-{g}-tile{t + 1}"
            ttext = _read(os.path.join(out_dir, f"{name}.net"))
            out.append((name, ttext, cells, tiles.tile_plan(g, t, netlist.read(ttext), full, bds)))
    return out


def routed(name, plan):
    """The plan routed (hardware/routing/route.py); a PcbError naming the connections that failed,
    a wide one's net, pad and place among them, if any did."""
    from .routing import route
    route.route(plan)
    if plan.failed:
        raise PcbError(f"{name}: {len(plan.failed)} connections not routed: {plan.failed[:5]}")
    return plan


def make(name, net_text, plan_maker, h, out_dir, render_dir, log=print):
    plan = plan_maker()
    from .placement.plan import GROUND
    from .schematic import led_current
    nl = netlist.read(net_text)
    # the LEDs' current from the netlist (led_current.nets): drawn led_current.TRACK_MM wide,
    # every connection that wide or a failed build naming it; the pads off the current's way
    # (a chip's supply pin, a capacitor) are branches, drawn as normal tracks
    plan.wide_nets = sorted(led_current.nets(nl) - {GROUND})
    on_path = led_current.path_pins(nl)
    plan.branch_pads = sorted(f"{r}.{p}" for n in plan.wide_nets for r, p in nl.pins_on(n)
                              if (r, p) not in on_path)
    order = net_order.of(name)
    plan.route_first, plan.route_last = order["first"], order["last"]
    routed(name, plan)
    data = plan.to_json()
    data["hash"] = h
    data["libraries"] = libraries.PROJECT_LIBS
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        pj = os.path.join(tmp, "plan.json")
        with open(pj, "w") as f:
            json.dump(data, f)
        kicad("build", pj, os.path.join(out_dir, f"{name}.kicad_pcb"))
    from .fab import cpl
    for suffix, text in (("cpl", cpl.cpl_csv(plan, natural_order)), ("bom", bom_csv(plan, nl))):
        with open(os.path.join(out_dir, f"{name}-{suffix}.csv"), "w") as f:
            f.write(text)
    from .routing import render
    render.save(plan, render_dir)
    log(f"pcb {name}: {len(plan.footprints)} footprints, {len(plan.tracks)} tracks, "
        f"{len(plan.vias)} vias")
    if plan.islands:
        log(f"pcb {name}: ground pads on a piece of the pour the router found cut off and could "
            "not join (KiCad's DRC, in tests/test_pcb.py, says whether it really is): "
            f"{', '.join(plan.islands)}")
    if plan.passes > 1:
        log(f"pcb {name}: routed in {plan.passes} passes from its net order "
            f"({os.path.relpath(net_order.PATH, pinmap.ROOT)}); one pass from "
            f"{json.dumps(plan.route_order, sort_keys=True)}")
    return plan


def build_all(root=pinmap.ROOT, only=None, force=False, log=print):
    """Remake every board whose inputs changed; returns the names remade."""
    out_dir = os.path.join(root, PCB_DIR)
    made = []
    for name, text, extra, plan_maker in boards(root):
        if only and name not in only:
            continue
        h = inputs_hash(name, text, extra)
        if not force and board_hash(os.path.join(out_dir, f"{name}.kicad_pcb")) == h:
            continue
        plan = make(name, text, plan_maker, h, out_dir, os.path.join(root, RENDER_DIR), log)
        if plan.passes > 1:
            # the order it ended with is kept, and the board made again from it in one
            # pass, the same board carrying the hash of the order it can be made from
            net_order.write(name, plan.route_order)
            make(name, text, plan_maker, inputs_hash(name, text, extra), out_dir,
                 os.path.join(root, RENDER_DIR), log)
        made.append(name)
    return made


def gerbers(board, out_dir):
    """Gerbers and drill files of a committed board into out_dir/NAME/, zipped beside it
    (out_dir/NAME.zip, the file to upload); returns the zip's path."""
    name = os.path.splitext(os.path.basename(board))[0]
    return kicad("gerbers", board, os.path.join(out_dir, name))


def gerbers_all(root=pinmap.ROOT, log=print):
    out = os.path.join(root, GERBER_DIR)
    for name, *_ in boards(root):
        z = gerbers(os.path.join(root, PCB_DIR, f"{name}.kicad_pcb"), out)
        log(f"gerbers {name}: {os.path.relpath(z, root)}")


def price_class(width, height):
    """What JLCPCB's standard 2-layer service charges, roughly, for a board this size."""
    if width <= 100 and height <= 100:
        return "up to 100 x 100 mm: the cheapest class (a few US$ for 5 boards)"
    return "large board, priced by area: expect tens of US$ per board (quote on upload)"


def summary_md(nets, boards_cfg):
    """The PCB table of docs/build.md, from the netlists (no routing needed): every board,
    its size, layers, part count, tiles and price class."""
    from .placement import controller_layout, tiles
    rows = ["| board | size (mm) | copper layers | parts | tiles | fab price class |",
            "| --- | --- | ---: | ---: | ---: | --- |"]
    ctl = nets["controller"]
    rows.append(f"| controller | {controller_layout.WIDTH:g} x {controller_layout.HEIGHT:g} | 2 | "
                f"{len(ctl.components)} | 1 | "
                f"{price_class(controller_layout.WIDTH, controller_layout.HEIGHT)} |")
    for g in sorted(n for n in nets if n != "controller"):
        lay = game_layouts.get_layout(g)
        regs = tiles.regions(g, boards_cfg)
        size = " + ".join(f"{x1 - x0:g} x {lay.height_mm:g}" for x0, x1 in regs)
        joins = 2 * (len(regs) - 1)
        rows.append(f"| cell board {g} | {size} | 2 | {len(nets[g].components) + joins} | "
                    f"{len(regs)} | "
                    f"{price_class(*sorted(((regs[0][1] - regs[0][0]), lay.height_mm)))} |")
    return "\n".join(rows) + "\n"
