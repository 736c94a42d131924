"""Regenerate every committed hardware output:

    python3 -m hardware.build            # hardware/out/, firmware/boards.json, parts of
                                         # docs/build.md
    python3 -m hardware.build --out DIR  # the same files under DIR (the up-to-date test uses this)
    python3 -m hardware.build --no-pcb   # everything but the PCBs
    python3 -m hardware.build --gerbers  # also each PCB's Gerbers, drill file and upload zip

Outputs (hardware/out/ and firmware/boards.json, the boards the firmware knows, written from
knockboard's game registry): KiCad netlists of the controller and the four cell boards, the
rendered schematics (SVG), the ERC report, the BOM (CSV, quantities per game board), the
power budget, the wiring table, each board's cell list (LED chain order, matrix row and
column), the printable overlays at true size and the assembly views, one cell drawn to
scale (cell.svg) and the printed caps and frame tiles (print/: STL, and manifest.json). Then,
in hardware/pcb/, the PCBs of the controller and every cell board (hardware/pcbs.py; only those
whose inputs changed are routed again, which needs Debian's KiCad: /usr/bin/python3 with
pcbnew)."""

import argparse
import csv
import io
import json
import os
import re
import sys

from .inputs import game_layouts, pinmap, power_budget
from .outputs import write
from .parts import pinout_drawing, refdes
from .parts.catalogue import CATALOGUE, EXTRAS
from .placement import tiles
from .power import report as power_report
from .printed import cell_drawing, overlay, registration, solids
from .schematic import cell_board, checks, controller, drawing, netlist
from .schematic import wiring as controller_wiring

OUT = "hardware/out"
PINOUTS = "docs/parts"
BOARDS_FILE = "firmware/boards.json"
DOC = "docs/build.md"
CONTROLLER_BLOCKS = ["Power", "MCU", "LEDs", "Key matrix", "Controls", "Buzzer", "OLED"]


def _erc_section(title, netfile, erc, problems):
    errors, warnings, lines = erc
    out = [f"== {title} ({netfile})",
           f"SKiDL ERC: {errors} errors, {warnings} warnings"]
    out += [f"  {ln}" for ln in lines]
    for name, probs, count in problems:
        out.append(f"{name}: {'ok' if not probs else f'{len(probs)} ERRORS'} ({count})")
        out += [f"  ERROR: {p}" for p in probs]
    return out, errors + sum(len(p) for _, p, _ in problems), warnings


def _bom(nets, boards, games):
    """Rows grouped by catalogue part; quantities for the controller alone and for each
    complete game board (controller + that game's cell board)."""
    rows = {}
    for where, nl in nets.items():
        for c in nl.components.values():
            key = c.fields["Catalogue"]
            r = rows.setdefault(key, {"controller": [], **{g: [] for g in games}})
            r[where].append(c.ref)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["item", "value", "manufacturer", "mpn", "footprint", "description", "references",
                "qty_controller"] + [f"qty_{g}" for g in games])
    order = sorted(rows, key=lambda k: (not rows[k]["controller"], CATALOGUE[k].prefix, k))
    for i, key in enumerate(order, 1):
        d = CATALOGUE[key]
        r = rows[key]
        refs = " ".join(sorted(r["controller"], key=refdes.natural_order))
        cell_refs = {len(r[g]) for g in games}
        if any(cell_refs - {0}):
            sample = sorted(next(r[g] for g in games if r[g]), key=refdes.natural_order)
            prefix = sample[0].rstrip("0123456789")
            cb = " ".join(sample) if len(sample) <= 4 else f"{prefix}0..{prefix}N-1, one per cell"
            refs = (refs + "; " if refs else "") + "cell board: " + cb
        n_ctl = len(r["controller"])
        w.writerow([i, d.value, d.manufacturer, d.mpn, d.footprint, d.description, refs, n_ctl]
                   + [n_ctl + len(r[g]) for g in games])
    for j, e in enumerate(EXTRAS, len(order) + 1):
        w.writerow([j, e.name, e.manufacturer, e.mpn, "", e.description, "(not in the netlist)",
                    e.qty_controller]
                   + [e.qty_controller + e.qty_cell_board + e.per_cell * boards[g]["cells"]
                      + e.per_second_feed * ("J4" in nets[g].components) for g in games])
    return out.getvalue()


