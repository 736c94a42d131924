// An emulated Knockboard: rp2040js runs the boot ROM and a UF2 (MicroPython plus the
// firmware's filesystem), and this file models the parts soldered around the chip, wired
// as firmware/pinmap.json says: two 74HC595 row drivers, the key matrix and control
// buttons, the WS2812 chain, an SSD1306 on I2C and the PWM buzzer.
//
//   node board.mjs --uf2 FILE --rom FILE --pinmap FILE --rows R --cols C --cells N
//                  [--hold CONTROL]... [--free-run] [--max-ms MS] [--cpu-mhz MHZ]
//                  [--clock-us US] [--trace]
//
// stdin and stdout carry JSON lines. In: {"op":"cdc","hex":..} (bytes from the USB host),
// {"op":"key","cell":i,"down":b}, {"op":"control","index":i,"down":b}, {"op":"oled"},
// {"op":"keys","at":[[us,cell,down],..]} (key changes scheduled in emulated time),
// {"op":"glitch","cell":i,"reads":n}, {"op":"rowtiming"}, {"op":"supply","usb":b,"jack":b},
// {"op":"stats"}, {"op":"fault","what":"led-sm"|"oled-bus"}, {"op":"fault","what":"swap-cols","a":i,"b":j},
// {"op":"fault","what":"dead-led","cell":i}.
// Out: {"ev":"cdc","hex":..}, {"ev":"usb"} (enumerated), {"ev":"leds",..}
// (one decoded WS2812 frame), {"ev":"key",..} (a key changed), {"ev":"glitch",..},
// {"ev":"rowtiming",..}, {"ev":"supply",..}, {"ev":"tone",..}, {"ev":"oled",..}, {"ev":"reset",..},
// {"ev":"stats",..}, {"ev":"fault",..}, {"ev":"error",..}, with --trace {"ev":"mark","id":..}
// (a write to WATCHDOG SCRATCH0). Times are emulated nanoseconds since power-up.
import fs from 'fs';
import readline from 'readline';
import { Simulator, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';

const SYS_HZ = 125e6;      // the clock MicroPython sets; PIO and PWM dividers count it
const PIO_TICK_NS = 1e9 / SYS_HZ;
const FLASH_BASE = 0x10000000;
const PWM_BASE = 0x40050000;

// WS2812B datasheet (Worldsemi, rev. 1.0): T0H 0.4 us, T1H 0.8 us, T0L 0.85 us, T1L 0.45 us,
// each +-150 ns; a low of 280 us (the V5 part's reset, longer than rev. 1.0's 50 us) ends a
// frame. Widths are measured on the emulated clock, which the PIO follows (stepMachines).
const WS = { t0h: [250, 550], t1h: [650, 950], t0l: [700, 1000], t1l: [300, 600], reset: 280000 };
const within = (w, [lo, hi]) => w >= lo - 0.5 && w <= hi + 0.5;

function parseArgs(argv) {
  const a = { hold: [] };
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i].replace(/^--/, '');
    if (k === 'free-run') { a.freeRun = true; i -= 1; continue; }
    if (k === 'trace') { a.trace = true; i -= 1; continue; }
    if (k === 'hold') a.hold.push(argv[i + 1]);
    else a[k] = argv[i + 1];
  }
  return a;
}

const args = parseArgs(process.argv.slice(2));
const pinmap = JSON.parse(fs.readFileSync(args.pinmap, 'utf8'));
const ROWS = +args.rows, COLS = +args.cols, CELLS = +args.cells;
const maxNs = args['max-ms'] ? +args['max-ms'] * 1e6 : Infinity;
// rp2040js executes some 20-30 million instructions a second, a quarter of the chip's pace.
// Where a host's real-time timeouts must hold (--cpu-mhz below 125), each instruction is
// given that much more emulated time: the CPU runs slower, everything else (timer, PIO,
// PWM, USB) keeps the chip's timing. Benchmarks run at 125.
const CYCLE_NS = 1000 / (args['cpu-mhz'] ? +args['cpu-mhz'] : 125);

function send(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }

function loadUf2(path, flash) {
  const data = fs.readFileSync(path);
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const b = data.subarray(off, off + 512);
    if (b.readUInt32LE(0) !== 0x0a324655 || b.readUInt32LE(4) !== 0x9e5d5157 ||
        b.readUInt32LE(508) !== 0x0ab16f30) throw new Error(`bad UF2 block at ${off}`);
    const addr = b.readUInt32LE(12), size = b.readUInt32LE(16);
    flash.set(b.subarray(32, 32 + size), addr - FLASH_BASE);
  }
}

