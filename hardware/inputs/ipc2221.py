"""IPC-2221's current for a copper track (the standard's chart as its formula): I = k * dT^0.44 *
A^0.725, I in A, dT the temperature rise in C, A the cross-section in mil^2, k = 0.048 for an outer
layer. Both ways: the current a width carries, the width a current needs. Pure arithmetic, so the
router (hardware/placement/plan.py) and the rail model (hardware/power/rails.py) read the same
figures."""

import math

K_EXTERNAL = 0.048          # outer layer (IPC-2221, 6.2)
RISE_C = 10                 # the temperature rise a track may have at the worst current
# 1 oz copper: hardware/inputs/fab_rules.py's board house, standard 2-layer
COPPER_UM = 35
MIL = 0.0254                # mm
WIDTH_STEP = 0.05           # mm: a width the router draws is a multiple of this


def amps(width_mm, rise_c=RISE_C, copper_um=COPPER_UM):
    """The current an outer-layer track of this width carries at this temperature rise."""
    area_mil2 = (width_mm / MIL) * (copper_um / 1000 / MIL)
    return K_EXTERNAL * rise_c ** 0.44 * area_mil2 ** 0.725


def width_mm(current_a, rise_c=RISE_C, copper_um=COPPER_UM, step=WIDTH_STEP):
    """The narrowest outer-layer track, in whole `step`s, that carries `current_a` at this rise."""
    area_mil2 = (current_a / (K_EXTERNAL * rise_c ** 0.44)) ** (1 / 0.725)
    exact = area_mil2 / (copper_um / 1000 / MIL) * MIL
    return round(math.ceil(exact / step - 1e-9) * step, 4)
