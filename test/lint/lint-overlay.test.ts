import assert from 'node:assert/strict';
import { findDefects, lintSchema } from '../../src/lint/index.js';
import { loadSchema } from '../../src/schema/index.js';

describe('lint with the overlay', () => {
  const index = loadSchema();
  const defects = lintSchema(index);
  const whys = new Set(index.overlay.corrections.map((correction) => correction.why));

  it('leaves no error uncorrected', () => {
    const uncorrected = defects.filter((defect) => defect.severity === 'error' && !defect.corrected);
    assert.deepEqual(
      uncorrected.map((defect) => `${defect.rule} ${defect.pointer}`),
      [],
    );
  });

  it('reports every seed error as corrected, with the why of the overlay corrections that fix it', () => {
    const seedErrors = findDefects(index.seed).filter((finding) => finding.severity === 'error');
    assert.ok(seedErrors.length > 0);
    for (const error of seedErrors) {
      const defect = defects.find(
        (d) => d.rule === error.rule && d.document === error.document && d.pointer === error.pointer,
      );
      assert.ok(defect?.corrected, `${error.rule} ${error.pointer}`);
      assert.ok(defect.correction, `${error.rule} ${error.pointer} has a correction text`);
      for (const why of defect.correction.split(' + '))
        assert.ok(whys.has(why), `${error.rule} ${error.pointer}: ${why}`);
    }
  });

  it('attributes each correction to the entry that fixes it, not to any entry near it', () => {
    const prefix = defects.find(
      (d) => d.rule === 'undeclared-prefix' && d.pointer === '/definitions/CallToolRequest/properties/params',
    );
    assert.deepEqual(prefix?.correctionAt, ['/x-jsonld-prefixes']);
    const params = defects.find(
      (d) => d.rule === 'object-typed-as-datatype' && d.pointer === '/definitions/CallToolRequest/properties/params',
    );
    assert.deepEqual(params?.correctionAt, ['/definitions/*/properties/params']);
    const capability = defects.find(
      (d) => d.rule === 'iri-shape-conflict' && d.pointer === '/definitions/ServerCapabilities/properties/tools',
    );
    assert.deepEqual(capability?.correctionAt, ['/definitions/ListToolsResult/properties/tools']);
    const term = defects.find(
      (d) => d.rule === 'unusable-extra-term' && d.pointer === '/x-jsonld-extra-terms/rootsX-duplicate-tofix',
    );
    assert.match(term?.correction ?? '', /rootsX-duplicate-tofix/);
  });

  it('makes the entity lists ordered lists of nodes under IRIs distinct from the capabilities', () => {
    const definitions = index.documents.mcp['definitions'] as Record<string, any>;
    for (const [result, key] of [
      ['ListToolsResult', 'tools'],
      ['ListResourcesResult', 'resources'],
      ['ListPromptsResult', 'prompts'],
    ]) {
      const list = definitions[result!].properties[key!];
      const capability = definitions['ServerCapabilities'].properties[key!];
      assert.equal(list['x-jsonld-type'], '@id');
      assert.equal(list['x-jsonld-container'], '@list');
      assert.equal(capability['x-jsonld-type'], '@id');
      assert.notEqual(list['x-jsonld-id'], capability['x-jsonld-id']);
    }
  });

  it('lints the raw seed when there is no overlay: nothing is corrected', () => {
    const raw = lintSchema(loadSchema({ overlay: false }));
    assert.ok(raw.some((defect) => defect.severity === 'error'));
    assert.ok(raw.every((defect) => !defect.corrected));
  });
});