def _bom_md(bom_csv, games):
    rows = list(csv.reader(io.StringIO(bom_csv)))
    head = rows[0]
    out = ["| # | part | manufacturer | MPN | controller | " + " | ".join(games) + " |",
           "| ---: | --- | --- | --- | ---: | " + " | ".join("---:" for _ in games) + " |"]
    for r in rows[1:]:
        d = dict(zip(head, r))
        out.append(f"| {d['item']} | {d['value']} | {d['manufacturer']} | {d['mpn']} | "
                   f"{d['qty_controller']} | "
                   + " | ".join(d[f"qty_{g}"] for g in games) + " |")
    return "\n".join(out) + "\n"


def _sources_md():
    """Every part's pin source (its KiCad 6 symbol, or the datasheet's page and figure with
    the footprint drawn) and its package's source, for docs/build.md."""
    out = ["| part | MPN | pins from | package (datasheet) against the footprint |",
           "| --- | --- | --- | --- |"]
    for key, p in sorted(CATALOGUE.items()):
        if p.symbol:
            pins = f"KiCad 6 symbol `{p.symbol}`"
            if p.labels:
                pins += " (labels: " + ", ".join(f"{n} {name}" for n, name in p.labels) + ")"
        else:
            pins = (f"{p.pin_source}; drawn: "
                    f"[{key}.svg]({os.path.relpath(PINOUTS, os.path.dirname(DOC))}/{key}.svg)")
        pkg = p.package
        if pkg is None:
            fit = "not recorded"
        else:
            dims = [f"{pkg.pads} pads"] + ([f"pitch {pkg.pitch}"] if pkg.pitch else []) \
                + ([f"span {pkg.span}"] if pkg.span else []) \
                + ([f"body {pkg.body[0]} x {pkg.body[1]}"] if pkg.body else [])
            fit = f"{', '.join(dims)} mm: {pkg.source}; `{p.footprint}`"
        out.append(f"| {key} | {p.mpn} | {pins} | {fit} |")
    return "\n".join(out) + "\n"


def _ribbon_lines(pm, rows_ref, cols_ref):
    """The nets a pair of matrix headers carries, in signal-pin order (None: unused)."""
    m = pm["matrix"]
    return {rows_ref: [f"ROW{r}" if r < m["rows"]["max"] else None for r in range(16)],
            cols_ref: [f"COL{c}" if c < m["cols"]["count"] else None for c in range(16)]}