const rom = new Uint32Array(new Uint8Array(fs.readFileSync(args.rom)).buffer);
const flashImage = new Uint8Array(16 * 1024 * 1024).fill(0xff);
loadUf2(args.uf2, flashImage);

// What the user does with the board, kept across watchdog resets like the real world.
const held = new Set();            // cells held down
const controlsHeld = new Set();    // control indices (0 OK, 1 BACK, 2 MENU)
const controlNames = ['ok', 'back', 'menu'];
for (const name of args.hold) controlsHeld.add(controlNames.indexOf(name));

// Faults injected by a test. "led-sm": the LED state machine stops (its PIO block is no
// longer clocked), so the DMA feeding it never finishes; a chip reset clears it. Nothing
// outside a real chip can do that: it stands for any hardware wait the firmware could be
// stuck in. "oled-bus": the SSD1306 stops answering with the bus held (a START it never
// completes, like a device holding SCL low); it is not reset with the chip.
// A badly built cell board (a board test's case): "swap-cols", two column lines crossed
// between the keys and the Pico; "dead-led", the LED of one cell neither lights nor passes
// the data on (dead, or its DIN joint open), so it and every LED after it in the chain
// stay dark: the frames reported are what the LEDs show, not what the pin sent.
const faults = { ledSm: false, oledBus: false, swapCols: null, deadLed: null };

let mcu, sim, cdc, clock;
let hostQueue = [];                // bytes from the host not yet taken by the CDC
let boots = 0;
let elapsedBefore = 0;             // emulated ns of earlier boots

function now() { return elapsedBefore + clock.nanos; }

// ---- 74HC595 x2 (rows) and the key matrix ----
const m = pinmap.matrix;
const shift = { sr: 0xffff, out: 0xffff, chain: m.rows.max };
function refreshColumns() {
  // A held key joins its row (driven low through the diode) to its column.
  let low = 0;
  for (const cell of held) {
    const r = Math.floor(cell / COLS), wired = cell % COLS, sw = faults.swapCols;
    const c = sw && wired === sw[0] ? sw[1] : sw && wired === sw[1] ? sw[0] : wired;
    if (r < ROWS && !((shift.out >> r) & 1)) low |= 1 << c;
  }
  for (const g of glitches) if (g.showing) low |= 1 << (g.cell % COLS);
  for (let c = 0; c < m.cols.count; c++) mcu.gpio[m.cols.first + c].setInputValue(!((low >> c) & 1));
  const ctl = pinmap.controls;
  controlNames.forEach((n, i) => mcu.gpio[ctl[n]].setInputValue(!controlsHeld.has(i)));
}
// The row walk's edges as the 74HC595 sees them, in CPU cycles (the emulator counts each
// instruction's; at 125 MHz a cycle is 8 ns): the shortest clock high and low, latch high,
// data set-up before a clock rise and clock rise before a latch rise since the last query;
// and the walks (scans): how many, the sum and the longest of the gaps between them, in ns.
const edges = { clk: [0, 0], lat: [0, 0], data: 0, clkRise: 0, walk: 0 };
let rowTiming = null;
function resetRowTiming() {
  rowTiming = { clockHigh: Infinity, clockLow: Infinity, latchHigh: Infinity, setup: Infinity,
    clockToLatch: Infinity, clocks: 0, latches: 0, walks: 0, walkGapSum: 0, walkGapMax: 0 };
}
resetRowTiming();
function cyclesSince(t) { return Math.round((now() - t) / CYCLE_NS); }
function wireMatrix() {
  const d = mcu.gpio[m.rows.data], clk = mcu.gpio[m.rows.clock], lat = mcu.gpio[m.rows.latch];
  const mask = (1 << shift.chain) - 1;
  const least = (k, v) => { if (v < rowTiming[k]) rowTiming[k] = v; };
  d.addListener((state, old) => {
    if (state === old) return;
    // a walk begins by clocking a low bit in: the interval between walks is the scan's
    if (!state) {
      if (edges.walk) { const gap = now() - edges.walk; rowTiming.walkGapSum += gap; rowTiming.walks += 1;
        if (gap > rowTiming.walkGapMax) rowTiming.walkGapMax = gap; }
      edges.walk = now();
    }
    edges.data = now();
  });
  clk.addListener((state, old) => {
    if (state === old) return;
    if (state === 1) {
      shift.sr = ((shift.sr << 1) | (d.outputValue ? 1 : 0)) & mask;
      if (edges.clk[0]) least('clockLow', cyclesSince(edges.clk[0]));
      least('setup', cyclesSince(edges.data));
      rowTiming.clocks += 1;
      edges.clkRise = now();
    } else if (edges.clkRise) least('clockHigh', cyclesSince(edges.clkRise));
    edges.clk[state] = now();
  });
  lat.addListener((state, old) => {
    if (state === old) return;
    if (state === 1) {
      shift.out = shift.sr;
      glitchesSeen();
      refreshColumns();
      if (edges.clkRise) least('clockToLatch', cyclesSince(edges.clkRise));
      rowTiming.latches += 1;
      edges.lat[1] = now();
    } else if (edges.lat[1]) least('latchHigh', cyclesSince(edges.lat[1]));
  });
  refreshColumns();
}

