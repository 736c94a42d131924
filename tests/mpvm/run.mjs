// Runs Python code in MicroPython's WebAssembly port under Node.js.
// usage: node run.mjs MANIFEST.json
// MANIFEST: {"files": {"/vm/path.py": "/host/path.py", ...}, "code": "..." or ["...", ...],
//            "heapsize": N}
// Prints what the code prints; exit status 1 if the code raised.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const manifest = JSON.parse(readFileSync(process.argv[2], "utf8"));
// resolve the package from the repository root (where package.json is), wherever cwd is
const require = createRequire(manifest.root + "/package.json");
const entry = require.resolve("@micropython/micropython-webassembly-pyscript/micropython.mjs");
const { loadMicroPython } = await import(pathToFileURL(entry).href);

const mp = await loadMicroPython({
  heapsize: manifest.heapsize || 1024 * 1024,
  linebuffer: true,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
const made = new Set();
for (const [dst, src] of Object.entries(manifest.files)) {
  const dir = dst.slice(0, dst.lastIndexOf("/"));
  if (dir && !made.has(dir)) {
    let path = "";
    for (const part of dir.split("/").filter(Boolean)) {
      path += "/" + part;
      try { mp.FS.mkdir(path); } catch (e) { /* exists */ }
    }
    made.add(dir);
  }
  mp.FS.writeFile(dst, readFileSync(src));
}
// `code` may be a list of chunks run one after another in the same VM: this port's
// gc.collect() reclaims nothing while Python code is running (the WebAssembly stack cannot
// be scanned), only between runPython calls, so heap figures are taken in a chunk of their own.
const chunks = Array.isArray(manifest.code) ? manifest.code : [manifest.code];
try {
  for (const chunk of chunks) mp.runPython(chunk);
} catch (e) {
  process.stdout.write(String(e) + "\n");
  process.exit(1);
}
