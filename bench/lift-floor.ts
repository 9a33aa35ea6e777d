// The floor under any `mcp-ld convert` of a workload: a process that only reads the JSONL, parses every line and
// writes the same N-Quads the converter wrote (read back from a file, in 1 MiB chunks), lifting nothing. The CLI
// process can never be faster than this, so bench/lift prints it beside the budget: when the floor alone takes more
// than a tenth of the baseline loop, no converter writing this much RDF meets a 10x whole-process budget.
// Usage: node dist/bench/lift-floor.js WORKLOAD.jsonl OUTPUT.nq > /dev/null
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

const [workloadFile, nquadsFile] = process.argv.slice(2);
if (!workloadFile || !nquadsFile) throw new Error('usage: lift-floor.js WORKLOAD.jsonl OUTPUT.nq');

const bytes = readFileSync(workloadFile);
let parsed = 0;
for (let start = 0; start < bytes.length;) {
  let end = bytes.indexOf(10, start);
  if (end < 0) end = bytes.length;
  if (end > start) {
    JSON.parse(bytes.toString('utf8', start, end));
    parsed++;
  }
  start = end + 1;
}

const chunk = Buffer.allocUnsafe(1 << 20);
const input = openSync(nquadsFile, 'r');
for (let read = readSync(input, chunk); read > 0; read = readSync(input, chunk)) {
  for (let written = 0; written < read;) written += writeSync(1, chunk, written, read - written);
}
closeSync(input);
process.stderr.write(`${parsed} lines parsed\n`);