// ---- the supply the firmware senses (firmware/supply.py): VBUS on GP24, the jack on GP15 ----
const power = { usb: true, jack: false };
function wireSupply() {
  const s = pinmap.supply || {};
  if (s.vbus_sense !== undefined) mcu.gpio[s.vbus_sense].setInputValue(power.usb);
  if (s.jack_sense !== undefined) mcu.gpio[s.jack_sense].setInputValue(power.jack);
}

// Interference on a column: a glitch makes a cell read closed at the next `reads` times
// its row is selected (one latch each), and at no other time: the shortest disturbance a
// scan can see. {"ev":"glitch"} reports each one once a scan has been shown it.
let glitches = [];
function glitchesSeen() {
  for (const g of glitches) {
    if (g.reads > 0 && !((shift.out >> Math.floor(g.cell / COLS)) & 1)) {
      g.reads -= 1; g.showing = true;
      if (!g.reads) send({ ev: 'glitch', t: now(), cell: g.cell });
    } else g.showing = false;
  }
  glitches = glitches.filter((g) => g.reads > 0 || g.showing);
}

// Key changes scheduled in emulated time ({"op":"keys","at":[[us, cell, down], ...]}, us
// after the op arrives): a contact's bounce train, made at the chip's own pace.
let scheduled = [];
function setKey(cell, down) {
  if (down) held.add(cell); else held.delete(cell);
  refreshColumns();
  send({ ev: 'key', t: now(), cell, down });
}
function runSchedule() {
  if (!scheduled.length || scheduled[0].t > now()) return;
  while (scheduled.length && scheduled[0].t <= now()) {
    const { cell, down } = scheduled.shift();
    setKey(cell, down);
  }
}

// ---- WS2812 chain, decoded from the data pin's waveform ----
const led = { level: false, since: 0, bits: [], errors: [], frames: 0 };
function ledEdge(high) {
  const t = pioNow, width = t - led.since;
  if (high === led.level) return;
  if (led.level) {                        // a high pulse ended: one bit
    if (within(width, WS.t0h)) led.bits.push(0);
    else if (within(width, WS.t1h)) led.bits.push(1);
    else led.errors.push(`bit ${led.bits.length}: high for ${width.toFixed(0)} ns`);
  } else if (led.bits.length) {           // the low after a bit, ended by the next bit
    const last = led.bits[led.bits.length - 1];
    if (!within(width, last ? WS.t1l : WS.t0l))
      led.errors.push(`bit ${led.bits.length - 1} (${last}): low for ${width.toFixed(0)} ns`);
  }
  led.level = high; led.since = t;
}
function ledCheckReset() {
  if (!led.level && led.bits.length && now() - led.since >= WS.reset) {
    const bits = led.bits, colours = [];
    for (let i = 0; i + 24 <= bits.length; i += 24) {
      let v = 0;
      for (let j = 0; j < 24; j++) v = v * 2 + bits[i + j];
      colours.push([(v >> 8) & 255, (v >> 16) & 255, v & 255]);  // GRB on the wire
    }
    if (bits.length % 24) led.errors.push(`${bits.length % 24} bits left over`);
    if (faults.deadLed !== null) colours.fill([0, 0, 0], faults.deadLed);
    led.frames += 1;
    send({ ev: 'leds', t: now(), rgb: colours, errors: led.errors, start: led.start, end: led.since });
    led.bits = []; led.errors = [];
  }
}
function wireLeds() {
  const pin = mcu.gpio[pinmap.leds.data];
  pin.addListener((state) => {
    if (!led.bits.length && state === 1 && !led.level) led.start = pioNow;
    ledEdge(state === 1);
  });
}

