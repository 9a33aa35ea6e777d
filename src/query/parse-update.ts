// Parses a SPARQL 1.1 Update with sparqljs and refuses, before a store sees it, what mcp-ld never applies: LOAD,
// SERVICE
// at any depth, graphs not named with GRAPH (default graph, WITH, USING, DEFAULT/NAMED/ALL), functions that differ from
// run to run (the embedded store replays its journal), and malformed text (line and column). Pure: no store, no I/O.
import { Parser, type LoadOperation, type Quads, type SparqlQuery, type Update, type UpdateOperation } from 'sparqljs';
import { McpLdError } from '../core/problem.js';
import {
  findInTree,
  locate,
  malformed,
  maskText,
  named,
  refuseService,
  updateOperationNames,
  type ParseOptions,
  type ParserErrorHash,
} from './parse-query.js';
import { prefixPrologue, queryPrefixes } from './prefixes.js';
import { checkSparqlLimits, defaultSparqlLimits, tooComplex } from './sparql-limits.js';
import type { ErrorCode } from '../core/errors.js';

export interface ParsedUpdate {
  /** The sparqljs syntax tree (predeclared prefixes already expanded). */
  tree: Update;
  /** The text a store applies: the prologue of predeclared prefixes, then the update. */
  text: string;
}

/** Parses and checks one update; throws McpLdError (400) for malformed text, a query, every refusal above and a
 * text past its limits (sparql-limits.ts: 413 too large, 400 too deep or too complex). */
export function parseUpdate(text: string, options: ParseOptions = {}): ParsedUpdate {
  checkSparqlLimits(text, options.limits ?? defaultSparqlLimits, options, 'update');
  try {
    return parseWithinLimits(text, options);
  } catch (error) {
    if (error instanceof RangeError) throw tooComplex(options, 'update');
    throw error;
  }
}

function parseWithinLimits(text: string, options: ParseOptions): ParsedUpdate {
  let tree: SparqlQuery;
  try {
    tree = new Parser({ prefixes: { ...queryPrefixes } }).parse(text);
  } catch (error) {
    throw malformed(text, error as Error & { hash?: ParserErrorHash }, options, 'update');
  }
  if (tree.type !== 'update' && !tree.queryType)
    throw refused(
      'update.malformed',
      `${named(options)}no update: expected INSERT, DELETE, CLEAR, DROP, CREATE, ADD, MOVE or COPY`,
    );
  if (tree.type !== 'update') {
    throw refused(
      'update.not-an-update',
      `${named(options)}a ${tree.queryType} query is not an update: send queries as query= or application/sparql-query`,
    );
  }
  if (tree.updates.length === 0) throw refused('update.malformed', `${named(options)}the update holds no operation`);
  const load = tree.updates.find((op): op is LoadOperation => 'type' in op && op.type === 'load');
  if (load) {
    throw refused(
      'update.load-refused',
      `${named(options)}LOAD <${load.source.value}>${at(text, /\bLOAD\b/i)}: mcp-ld fetches nothing from the network; send traffic to POST /ingest`,
      text,
      /\bLOAD\b/i,
    );
  }
  refuseService(tree, text, options, 'update');
  tree.updates.forEach((op, index) =>
    checkGraphs(op, tree.updates.length > 1 ? ` (operation ${index + 1})` : '', text, options),
  );
  refuseVolatile(tree, text, options);
  refuseOrderDependent(tree, text, options);
  return { tree, text: prefixPrologue + text };
}

// ---- refusals ------------------------------------------------------------------------------------------------

function refused(code: ErrorCode, detail: string, text?: string, keyword?: RegExp): McpLdError {
  const position = text !== undefined && keyword ? locate(text, maskText(text).search(keyword)) : undefined;
  return McpLdError.of(code, { detail, ...(position ? { line: position.line } : {}) });
}

/** ` at line L, column C` of the first `keyword` outside comments, strings and IRIs, or nothing. */
function at(text: string, keyword: RegExp): string {
  const position = locate(text, maskText(text).search(keyword));
  return position ? ` at line ${position.line}, column ${position.column}` : '';
}

/**
 * Every graph an update reads or writes is named with GRAPH (an IRI, or a variable that ranges over the session
 * graphs): the store keeps quads only in session graphs, and the default graph of a query is their union, which an
 * update cannot write and Oxigraph's updates do not read. So triples outside GRAPH, WITH, USING, and the DEFAULT,
 * NAMED and ALL targets of the graph operations are refused, each with what to write instead.
 */
