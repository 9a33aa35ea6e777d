import assert from 'node:assert/strict';
import { findDefects, lintSchema, type Finding } from '../../src/lint/index.js';
import { createSchemaIndex } from '../../src/schema/index.js';
import type { JsonObject } from '../../src/core/json.js';
import { annotated, ex, syntheticSeed, xsd } from '../helpers/synthetic-schema.js';

/** The findings of one rule on synthetic documents. */
function find(rule: string, definitions: JsonObject, options: Parameters<typeof syntheticSeed>[1] = {}): Finding[] {
  return findDefects(syntheticSeed(definitions, options)).filter((finding) => finding.rule === rule);
}

function pointers(findings: Finding[]): string[] {
  return findings.map((finding) => finding.pointer).sort();
}

/** A clean object definition: a string name and a list of tags, correctly annotated. */
const widget: JsonObject = {
  type: 'object',
  properties: {
    name: annotated({ type: 'string' }, 'hasName', `${xsd}string`),
    tags: annotated({ type: 'array', items: { type: 'string' } }, 'hasTag', `${xsd}string`, '@list'),
  },
};

describe('lint rules on synthetic schemas', () => {
  it('finds nothing in a correctly annotated schema', () => {
    const definitions: JsonObject = {
      Widget: widget,
      Shop: {
        type: 'object',
        properties: {
          widgets: annotated({ type: 'array', items: { $ref: '#/definitions/Widget' } }, 'hasWidget', '@id', '@list'),
          owner: annotated({ $ref: '#/definitions/Widget' }, 'hasOwner', '@id'),
          price: annotated({ type: 'number' }, 'hasPrice', `${xsd}decimal`),
          open: annotated({ type: 'boolean' }, 'isOpen', `${xsd}boolean`),
          extra: annotated({ type: 'object', additionalProperties: {} }, 'hasExtra', '@json'),
          home: annotated({ type: 'string', format: 'uri' }, 'hasHome', '@id'),
        },
      },
    };
    assert.deepEqual(
      findDefects(
        syntheticSeed(definitions, {
          extraTerms: { Widget: { 'x-jsonld-id': `${ex}Widget`, 'x-jsonld-type': '@id' } },
        }),
      ),
      [],
    );
  });

  it('datatype-mismatch: a number typed xsd:integer, a string array typed xsd:boolean, any JSON typed base64, a boolean typed xsd:string', () => {
    const found = find('datatype-mismatch', {
      Thing: {
        type: 'object',
        properties: {
          count: annotated({ type: 'number' }, 'hasCount', `${xsd}integer`),
          whole: annotated({ type: 'integer' }, 'hasWhole', `${xsd}integer`),
          flags: annotated({ type: 'array', items: { type: 'string' } }, 'hasFlag', `${xsd}boolean`, '@list'),
          blob: annotated({ description: 'anything' }, 'hasBlob', `${xsd}base64Binary`),
          on: annotated({ type: 'boolean' }, 'isOn', `${xsd}string`),
          cursor: annotated({ type: 'string' }, 'hasCursor', `${ex}Cursor`),
        },
      },
    });
    assert.deepEqual(pointers(found), [
      '/definitions/Thing/properties/blob',
      '/definitions/Thing/properties/count',
      '/definitions/Thing/properties/flags',
      '/definitions/Thing/properties/on',
    ]);
    assert.ok(found.every((finding) => finding.severity === 'error'));
    const count = found.find((finding) => finding.pointer.endsWith('/count'))!;
    assert.match(count.message, /JSON number/);
    assert.match(count.message, /xsd:integer/);
    assert.match(found.find((finding) => finding.pointer.endsWith('/flags'))!.message, /array of string.*xsd:boolean/);
    assert.match(
      found.find((finding) => finding.pointer.endsWith('/blob'))!.message,
      /any JSON value.*xsd:base64Binary/,
    );
  });

  it('id-on-literal: a scalar typed @id is a warning, an object without annotated members typed @id an error', () => {
    const found = find('id-on-literal', {
      Thing: {
        type: 'object',
        properties: {
          ref: annotated({ type: ['string', 'integer'] }, 'hasRef', '@id'),
          bag: annotated({ type: 'object', additionalProperties: { type: 'string' } }, 'hasBag', '@id'),
          link: annotated({ type: 'string', format: 'uri' }, 'hasLink', '@id'),
        },
      },
    });
    assert.deepEqual(found.map((finding) => [finding.pointer, finding.severity]).sort(), [
      ['/definitions/Thing/properties/bag', 'error'],
      ['/definitions/Thing/properties/ref', 'warning'],
    ]);
  });

  it('object-typed-as-datatype: an object typed with an IRI that is no class, @id or @json', () => {
    const found = find('object-typed-as-datatype', {
      Widget: widget,
      Thing: {
        type: 'object',
        properties: {
          params: annotated(
            { type: 'object', properties: { name: annotated({ type: 'string' }, 'hasName', `${xsd}string`) } },
            'hasParams',
            'urn:x:params',
          ),
        },
      },
    });
    assert.deepEqual(pointers(found), ['/definitions/Thing/properties/params']);
    assert.match(found[0]!.message, /urn:x:params/);
  });

  it('class-mismatch and class-typed-node: an inline object typed with the class of another definition', () => {
    const definitions: JsonObject = {
      Widget: widget,
      Thing: {
        type: 'object',
        properties: {
          capability: annotated(
            { type: 'object', properties: { on: annotated({ type: 'boolean' }, 'isOn', `${xsd}boolean`) } },
            'hasCapability',
            `${ex}Widget`,
          ),
          widget: annotated({ $ref: '#/definitions/Widget' }, 'hasWidget', `${ex}Widget`),
        },
      },
    };
    assert.deepEqual(pointers(find('class-mismatch', definitions)), ['/definitions/Thing/properties/capability']);
    assert.deepEqual(pointers(find('class-typed-node', definitions)), [
      '/definitions/Thing/properties/capability',
      '/definitions/Thing/properties/widget',
    ]);
    assert.ok(find('class-typed-node', definitions).every((finding) => finding.severity === 'warning'));
  });

  it('list-on-non-array: a @list container on a single object', () => {
    const found = find('list-on-non-array', {
      Widget: widget,
      Thing: {
        type: 'object',
        properties: { one: annotated({ $ref: '#/definitions/Widget' }, 'hasOne', '@id', '@list') },
      },
    });
    assert.deepEqual(pointers(found), ['/definitions/Thing/properties/one']);
  });

  it('iri-shape-conflict: one IRI for an object and an array, reported at every occurrence', () => {
    const found = find('iri-shape-conflict', {
      Widget: widget,
      Caps: {
        type: 'object',
        properties: {
          widgets: annotated(
            { type: 'object', properties: { on: annotated({ type: 'boolean' }, 'isOn', `${xsd}boolean`) } },
            'hasWidgets',
            '@id',
          ),
        },
      },
      List: {
        type: 'object',
        properties: {
          widgets: annotated({ type: 'array', items: { $ref: '#/definitions/Widget' } }, 'hasWidgets', '@id', '@list'),
        },
      },
    });
    assert.deepEqual(pointers(found), ['/definitions/Caps/properties/widgets', '/definitions/List/properties/widgets']);
    assert.match(found[0]!.message, /ex:hasWidgets/);
  });

  it('iri-shape-conflict: a property refined through allOf is not a conflict', () => {
    const jsonRpc: JsonObject = {
      $defs: {
        Message: {
          $anchor: 'Message',
          type: 'object',
          properties: {
            params: { type: ['object', 'array'], 'x-jsonld-id': `${ex}hasParams`, 'x-jsonld-type': '@json' },
          },
        },
      },
      'x-jsonld-prefixes': { ex, xsd },
    };
    const definitions: JsonObject = {
      Call: {
        allOf: [
          { $ref: 'https://ogcincubator.github.io/modelcontextprotocol/build/annotated/json-rpc/schema.yaml#Message' },
        ],
        type: 'object',
        properties: {
          params: annotated(
            { type: 'object', properties: { name: annotated({ type: 'string' }, 'hasName', `${xsd}string`) } },
            'hasParams',
            '@id',
          ),
        },
      },
    };
    assert.deepEqual(find('iri-shape-conflict', definitions, { jsonRpc }), []);
  });

  it('undeclared-prefix: a compact IRI whose prefix the document does not declare', () => {
    const found = find('undeclared-prefix', {
      Thing: {
        type: 'object',
        properties: { a: { type: 'string', 'x-jsonld-id': 'foo:hasA', 'x-jsonld-type': 'xsd:string' } },
      },
    });
    assert.deepEqual(pointers(found), ['/definitions/Thing/properties/a']);
    assert.match(found[0]!.message, /prefix foo/);
  });

  it('unusable-extra-term: an extra term no key or type value can use; class terms and key terms are fine', () => {
    const found = find(
      'unusable-extra-term',
      { Widget: widget },
      {
        extraTerms: {
          'name-duplicate-tofix': { 'x-jsonld-id': `${ex}hasNameAgain`, 'x-jsonld-type': '@json' },
          spareValue: { 'x-jsonld-id': `${ex}hasSpareValue`, 'x-jsonld-type': `${xsd}string` },
          name: { 'x-jsonld-id': `${ex}hasName`, 'x-jsonld-type': `${xsd}string` },
          Widget: `${ex}Widget`,
          Gadget: { 'x-jsonld-id': `${ex}Gadget`, 'x-jsonld-type': '@id' },
        },
      },
    );
    assert.deepEqual(pointers(found), [
      '/x-jsonld-extra-terms/name-duplicate-tofix',
      '/x-jsonld-extra-terms/spareValue',
    ]);
    assert.deepEqual(
      found.map((f) => f.severity),
      ['error', 'warning'],
      'a literal-valued term can still name values',
    );
  });

  it('context-dependent-term: one key with two annotations, reported once with every place', () => {
    const found = find('context-dependent-term', {
      A: { type: 'object', properties: { size: annotated({ type: 'integer' }, 'hasSize', `${xsd}integer`) } },
      B: { type: 'object', properties: { size: annotated({ type: 'string' }, 'hasSizeLabel', `${xsd}string`) } },
      C: { type: 'object', properties: { size: annotated({ type: 'integer' }, 'hasSize', `${xsd}integer`) } },
    });
    assert.equal(found.length, 1);
    assert.equal(found[0]!.severity, 'warning');
    assert.match(found[0]!.message, /"size"/);
    for (const place of ['A.size', 'B.size', 'C.size']) assert.ok(found[0]!.message.includes(place), place);
  });

  it('annotation-under-json: annotations below @json, written there or in a definition used only there', () => {
    const found = find('annotation-under-json', {
      Widget: widget,
      Thing: {
        type: 'object',
        properties: {
          caps: annotated(
            { type: 'object', properties: { on: annotated({ type: 'boolean' }, 'isOn', `${xsd}boolean`) } },
            'hasCaps',
            '@json',
          ),
          widgets: annotated({ type: 'array', items: { $ref: '#/definitions/Widget' } }, 'hasWidget', '@json'),
        },
      },
    });
    assert.deepEqual(pointers(found), ['/definitions/Thing/properties/caps', '/definitions/Widget']);
  });

  it('union-typed-literal, array-without-list, iri-shared-by-keys and unannotated-member', () => {
    const definitions: JsonObject = {
      Thing: {
        type: 'object',
        properties: {
          id: annotated({ type: ['string', 'integer'] }, 'hasKey', `${xsd}string`),
          tags: annotated({ type: 'array', items: { type: 'string' } }, 'hasTag', `${xsd}string`),
          meta: annotated({ type: 'object' }, 'hasMeta', '@json'),
          metadata: annotated({ type: 'object' }, 'hasMeta', '@json'),
          part: annotated(
            {
              type: 'object',
              properties: {
                name: annotated({ type: 'string' }, 'hasName', `${xsd}string`),
                secret: { type: 'string' },
              },
            },
            'hasPart',
            '@id',
          ),
        },
      },
    };
    assert.deepEqual(pointers(find('union-typed-literal', definitions)), ['/definitions/Thing/properties/id']);
    assert.deepEqual(pointers(find('array-without-list', definitions)), ['/definitions/Thing/properties/tags']);
    assert.deepEqual(pointers(find('iri-shared-by-keys', definitions)), ['/definitions/Thing/properties/meta']);
    assert.deepEqual(pointers(find('unannotated-member', definitions)), [
      '/definitions/Thing/properties/part/properties/secret',
    ]);
  });

  it('marks a defect corrected by the overlay with the why of the correction that fixes it', () => {
    const seed = syntheticSeed({
      Thing: { type: 'object', properties: { count: annotated({ type: 'number' }, 'hasCount', `${xsd}integer`) } },
    });
    const why = 'counts may have fractions';
    const index = createSchemaIndex(seed, {
      corrections: [
        { at: '/definitions/Thing/properties/count', in: 'mcp', why, set: { 'x-jsonld-type': `${xsd}decimal` } },
      ],
    });
    const [defect] = lintSchema(index);
    assert.equal(defect?.rule, 'datatype-mismatch');
    assert.equal(defect?.corrected, true);
    assert.equal(defect?.correction, why);
  });

  it('reports a defect the overlay introduces as not corrected', () => {
    const seed = syntheticSeed({
      Thing: { type: 'object', properties: { count: annotated({ type: 'number' }, 'hasCount', `${xsd}decimal`) } },
    });
    const index = createSchemaIndex(seed, {
      corrections: [
        {
          at: '/definitions/Thing/properties/count',
          in: 'mcp',
          why: 'a wrong correction',
          set: { 'x-jsonld-type': `${xsd}boolean` },
        },
      ],
    });
    const defects = lintSchema(index);
    assert.deepEqual(
      defects.map((defect) => [defect.rule, defect.corrected]),
      [['datatype-mismatch', false]],
    );
  });
});