// ---- SSD1306 on I2C ----
const oled = { ram: new Uint8Array(1024), col: 0, page: 0, c0: 0, c1: 127, p0: 0, p1: 7,
  on: false, writes: 0, addr: pinmap.oled.address };
const ARGS = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8d: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1,
  0xd9: 1, 0xda: 1, 0xdb: 1 };
function wireOled() {
  const bus = mcu.i2c[pinmap.oled.bus];
  let mine = false, first = true, data = false, cmd = [];
  bus.onStart = () => { if (!faults.oledBus) bus.completeStart(); };
  bus.onConnect = (address) => { mine = address === oled.addr; first = true; cmd = [];
    bus.completeConnect(mine); };
  bus.onWriteByte = (v) => {
    if (first) { data = (v & 0x40) !== 0; first = false; }
    else if (data) {
      oled.ram[oled.page * 128 + oled.col] = v; oled.writes += 1;
      if (++oled.col > oled.c1) { oled.col = oled.c0; if (++oled.page > oled.p1) oled.page = oled.p0; }
    } else {
      cmd.push(v);
      const need = ARGS[cmd[0]] ?? 0;
      if (cmd.length > need) {
        const [c, a, b] = cmd;
        if (c === 0x21) { oled.c0 = a; oled.c1 = b; oled.col = a; }
        else if (c === 0x22) { oled.p0 = a; oled.p1 = b; oled.page = a; }
        else if (c === 0xaf) oled.on = true;
        else if (c === 0xae) oled.on = false;
        cmd = [];
      }
    }
    bus.completeWrite(true);
  };
  bus.onReadByte = () => bus.completeRead(0xff);
  bus.onStop = () => bus.completeStop();
}

// ---- buzzer: the PWM slice and channel of its pin, sampled every emulated millisecond ----
let tone = { freq: 0, duty: 0 };
function sampleBuzzer() {
  const pin = pinmap.buzzer.pin, slice = (pin >> 1) & 7, chB = pin & 1;
  const base = PWM_BASE + slice * 0x14;
  const csr = mcu.readUint32(base), div = mcu.readUint32(base + 4);
  const cc = mcu.readUint32(base + 12), top = mcu.readUint32(base + 16) & 0xffff;
  const level = chB ? cc >>> 16 : cc & 0xffff;
  const divider = ((div >> 4) & 0xff) + (div & 15) / 16 || 256;
  const on = (csr & 1) && mcu.gpio[pin].functionSelect === 4 && level > 0;
  const freq = on ? Math.round(SYS_HZ / divider / ((top + 1) * (csr & 2 ? 2 : 1))) : 0;
  const duty = on ? Math.min(1, level / (top + 1)) : 0;
  if (freq !== tone.freq || Math.abs(duty - tone.duty) > 1e-3) {
    tone = { freq, duty };
    send({ ev: 'tone', t: now(), freq, duty: +duty.toFixed(3) });
  }
}

// ---- the PIO, stepped in lock step with the CPU at each state machine's clock divider ----
// rp2040js runs PIO blocks from their own timer, unrelated to the emulated clock; here they
// are stepped from the CPU loop instead so that pin timing is the chip's.
const pioAcc = [0, 0];
let pioNow = 0;  // emulated time of the PIO step being run
// Only enabled machines step (RPPIO.step also runs disabled ones); one divider per block,
// the first enabled machine's, is enough for the firmware (one state machine). rp2040js
// counts an instruction's delay cycles ([n]) in sm.cycles but runs the next instruction on
// the next step anyway; here the machine sits those cycles out, as the chip does.
function stepMachines(pio, machines) {
  for (const sm of machines) {
    if (sm.kbDelay > 0) { sm.kbDelay -= 1; continue; }
    const before = sm.cycles;
    sm.step();
    sm.kbDelay = Math.max(0, sm.cycles - before - 1);
  }
  pio.checkChangedPins();
}
function pioDivider(pio) {
  for (const sm of pio.machines) if (sm.enabled)
    return ((sm.clockDivInt || 65536) + sm.clockDivFrac / 256) * PIO_TICK_NS;
  return 0;
}

