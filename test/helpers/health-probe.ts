// Asks GET <url>/health again and again, one at a time and 10 ms apart, from a process of its own (so that what the
// test process does meanwhile — reading a 25 MB answer — does not delay the probes). After five probes that warm it
// up it prints `ready`; when a line comes on stdin it prints the time of every answer since, in milliseconds, as one
// JSON array, and exits.
const url = process.argv[2]!;
const latencies: number[] = [];
let running = true;
process.stdin.setEncoding('utf8').once('data', () => (running = false));

for (let probes = 0; running; probes++) {
  const started = performance.now();
  const response = await fetch(`${url}/health`);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`/health answered ${response.status}`);
  if (probes >= 5) latencies.push(performance.now() - started);
  if (probes === 5) process.stdout.write('ready\n');
  await new Promise((resolve) => setTimeout(resolve, 10));
}
process.stdout.write(JSON.stringify(latencies) + '\n');
process.stdin.destroy();