function checkGraphs(op: UpdateOperation, which: string, text: string, options: ParseOptions): void {
  const graphRule = (subject: string, advice: string, keyword?: RegExp) =>
    refused(
      'update.graph-not-named',
      `${named(options)}${subject}${keyword ? at(text, keyword) : ''}: ${advice}${graphRuleReason}`,
      text,
      keyword,
    );
  if ('updateType' in op) {
    const name = `${updateOperationNames[op.updateType]}${which}`;
    if (op.updateType === 'insertdelete') {
      if (op.graph)
        throw graphRule(
          `${name}: WITH <${op.graph.value}>`,
          `write GRAPH <${op.graph.value}> { … } around its patterns instead`,
          /\bWITH\b/i,
        );
      if (op.using)
        throw graphRule(`${name}: USING`, 'name the graphs of the WHERE clause with GRAPH instead', /\bUSING\b/i);
      if (outsideGraph(op.where))
        throw graphRule(
          name,
          'the WHERE clause matches triples outside GRAPH, in the default graph; match them in GRAPH ?g { … } (any session) or GRAPH <…> { … } (one)',
        );
    }
    const outside = (templates: Quads[]) => templates.some((quads) => quads.type === 'bgp' && quads.triples.length > 0);
    if ('insert' in op && outside(op.insert))
      throw graphRule(name, 'triples outside GRAPH would go into the default graph; put them in GRAPH <…> { … }');
    if ('delete' in op && outside(op.delete))
      throw graphRule(
        name,
        'triples outside GRAPH are looked for in the default graph, which holds none; name their graph: GRAPH ?g { … } (any session) or GRAPH <…> { … } (one)',
      );
    return;
  }
  const targets = op.type === 'load' ? [] : 'graph' in op ? [op.graph] : [op.source, op.destination];
  for (const target of targets) {
    if (target.name) continue;
    const what = 'all' in target && target.all ? 'ALL' : 'named' in target && target.named ? 'NAMED' : 'DEFAULT';
    const advice =
      'graph' in op
        ? `name the graph: ${op.type.toUpperCase()} GRAPH <…> (to remove a session: DROP GRAPH <its graph>, or DELETE /sessions/{id})`
        : `name both graphs: ${op.type.toUpperCase()} <…> TO <…>`;
    throw graphRule(`${op.type.toUpperCase()} ${what}${which}`, advice, new RegExp(`\\b${op.type}\\b`, 'i'));
  }
}

const graphRuleReason =
  '. An update names each graph it reads or writes with GRAPH: the store keeps quads only in session graphs (a query reads their union), so the default graph, WITH, USING and DEFAULT, NAMED or ALL are refused';

/** Whether patterns match triples outside any GRAPH, at any depth (OPTIONAL, UNION, MINUS, sub-queries, EXISTS). */
function outsideGraph(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(outsideGraph);
  if (typeof node !== 'object' || node === null) return false;
  const record = node as Record<string, unknown>;
  if ('termType' in record || record['type'] === 'graph') return false;
  if (record['type'] === 'bgp') return (record['triples'] as unknown[]).length > 0;
  return Object.values(record).some(outsideGraph);
}

const volatileFunctions = new Set(['now', 'rand', 'uuid', 'struuid']);

/**
 * NOW(), RAND(), UUID() and STRUUID() give other values each time: the embedded store, which replays its journal after
 * a restart, would then hold other quads than it acknowledged. (Blank nodes come back with other labels, which
 * changes nothing an RDF graph means.)
 */
function refuseVolatile(tree: Update, text: string, options: ParseOptions): void {
  const name = findVolatile(tree.updates);
  if (!name) return;
  const keyword = new RegExp(`\\b${name}\\s*\\(`, 'i');
  throw refused(
    'update.volatile-function',
    `${named(options)}${name.toUpperCase()}()${at(text, keyword)}: its value would differ when the store replays the update after a restart; compute the value first and write it into the update as a literal`,
    text,
    keyword,
  );
}

/**
 * What a sub-select with LIMIT or OFFSET picks, and what SAMPLE and GROUP_CONCAT give, depend on the order the engine
 * meets the solutions in, which is not the same after a restart (the store reloads its quads in another order): an
 * update using them would replay to other quads than it acknowledged.
 */
function refuseOrderDependent(tree: Update, text: string, options: ParseOptions): void {
  const found = findInTree(tree.updates, (record) => {
    if (record['type'] === 'query' && (record['limit'] !== undefined || record['offset'] !== undefined))
      return record['limit'] !== undefined ? 'LIMIT' : 'OFFSET';
    const aggregation =
      record['type'] === 'aggregate' && typeof record['aggregation'] === 'string'
        ? record['aggregation'].toUpperCase()
        : undefined;
    return aggregation === 'SAMPLE' || aggregation === 'GROUP_CONCAT' ? aggregation : undefined;
  });
  if (!found) return;
  const keyword = new RegExp(`\\b${found}\\b`, 'i');
  throw refused(
    'update.order-dependent',
    `${named(options)}${found}${at(text, keyword)}: what it picks depends on the order the store meets the solutions in, which differs when the store replays the update after a restart; select the values first and write them into the update`,
    text,
    keyword,
  );
}

function findVolatile(node: unknown): string | undefined {
  return findInTree(node, (record) => {
    const operator = typeof record['operator'] === 'string' ? record['operator'].toLowerCase() : undefined;
    return record['type'] === 'operation' && operator && volatileFunctions.has(operator) ? operator : undefined;
  });
}
