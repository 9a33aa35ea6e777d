// A process that applies SPARQL Updates to an embedded store's data directory without end, printing `ack N` after
// each acknowledged update N, for the crash test (it is killed with SIGKILL mid-way). Update N, one request, moves a
// counter from N-1 to N and adds the quads of crash batch N, so a replay that lost, reordered or split one shows.
// Usage: node update-child.js DIR QUADS_PER_UPDATE COMPACT_LOG_BYTES
import { EmbeddedStore } from '../../src/store/embedded-store.js';
import { crashBatch, crashBatchGraph } from '../helpers/crash-batch.js';

const [dir, perUpdate = '300', compactLogBytes = String(512 * 1024 * 1024)] = process.argv.slice(2);
if (!dir) throw new Error('usage: update-child.js DIR QUADS_PER_UPDATE COMPACT_LOG_BYTES');

const counter = 'urn:mcp-ld:session/counter';
const store = await EmbeddedStore.open({ dataDir: dir, compactLogBytes: Number(compactLogBytes) });
process.stdout.write('ready\n');
for (let n = 0; ; n++) {
  const triples = crashBatch(n, Number(perUpdate)).replaceAll(` <${crashBatchGraph(n)}> .\n`, ' .\n');
  await store.update(
    `DELETE DATA { GRAPH <${counter}> { <urn:x:counter> <urn:x:value> ${n - 1} } } ;\n` +
      `INSERT DATA { GRAPH <${counter}> { <urn:x:counter> <urn:x:value> ${n} } GRAPH <${crashBatchGraph(n)}> {\n${triples}} }`,
  );
  process.stdout.write(`ack ${n}\n`);
}
