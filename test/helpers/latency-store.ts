// An embedded store holding one mld:latencyMs fact per latency given (xsd:decimal), for the tests of the columns that
// mcp-ld computes after a query's answer (@percentiles, @quotient).
import { EmbeddedStore } from '../../src/store/embedded-store.js';

export async function storeOfLatencies(latencies: readonly number[]): Promise<EmbeddedStore> {
  const store = await EmbeddedStore.open({});
  await store.ingest(
    latencies
      .map(
        (ms, i) =>
          `<urn:x:r${i}> <https://w3id.org/mcp-ld/ns#latencyMs> "${ms}"^^<http://www.w3.org/2001/XMLSchema#decimal> <urn:mcp-ld:session/s> .\n`,
      )
      .join(''),
  );
  return store;
}
