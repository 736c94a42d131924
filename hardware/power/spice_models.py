"""SPICE models (ngspice) of the controller's power parts, one per catalogue key, with the
datasheet figure each number comes from. Behavioural where the part is a chip: only what the
power path needs (thresholds, hysteresis, delays, gate drive, current limit), nothing more.

`st(x, th)` below is a smooth step (0 below th, 1 above, over a few millivolts): ngspice
converges on it where an `if` would stop the time step."""

# --- discrete parts --------------------------------------------------------------------------

MODELS = """
* smooth step: 0 below th, 1 above (10 mV wide)
.func st(x, th) {0.5 * (1 + tanh((x - th) / 0.005))}
* a comparator's step: 0.2 mV wide, so a hysteresis fed back through it trips within a
* millivolt of its threshold (with st's 5 mV its own gain trips it some 8 mV early)
.func cmp(x, th) {0.5 * (1 + tanh((x - th) / 0.0002))}
* smooth max and min (rounded over about 10 mV): a corner stops the time step
.func smax(a, b) {0.5 * (a + b + sqrt((a - b) * (a - b) + 1e-4))}
.func smin(a, b) {0.5 * (a + b - sqrt((a - b) * (a - b) + 1e-4))}
* x held within 0..1, rounded over about 1e-4
.func clamp01(x) {0.5 * (0.5 * (x + sqrt(x * x + 1e-8)) + 1
+ - sqrt((0.5 * (x + sqrt(x * x + 1e-8)) - 1) * (0.5 * (x + sqrt(x * x + 1e-8)) - 1) + 1e-8))}

* onsemi MBR120VLSFT1G: VF 0.34 V at 1 A (the catalogue's figure; fitted 0.37 V at 1 A,
* 0.32 V at 0.5 A with its series resistance), reverse 20 V
.model D_MBR120VLSF d (is=5e-5 n=1.2 rs=0.07 bv=20 ibv=1e-3 cjo=100p)
* 1N4148W: the classic 1N4148 SPICE parameters (VF 0.62 V at 1 mA, 1.0 V at 50 mA)
.model D_1N4148 d (is=2.52e-9 n=1.752 rs=0.568 bv=75 ibv=1e-6 cjo=4p)

* AO4800 (AOS): 30 V N-channel, VGS(th) about 1 V, RDS(on) 32 mohm at VGS 4.5 V, body diode
* VSD about 0.75 V at 1 A (its gate capacitance, about 1 nF, added by
* hardware/power/simulation.py). Level 1: kp*(W/L) = 1 / (0.032 ohm * (4.5 V - 1 V)) = 8.9 A/V2
.model N_AO4800 nmos (level=1 vto=1.0 kp=8.9 lambda=0.01)
.model D_AO4800_BODY d (is=3e-9 n=1.5 rs=0.02 bv=30 ibv=1e-3 cjo=300p)
* 2N7002 (Nexperia): VGS(th) 1.1-2.1 V (the typical 1.6 V here), RDS(on) about 2 ohm at 5 V;
* its input capacitance (some 30 pF) is added beside it by hardware/power/simulation.py
.model N_2N7002 nmos (level=1 vto=1.6 kp=0.15)
.model D_2N7002_BODY d (is=1e-12 n=1.3 rs=1 bv=60 ibv=1e-6)
"""

# --- LTC4365 ---------------------------------------------------------------------------------
# Analog Devices LTC4365 datasheet, Rev. B:
#  - operating range VIN 2.5 V to 34 V (page 1, Features);
#  - UV and OV comparators at 0.5 V with 25 mV hysteresis: UV trips falling through 0.5 V and
#    clears above 0.525 V, OV trips rising through 0.5 V and clears below 0.475 V (page 10,
#    Figure 4; page 11, Figures 5 and 6);
#  - on a UV or OV fault a 50 mA sink discharges GATE (page 11, Figures 5 and 6); after the
#    faults clear, the MOSFETs turn on again only after a recovery delay (t_RECOVERY, page 11;
#    taken as 36 ms: confirm against the Electrical Characteristics);
#  - gate drive: GATE above VOUT by the charge pump's drive, taken as 4.5 V at VIN = 5 V (page
#    10, Figure 3, which shows it at its maximum while VOUT is low; confirm the figure);
#  - a negative VIN: an internal switch connects GATE to VIN at once, so both MOSFETs stay off
#    (page 12, Reverse VIN Protection, Figure 7).
# Assumed, not in the datasheet's text: unpowered (VIN below 2.5 V, not negative) GATE is held
# low only weakly (1 Mohm here); SHDN's threshold is taken as 0.75 V.
LTC4365 = """
.subckt LTC4365 vin uv ov gnd shdn gate vout
Bpwr pwr gnd v = st(v(vin,gnd), 2.5) * st(v(shdn,gnd), 0.75)
* UV good: above 0.525 V to clear, below 0.5 V to trip (state held on cuv)
Buv uvs gnd v = cmp(v(uv,gnd), 0.525 - 0.025 * v(uvok,gnd))
Ruv uvs uvok 1k
Cuv uvok gnd 1n
* OV good: below 0.5 V to stay good, back below 0.475 V to clear
Bov ovs gnd v = 1 - cmp(v(ov,gnd), 0.475 + 0.025 * v(ovok,gnd))
Rov ovs ovok 1k
Cov ovok gnd 1n
Bok ok gnd v = v(pwr,gnd) * v(uvok,gnd) * v(ovok,gnd)
* recovery timer: 1 V after 36 ms of good input, reset at once by a fault
Btmr gnd tmr i = v(ok,gnd) * (1 / 36m) * (1 - st(v(tmr,gnd), 1.1))
+ - st(0.5 - v(ok,gnd), 0) * 1e4 * v(tmr,gnd)
Ctmr tmr gnd 1
Bon on gnd v = v(ok,gnd) * st(v(tmr,gnd), 1.0)
* reverse input: the gates go to the negative VIN
Brev rev gnd v = st(-v(vin,gnd), 0.7)
* charge pump: towards max(VIN, VOUT) + 4.5 V through 100 kohm
Bup gnd gate i = v(on,gnd) * (smax(v(vin,gnd), v(vout,gnd)) + 4.5 - v(gate,gnd)) / 100k
* off while powered (a fault) or reversed: a 50 mA sink towards min(VIN, 0). Gated by a
* sharp step of the state: a sink leaking in proportion to (1 - on) would pull against the
* charge pump's 100 kohm long before a fault
Bdn gate gnd i = st(0.5 - v(on,gnd), 0) * smax(v(pwr,gnd), v(rev,gnd)) * 0.05
+ * tanh((v(gate,gnd) - smin(v(vin,gnd), 0)) / 0.5)
* unpowered: held low only weakly
Bweak gate gnd i = (1 - v(on,gnd)) * v(gate,gnd) / 1meg
.ends LTC4365
"""