function boot() {
  sim = new Simulator();
  mcu = sim.rp2040;
  clock = sim.clock;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(rom);
  mcu.flash.set(flashImage);
  for (const pio of mcu.pio) pio.run = function () { this.stopped = false; };
  const watchdog = mcu.peripherals[0x40058];
  // The chip resets here; rp2040js would re-arm the watchdog's alarm at a delta of zero
  // and spin in clock.tick for ever, so the alarm is stopped before the reboot.
  watchdog.onWatchdogTrigger = () => { pendingReset = watchdog.reason; watchdog.alarm.enable = false; };
  wireMatrix(); wireLeds(); wireOled(); wireSupply();
  // --trace: a write to the watchdog's SCRATCH0 (a register nothing else here uses) is a
  // mark, reported with its emulated time: a firmware copy that writes step numbers there
  // shows where its time goes (docs/firmware.md)
  const writeWatchdog = watchdog.writeUint32Atomic.bind(watchdog);
  watchdog.writeUint32Atomic = (offset, value, atomic) => {
    if (offset === 0x0c && args.trace) send({ ev: 'mark', t: now(), id: value });
    writeWatchdog(offset, value, atomic);
  };
  cdc = new USBCDC(mcu.usbCtrl);
  pendingRead = null;
  cdc.onDeviceConnected = () => send({ ev: 'usb', t: now(), boot: boots });
  cdc.onSerialData = (bytes) => send({ ev: 'cdc', t: now(), hex: Buffer.from(bytes).toString('hex') });
  // rp2040js's CDC answers every OUT buffer the device arms at once, with zero bytes when
  // the host has nothing to send: an interrupt storm that takes most of the CPU. A real
  // host sends an OUT packet only when it has data, so the read waits for some here.
  const answerRead = cdc.usb.onEndpointRead;
  cdc.usb.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint && cdc.txFIFO.itemCount === 0) pendingRead = { endpoint, size };
    else answerRead(endpoint, size);
  };
  cdc.answerPendingRead = () => {
    if (pendingRead && cdc.txFIFO.itemCount) {
      const { endpoint, size } = pendingRead;
      pendingRead = null;
      answerRead(endpoint, size);
    }
  };
  faults.ledSm = false;
  mcu.core.PC = FLASH_BASE;  // the boot ROM's flash boot path ends here (boot2 at offset 0)
  boots += 1;
}

let pendingReset = 0;
let pendingRead = null;  // the device's armed OUT buffer, waiting for host data
boot();

function feedHost() {
  // The CDC accepts what its endpoint buffer holds; the rest waits like in a USB host.
  let n = 0;
  while (cdc.initialized && n < hostQueue.length && !cdc.txFIFO.full) cdc.sendSerialByte(hostQueue[n++]);
  if (n) { hostQueue = hostQueue.slice(n); if (args.trace) send({ ev: 'host-bytes', t: now(), n }); }
  cdc.answerPendingRead();
}