def generate(root=pinmap.ROOT):
    """{relative path: text} of every generated file."""
    pm = pinmap.load_pinmap()
    reg = game_layouts.registry()
    # The firmware's board list is written from the game registry, like everything here.
    boards = reg.firmware_boards()
    games = game_layouts.game_names()
    files = {BOARDS_FILE: reg.firmware_boards_json(boards)}
    from .schematic import skidl_parts

    ctl = controller.build(pm)
    ctl_erc = skidl_parts.run_erc(ctl)
    ctl_text = skidl_parts.netlist_text(ctl, "hardware/schematic/controller.py")
    ctl_nl = netlist.read(ctl_text)
    files[f"{OUT}/controller.net"] = ctl_text
    nets = {"controller": ctl_nl}
    bom_nets = {}           # a board cut into tiles also needs the tiles' join headers
    report = ["Knockboard ERC report: SKiDL's ERC plus the design checks of "
              "hardware/schematic/checks.py",
              "(every chip and LED powered, grounded and decoupled; pin map; LED chain and "
              "matrix).", ""]
    total_e = total_w = 0
    power = checks.power_problems(ctl_nl)
    budgets = power_budget.all_budgets(boards, pm)
    lines, e, w = _erc_section("controller", f"{OUT}/controller.net", ctl_erc, [
        ("power, ground and decoupling", power,
         f"{sum(1 for c in ctl_nl.components.values() if c.part.power_pins)} parts with "
         "supply pins"),
        ("pin map firmware/pinmap.json", checks.pinmap_problems(ctl_nl, pm),
         f"{len(pinmap.signals(pm))} GPIOs"),
        ("supply: protection, fuse, ratings, USB plug-in, buzzer",
         checks.supply_problems(ctl_nl, budgets, pm),
         f"VBUS at plug-in {checks.vbus_plugin_uf(ctl_nl):g} uF of this board"),
        ("ribbons: grounds and line order", checks.ribbon_problems(ctl_nl, ("J3", "J4"),
                                                                   _ribbon_lines(pm, "J3", "J4")),
         "J3, J4"),
        ("ESD protection of the matrix lines", checks.esd_problems(ctl_nl),
         f"{sum(1 for n in ctl_nl.nets if n[:3] in ('ROW', 'COL') and n[3:].isdigit())} lines")])
    report += lines + [""]
    total_e += e
    total_w += w
    files[f"{OUT}/controller.svg"] = drawing.schematic_svg(
        ctl_nl, "Knockboard controller: Raspberry Pi Pico, LED level shifter, key matrix, OLED, "
                "buzzer, power",
        ["Generated by `python3 -m hardware.build` from hardware/schematic/controller.py and "
         "firmware/pinmap.json.",
         "Net labels: pins with the same label are connected. Red: supplies, green: ground, x: "
         "not connected.",
         "Each key of the cell board: COLn -> key -> diode -> ROWm (cathode to the row); rows "
         "driven low one at a time."],
        CONTROLLER_BLOCKS)

    for g in games:
        b = boards[g]
        circ = cell_board.build(g, boards)
        erc = skidl_parts.run_erc(circ)
        text = skidl_parts.netlist_text(circ, "hardware/schematic/cell_board.py")
        nl = netlist.read(text)
        nets[g] = nl
        files[f"{OUT}/cellboard-{g}.net"] = text
        # boards the fab can't take whole
        for t, tile_text in tiles.tile_netlists(g, nl, boards).items():
            files[f"{OUT}/cellboard-{g}-tile{t + 1}.net"] = tile_text
            joins = {r: c for r, c in netlist.read(tile_text).components.items()
                     if r not in nl.components}
            bom_nets[g] = netlist.Netlist({**bom_nets.get(g, nl).components, **joins}, nl.nets)
        row = next(x for x in budgets if x["board"] == g)
        lines, e, w = _erc_section(f"cell board {g}", f"{OUT}/cellboard-{g}.net", erc, [
            ("power, ground and decoupling", checks.power_problems(nl), f"{b['cells']} LEDs"),
            ("LED chain and key matrix",
             checks.matrix_problems(nl, b["rows"], b["cols"], b["cells"]),
             f"{b['cells']} cells, {b['rows']}x{b['cols']}"),
            ("ribbons: grounds and line order",
             checks.ribbon_problems(nl, ("J2", "J3"),
                                    _ribbon_lines({"matrix": {"rows": {"max": b["rows"]},
                                                              "cols": {"count": b["cols"]}}},
                                                  "J2", "J3")), "J2, J3"),
            ("power feeds", checks.feed_problems(nl, row),
             f"{row['feeds']} feed(s), rails drop {row['rail_drop_v']} V")])
        report += lines + [""]
        total_e += e
        total_w += w
        n = b["cells"]
        keep = {"J1", "J2", "J3", "J4", "CB1", "CB2"} | {f"{p}{i}" for p in ("LED", "C", "SW", "D")
                                                   for i in (0, 1, n - 1)}
        files[f"{OUT}/cellboard-{g}.svg"] = drawing.schematic_svg(
            nl, f"Knockboard cell board: {g} ({n} cells, key matrix {b['rows']} x {b['cols']})",
            ["Every cell: SK6812MINI LEDi with 100 nF Ci, key SWi and diode Di; cell i is row i // "
             f"{b['cols']}, column i % {b['cols']}; LEDs chained in cell order.",
             f"Shown: the connectors and cells 0, 1 and {n - 1}; the full list is cells-{g}.csv, "
             f"the positions assembly/{g}.svg."],
            ["Connectors", "Cells"], refs=keep, max_h=1700,
            elisions=[("Cells", f"LED{n - 1}",
                       f"... cells 2 to {n - 2}: the same, chained on ...")])
        csv_out = io.StringIO()
        cw = csv.writer(csv_out, lineterminator="\n")
        cw.writerow(["cell", "space", "led_chain_position", "row", "col", "x_mm", "y_mm"])
        for index, space, r, c, x, y in game_layouts.cells(g, boards):
            cw.writerow([index, space, index, r, c, x, y])
        files[f"{OUT}/cells-{g}.csv"] = csv_out.getvalue()
        lay = game_layouts.get_layout(g)
        files[f"{OUT}/overlays/{g}.svg"] = overlay.overlay_svg(lay, registration.marks(g))
        files[f"{OUT}/assembly/{g}.svg"] = overlay.assembly_svg(lay, b["rows"], b["cols"])

    files[f"{OUT}/cell.svg"] = cell_drawing.svg()
    for key, part in sorted(CATALOGUE.items()):     # the parts KiCad lacks, drawn with their pins
        if part.pin_table:
            files[f"{PINOUTS}/{key}.svg"] = pinout_drawing.svg(part)
    files[f"{OUT}/print/manifest.json"] = solids.manifest_text(solids.made()[1])
    report.append(f"TOTAL: {total_e} errors, {total_w} warnings")
    files[f"{OUT}/erc.txt"] = "\n".join(report) + "\n"
    files[f"{OUT}/bom.csv"] = _bom({**nets, **bom_nets}, boards, games)
    from .power import rails
    power_md = power_report.markdown(budgets, pm, rails.load(os.path.join(root, "hardware", "pcb",
                                                                          "rails.json")))
    files[f"{OUT}/power.md"] = "# Power budget\n\n" + power_md
    files[f"{OUT}/power.json"] = json.dumps(budgets, indent=1) + "\n"
    wiring = controller_wiring.table(ctl_nl, pm)
    files[f"{OUT}/wiring.md"] = "# Controller wiring\n\n" + wiring
    from . import pcbs
    files[DOC] = _fill_doc(os.path.join(root, DOC), {"wiring": wiring, "power": power_md,
                                                      "pcb": pcbs.summary_md(nets, boards),
                                                      "bom": _bom_md(files[f"{OUT}/bom.csv"],
                                                                     games),
                                                      "sources": _sources_md(),
                                                      "erc": f"`{OUT}/erc.txt`: **{total_e} "
                                                             f"errors, {total_w} warnings**\n"})
    return files, total_e


