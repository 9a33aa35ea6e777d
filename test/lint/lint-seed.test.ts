import assert from 'node:assert/strict';
import { findDefects, type Finding } from '../../src/lint/index.js';
import { loadSeedDocuments } from '../../src/schema/index.js';

describe('lint on the seed schema', () => {
  const findings = findDefects(loadSeedDocuments());
  const at = (rule: string, pointer: string, document = 'mcp'): Finding | undefined =>
    findings.find((finding) => finding.rule === rule && finding.pointer === pointer && finding.document === document);

  it('finds List*Result.tools/resources/prompts sharing the capabilities IRI, at every occurrence', () => {
    for (const [result, key] of [
      ['ListToolsResult', 'tools'],
      ['ListResourcesResult', 'resources'],
      ['ListPromptsResult', 'prompts'],
    ]) {
      const list = at('iri-shape-conflict', `/definitions/${result}/properties/${key}`);
      const capability = at('iri-shape-conflict', `/definitions/ServerCapabilities/properties/${key}`);
      assert.ok(list && capability, `${result}.${key} and ServerCapabilities.${key}`);
      assert.equal(list.severity, 'error');
      assert.match(list.message, new RegExp(`mcp:has${key[0]!.toUpperCase()}${key.slice(1)}Capability`));
      assert.match(list.message, /array of object/);
      assert.match(capability.message, /JSON object/);
    }
  });

  it('finds the other IRIs used for differently shaped values: hasData, hasArguments, isRequired, hasContent, containsRoot', () => {
    for (const pointer of [
      '/definitions/LoggingMessageNotification/properties/params/properties/data',
      '/definitions/AudioContent/properties/data',
      '/definitions/Prompt/properties/arguments',
      '/definitions/CallToolRequest/properties/params/properties/arguments',
      '/definitions/PromptArgument/properties/required',
      '/definitions/Tool/properties/inputSchema/properties/required',
      '/definitions/CallToolResult/properties/content',
      '/definitions/SamplingMessage/properties/content',
      '/definitions/ClientCapabilities/properties/roots',
      '/definitions/ListRootsResult/properties/roots',
    ]) {
      assert.ok(at('iri-shape-conflict', pointer), pointer);
    }
  });

  it('finds log data (any JSON) typed xsd:base64Binary', () => {
    const defect = at('datatype-mismatch', '/definitions/LoggingMessageNotification/properties/params/properties/data');
    assert.equal(defect?.severity, 'error');
    assert.match(defect.message, /any JSON value.*xsd:base64Binary/);
  });

  it('finds the progress total (a number) typed xsd:integer', () => {
    const defect = at('datatype-mismatch', '/definitions/ProgressNotification/properties/params/properties/total');
    assert.match(defect?.message ?? '', /JSON number.*xsd:integer/);
  });

  it('finds the required string arrays of the tool schemas and the elicitation schema typed xsd:boolean', () => {
    for (const pointer of [
      '/definitions/Tool/properties/inputSchema/properties/required',
      '/definitions/Tool/properties/outputSchema/properties/required',
      '/definitions/ElicitRequest/properties/params/properties/requestedSchema/properties/required',
    ]) {
      assert.match(at('datatype-mismatch', pointer)?.message ?? '', /array of string.*xsd:boolean/, pointer);
    }
    assert.equal(findings.filter((finding) => finding.rule === 'datatype-mismatch').length, 5);
  });

  it('finds the undeclared jrpc prefix and the urn:mcp:params datatype at every params', () => {
    const prefix = at('undeclared-prefix', '/definitions/CallToolRequest/properties/params');
    assert.match(prefix?.message ?? '', /jrpc:hasParameters \(prefix jrpc\)/);
    const params = at('object-typed-as-datatype', '/definitions/CallToolRequest/properties/params');
    assert.match(params?.message ?? '', /urn:mcp:params/);
    for (const rule of ['undeclared-prefix', 'object-typed-as-datatype']) {
      const found = findings.filter((finding) => finding.rule === rule);
      assert.equal(found.length, 28, rule);
      assert.ok(
        found.every((finding) => finding.pointer.endsWith('/properties/params')),
        rule,
      );
    }
  });

  it('finds the rootsX-duplicate-tofix extra term unusable', () => {
    assert.equal(at('unusable-extra-term', '/x-jsonld-extra-terms/rootsX-duplicate-tofix')?.severity, 'error');
    const usable = findings.filter((finding) => finding.rule === 'unusable-extra-term' && finding.document === 'mcp');
    assert.deepEqual(
      usable.map((finding) => finding.pointer),
      ['/x-jsonld-extra-terms/rootsX-duplicate-tofix'],
    );
    // The JSON-RPC schema's value terms name no key but still describe request-id values: warnings, kept.
    const values = findings.filter(
      (finding) => finding.rule === 'unusable-extra-term' && finding.document === 'json-rpc',
    );
    assert.deepEqual(values.map((finding) => [finding.pointer, finding.severity]).sort(), [
      ['/x-jsonld-extra-terms/numberValue', 'warning'],
      ['/x-jsonld-extra-terms/stringValue', 'warning'],
    ]);
  });

  it('finds @id on scalars (the JSON-RPC id, a warning) and on objects without annotated members (elicited content, an error)', () => {
    assert.equal(at('id-on-literal', '/$defs/IDObject/allOf/1/properties/id', 'json-rpc')?.severity, 'warning');
    assert.equal(at('id-on-literal', '/definitions/ElicitResult/properties/content')?.severity, 'error');
  });

  it('finds single content blocks and the roots capability annotated as lists, and the capability typed mcp:Root', () => {
    for (const name of ['SamplingMessage', 'PromptMessage', 'CreateMessageResult', 'ElicitResult']) {
      assert.ok(at('list-on-non-array', `/definitions/${name}/properties/content`), name);
    }
    assert.ok(at('list-on-non-array', '/definitions/ClientCapabilities/properties/roots'));
    assert.match(
      at('class-mismatch', '/definitions/ClientCapabilities/properties/roots')?.message ?? '',
      /mcp:Root.*inline object \(listChanged\)/,
    );
  });

  it('finds keys that need context-dependent terms once each, with their places', () => {
    const data = findings.filter(
      (finding) => finding.rule === 'context-dependent-term' && /key "data"/.test(finding.message),
    );
    assert.equal(data.length, 1);
    assert.equal(data[0]!.severity, 'warning');
    for (const place of ['AudioContent.data', 'LoggingMessageNotification.params.data', 'json-rpc#ErrorObject.data'])
      assert.ok(data[0]!.message.includes(place), place);
    assert.ok(
      findings.some((finding) => finding.rule === 'context-dependent-term' && /key "params"/.test(finding.message)),
    );
  });

  it('finds annotations below @json: the capabilities, and definitions only reachable through @json lists', () => {
    assert.match(
      at('annotation-under-json', '/definitions/ServerCapabilities/properties/tools')?.message ?? '',
      /listChanged/,
    );
    assert.ok(at('annotation-under-json', '/definitions/Tool'));
    assert.ok(at('annotation-under-json', '/definitions/Tool/properties/inputSchema'));
  });

  it('reports each defect once per rule and place', () => {
    const keys = findings.map((finding) => `${finding.rule} ${finding.document} ${finding.pointer}`);
    assert.equal(new Set(keys).size, keys.length);
  });
});