const wallStart = process.hrtime.bigint();
// Emulated time run before the host's input is looked at again. --clock-us N: a host whose
// clock is the emulated one (benchmarks at 125 MHz, slower than real time) gets a
// {"ev":"clock"} every N emulated us and its bytes within N us.
const CLOCK_NS = args['clock-us'] ? +args['clock-us'] * 1000 : 0;
const TURN_NS = CLOCK_NS || 20e6;
const CHUNK_NS = 10000;  // housekeeping (LED reset gaps, buzzer, USB) every 10 emulated us
let lastSample = 0;
let lastClock = -Infinity;
const counters = { idleCycles: 0 };
function run() {
  const wallNs = Number(process.hrtime.bigint() - wallStart);
  // In real time the emulated clock never runs ahead of the wall clock (the host's timeouts
  // are real seconds); --free-run lets it go as fast as it can (benchmarks, watchdog).
  const until = Math.min(args.freeRun ? Infinity : wallNs, now() + TURN_NS, maxNs);
  const core = mcu.core;
  while (now() < until && !pendingReset) {
    const chunkEnd = Math.min(clock.nanos + CHUNK_NS, until - elapsedBefore);
    const pio0 = mcu.pio[0], div0 = pioDivider(pio0), pio1 = mcu.pio[1], div1 = pioDivider(pio1);
    const sm0 = pio0.machines.filter((sm) => sm.enabled), sm1 = pio1.machines.filter((sm) => sm.enabled);
    while (clock.nanos < chunkEnd && !pendingReset) {
      let cycles;
      if (core.waiting) {
        const jump = Math.min(clock.nanosToNextAlarm, (div0 || div1) ? 100 : 1e6, chunkEnd - clock.nanos);
        cycles = Math.max(1, Math.round(jump / CYCLE_NS));
        counters.idleCycles += cycles;
      } else {
        cycles = core.executeInstruction();
      }
      clock.tick(cycles * CYCLE_NS);
      if (scheduled.length) runSchedule();
      // each PIO step is stamped with its own time within the instruction just run
      if (div0 && !faults.ledSm) { pioAcc[0] += cycles * CYCLE_NS; while (pioAcc[0] >= div0) { pioAcc[0] -= div0; pioNow = now() - pioAcc[0]; stepMachines(pio0, sm0); } }
      if (div1) { pioAcc[1] += cycles * CYCLE_NS; while (pioAcc[1] >= div1) { pioAcc[1] -= div1; pioNow = now() - pioAcc[1]; stepMachines(pio1, sm1); } }
    }
    ledCheckReset();
    if (now() - lastSample >= 1e6) { lastSample = now(); sampleBuzzer(); }
    feedHost();
  }
  if (pendingReset) {
    send({ ev: 'reset', t: now(), reason: pendingReset & 1 ? 'watchdog' : 'forced' });
    elapsedBefore = now(); pendingReset = 0; lastSample = 0;
    boot();
  }
  // every CLOCK_NS of emulated time, not every turn: a real-time run that has caught up
  // with the wall clock turns without moving
  if (CLOCK_NS && now() - lastClock >= CLOCK_NS) { lastClock = now(); send({ ev: 'clock', t: now() }); }
  if (now() >= maxNs) { send({ ev: 'end', t: now(), idleCycles: counters.idleCycles, wallMs: Number(process.hrtime.bigint() - wallStart) / 1e6 }); process.exit(0); }
  setImmediate(run);
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.op === 'cdc') hostQueue.push(...Buffer.from(msg.hex, 'hex'));
  else if (msg.op === 'key') setKey(msg.cell, msg.down);
  else if (msg.op === 'keys') {
    const t0 = now();
    for (const [us, cell, down] of msg.at) scheduled.push({ t: t0 + us * 1000, cell, down });
    scheduled.sort((a, b) => a.t - b.t);
  } else if (msg.op === 'glitch') glitches.push({ cell: msg.cell, reads: msg.reads ?? 1, showing: false });
  else if (msg.op === 'rowtiming') { send({ ev: 'rowtiming', t: now(), cycleNs: CYCLE_NS, ...rowTiming }); resetRowTiming(); }
  else if (msg.op === 'control') { if (msg.down) controlsHeld.add(msg.index); else controlsHeld.delete(msg.index); refreshColumns(); }
  else if (msg.op === 'oled') send({ ev: 'oled', t: now(), on: oled.on, writes: oled.writes, ram: Buffer.from(oled.ram).toString('hex') });
  else if (msg.op === 'fault' && msg.what === 'led-sm') { faults.ledSm = true; send({ ev: 'fault', t: now(), what: msg.what }); }
  else if (msg.op === 'fault' && msg.what === 'oled-bus') { faults.oledBus = true; send({ ev: 'fault', t: now(), what: msg.what }); }
  else if (msg.op === 'supply') { power.usb = msg.usb; power.jack = msg.jack; wireSupply(); send({ ev: 'supply', t: now(), ...power }); }
  else if (msg.op === 'fault' && msg.what === 'dead-led') { faults.deadLed = msg.cell; send({ ev: 'fault', t: now(), what: msg.what }); }
  else if (msg.op === 'fault' && msg.what === 'swap-cols') { faults.swapCols = [msg.a, msg.b]; refreshColumns(); send({ ev: 'fault', t: now(), what: msg.what }); }
  else if (msg.op === 'stats') send({ ev: 'stats', t: now(), boots, ledFrames: led.frames });
  else send({ ev: 'error', message: `unknown op ${msg.op}` });
});
rl.on('close', () => process.exit(0));
run();