def _fill_doc(path, sections):
    with open(path) as f:
        text = f.read()
    for name, body in sections.items():
        pat = re.compile(rf"(<!-- generated:{name} -->\n).*?(<!-- /generated:{name} -->)", re.S)
        if not pat.search(text):
            raise SystemExit(f"{path}: no <!-- generated:{name} --> section")
        text = pat.sub(lambda m: m.group(1) + body + m.group(2), text)
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m hardware.build",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="write under this directory instead of the repository")
    ap.add_argument("--no-pcb", action="store_true", help="leave the PCBs (hardware/pcb/) alone")
    ap.add_argument("--gerbers", action="store_true",
                    help="also write Gerbers, drill file and upload zip of every PCB "
                         "(hardware/pcb/gerbers/)")
    args = ap.parse_args(argv)
    root = args.out or pinmap.ROOT
    files, errors = generate()
    written = write(root, files)
    if root == pinmap.ROOT and any(rel.endswith(".net") for rel in written):
        # the registration marks (overlays, frame) come from the PCBs' placement of the
        # committed netlists: new netlists move them, so draw those again
        registration.forget()
        solids.made.cache_clear()
        solids.frame_tiles.cache_clear()
        files, errors = generate()
        written += write(root, files)
    changed = len(set(written))
    solids.build(os.path.join(root, OUT, "print"))     # the STLs (not committed: binary)
    print(f"hardware: {len(files)} files, {changed} written, ERC and design checks: "
          f"{errors} errors")
    if errors:
        return 1
    if not args.no_pcb:
        from . import pcbs
        from .kicad import run
        from .power import rails
        try:
            made = pcbs.build_all(root)
            for name in [n for n, *_ in pcbs.boards(root)] if args.gerbers else ():
                z = pcbs.gerbers(os.path.join(root, pcbs.PCB_DIR, f"{name}.kicad_pcb"),
                                os.path.join(root, pcbs.GERBER_DIR))
                print(f"hardware: gerbers {name}: {os.path.relpath(z, root)}")
        except run.PcbError as e:
            print(f"hardware: PCB: {e}")
            return 1
        print(f"hardware: PCBs: {len(made)} routed again ({', '.join(made) or 'all up to date'})")
        games = sorted({rails.board_game(n) for n in made if n.startswith("cellboard")})
        if (games or "controller" in made) and root == pinmap.ROOT:
            # the rails of a board routed again are measured again, and the power section shows them
            rails.update(games, controller="controller" in made)
            write(root, generate()[0])
            print("hardware: rails measured again: "
                  f"{', '.join(games + [n for n in made if n == 'controller'])} "
                  "(hardware/pcb/rails.json)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