# --- TPS2553 ---------------------------------------------------------------------------------
# Texas Instruments TPS2552/TPS2553 datasheet (SLVS841E):
#  - rDS(on) 85 mohm typical (Electrical Characteristics, power switch);
#  - EN turn-on/turn-off threshold 0.66-1.1 V with 55 mV hysteresis, UVLO on IN 2.35 V rising
#    with 35 mV hysteresis (Electrical Characteristics; the figures read here from the
#    TPS255x family's tables, TPS2556/TPS2560, which share them: confirm in SLVS841E):
#    0.9 V rising, 0.845 V falling here;
#  - current limit from RILIM: IOS = 23850 / RILIM(kohm)^0.977 mA (Programming the
#    Current-Limit Threshold; Table 1 lists 501.6 mA typical for 52.3 kohm, 396.7 mA for
#    66.5 kohm; tests/test_powersim.py checks the equation against those rows). The model holds
#    ILIM at a fixed voltage and reads the current the resistor draws, so the limit follows the
#    resistor the netlist has on ILIM;
#  - a constant current at the limit (not a trip) and a controlled output rise (soft start,
#    rise time about 1 ms here);
#  - reverse-voltage comparator: the switch is off while OUT is above IN (Overview), and it
#    never conducts backwards.
TPS2553 = """
.subckt TPS2553 in gnd en ilim out
Vilim ilimref gnd 0.8
Vsense ilimref ilim 0
Bena enas gnd v = cmp(v(en,gnd), 0.9 - 0.055 * v(enok,gnd))
+ * cmp(v(in,gnd), 2.35 - 0.035 * v(enok,gnd))
Rena enas enok 1k
Cena enok gnd 1n
* soft start: the switch's drive ramps over about 1 ms
Bss gnd ss i = v(enok,gnd) * (1 / 1m) * (1 - st(v(ss,gnd), 1.0))
+ - st(0.5 - v(enok,gnd), 0) * 1e4 * v(ss,gnd)
Css ss gnd 1
* Vout: the switch's output current, for the tests
Vout outi out 0
Bsw in outi i = clamp01(v(ss,gnd)) * {ILIM_A} * tanh(smax(v(in,out), 0) / (0.085 * {ILIM_A}))
.param ILIM_A = 1
.ends TPS2553
"""
# ILIM_A is replaced by the expression of the limit from the current out of ILIM.
TPS2553 = TPS2553.replace("{ILIM_A}",
                          "(23.85 / pow(max(0.8 / max(i(vsense), 1e-9) / 1000, 1), 0.977))") \
                 .replace(".param ILIM_A = 1\n", "")

# --- Raspberry Pi Pico (its power pins) ------------------------------------------------------
# Raspberry Pi Pico datasheet, Powering Pico: VBUS reaches VSYS through a Schottky diode on
# the module (modelled as the MBR120VLSF, like D1); the buck-boost runs from VSYS 1.8-5.5 V.
# The load is the budget's Pico and OLED maxima (hardware/inputs/power_budget.py), taken from VSYS.
PICO = """
.subckt PICO vbus vsys gnd
Dvbus vbus vsys D_MBR120VLSF
Cvsys vsys gnd 10u
Bload vsys gnd i = {I_PICO} * st(v(vsys,gnd), 1.8)
.ends PICO
"""


def models(i_pico_a):
    """The models and subcircuits, with the Pico's load in A."""
    return MODELS + LTC4365 + TPS2553 + PICO.replace("{I_PICO}", f"{i_pico_a:g}")
