// The serializations of a lifted session are the same graph as its N-Quads: read back by an independent processor
// (jsonld.js toRDF for JSON-LD), every quad is there and nothing else.
import assert from 'node:assert/strict';
import jsonld from 'jsonld';
import { Parser } from 'n3';
import { isomorphic } from 'rdf-isomorphic';
import { loadSchema } from '../../src/schema/index.js';
import { Lifter } from '../../src/lift/lifter.js';
import { writeJsonLd, writeNQuads } from '../../src/rdf/serialize.js';
import { captureRecords, captures } from '../helpers/corpus.js';

const schema = loadSchema();
const noRemote = async (url: string): Promise<never> => {
  throw new Error(`remote document ${url}`);
};

describe('rdf: serializations are the graph they serialize', () => {
  for (const { file } of captures) {
    it(`JSON-LD of ${file}, read back by jsonld.js, is isomorphic to its N-Quads (IRI-named list cells stay IRIs)`, async () => {
      const lifter = new Lifter(schema);
      const quads = captureRecords(file).flatMap((record) => lifter.lift(record).quads);
      for (const form of ['compacted', 'expanded'] as const) {
        const document = JSON.parse(await writeJsonLd(quads, form)) as object;
        const back = new Parser({ format: 'N-Quads' }).parse(
          (await jsonld.toRDF(document as never, {
            format: 'application/n-quads',
            documentLoader: noRemote as never,
          })) as unknown as string,
        );
        const original = new Parser({ format: 'N-Quads' }).parse(writeNQuads(quads));
        assert.equal(back.length, original.length, `${form}: as many quads`);
        assert.ok(isomorphic(back, original), `${form}: the same graph`);
        assert.ok(
          !back.some((q) => q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode'),
          `${form}: no blank node appears`,
        );
      }
    });
  }
});
