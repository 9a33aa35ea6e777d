// Parses SPARQL 1.1 with sparqljs and refuses what mcp-ld never runs: updates (INSERT, DELETE, LOAD, CLEAR…),
// SERVICE at any depth (no federation), and malformed text (reported with its line and column). A query reaches a
// store only after it passed here (updates: parse-update.ts, which shares the refusals below). Pure: no store, no I/O.
import { Generator, Parser, type Query, type SparqlQuery, type Update } from 'sparqljs';
import { McpLdError } from '../core/problem.js';
import type { QueryForm } from '../store/quad-store.js';
import { prefixPrologue, queryPrefixes } from './prefixes.js';
import { checkSparqlLimits, defaultSparqlLimits, tooComplex, type SparqlLimits } from './sparql-limits.js';
import { isAbsoluteIri } from '../core/iri.js';

export interface ParsedQuery {
  form: QueryForm;
  /** The sparqljs syntax tree (predeclared prefixes already expanded). */
  tree: Query;
  /** The text a store runs: the prologue of predeclared prefixes, then the query. */
  text: string;
}

export interface ParseOptions {
  /** Names the query in error messages (a file name, a named query). */
  source?: string;
  /** Size and nesting the text may have (default: defaultSparqlLimits). */
  limits?: SparqlLimits;
  /**
   * The base IRI relative IRIs of the query resolve against when it declares no BASE (SPARQL 1.1 §4.1.1.1 and
   * RFC 3986 §5.1: the retrieval URI, for /sparql the endpoint's URL). Without one a relative IRI is malformed.
   */
  base?: string;
}

/**
 * Parses and checks one query; throws McpLdError (400) for malformed text, updates and SERVICE, and for a text past
 * its limits (sparql-limits.ts: 413 too large, 400 too deep or too complex).
 */
export function parseQuery(text: string, options: ParseOptions = {}): ParsedQuery {
  checkSparqlLimits(text, options.limits ?? defaultSparqlLimits, options);
  try {
    return parseWithinLimits(text, options);
  } catch (error) {
    if (error instanceof RangeError) throw tooComplex(options);
    throw error;
  }
}

function parseWithinLimits(text: string, options: ParseOptions): ParsedQuery {
  const base = options.base !== undefined && isAbsoluteIri(options.base) ? options.base : undefined;
  let tree: SparqlQuery;
  try {
    tree = new Parser({ prefixes: { ...queryPrefixes }, ...(base ? { baseIRI: base } : {}) }).parse(text);
  } catch (error) {
    const update = updateKeyword(text);
    if (update) throw updateRefused(update, options);
    throw malformed(text, error as Error & { hash?: ParserErrorHash }, options);
  }
  if (tree.type === 'update') throw updateRefused(updateOperations(tree), options);
  if (tree.type !== 'query' || !tree.queryType) {
    throw McpLdError.of('query.malformed', {
      detail: `${named(options)}no query: expected SELECT, ASK, CONSTRUCT or DESCRIBE`,
    });
  }
  refuseService(tree, text, options);
  return { form: tree.queryType, tree, text: (base ? `BASE <${base}>\n` : '') + prefixPrologue + text };
}

/** The names of the variables a SELECT selects (`*` for SELECT *); none for another form. */
export function selectedVariables(tree: Query): string[] {
  return tree.queryType === 'SELECT' ? tree.variables.map((v) => ('termType' in v ? v.value : v.variable.value)) : [];
}

/** The text of a (modified) syntax tree, as a store runs it: every IRI written in full, no prefix needed. */
export function generateQuery(tree: Query): string {
  return new Generator().stringify({ ...tree, prefixes: {} });
}

// ---- refusals ------------------------------------------------------------------------------------------------

export function named(options: ParseOptions): string {
  return options.source ? `${options.source}: ` : '';
}

function updateRefused(operation: string, options: ParseOptions): McpLdError {
  return McpLdError.of('query.update-refused', {
    detail: `${named(options)}${operation} is a SPARQL update; mcp-ld runs only read-only queries (SELECT, ASK, CONSTRUCT, DESCRIBE) — traffic enters the store by ingestion`,
  });
}

/** The SPARQL names of the update operations sparqljs tells apart by `updateType`. */
export const updateOperationNames: Record<string, string> = {
  insert: 'INSERT DATA',
  delete: 'DELETE DATA',
  deletewhere: 'DELETE WHERE',
  insertdelete: 'INSERT/DELETE … WHERE',
};

function updateOperations(update: Update): string {
  const names = update.updates.map((u) =>
    'updateType' in u ? updateOperationNames[u.updateType]! : u.type.toUpperCase(),
  );
  return [...new Set(names)].join(', ');
}

const updateKeywords = /^(INSERT|DELETE|LOAD|CLEAR|DROP|CREATE|ADD|MOVE|COPY|WITH)\b/i;

/** The update keyword a text starts with after its prologue (for updates the parser could not even read). */
function updateKeyword(text: string): string | undefined {
  let rest = maskText(text);
  const prologue = /^\s*(BASE\s*<[^>]*>|PREFIX\s*[^\s:]*:\s*<[^>]*>)/i;
  for (let m = prologue.exec(rest); m; m = prologue.exec(rest)) rest = rest.slice(m[0].length);
  return updateKeywords.exec(rest.trimStart())?.[1]?.toUpperCase();
}

/** What a text is, in messages: a query or an update. */
export type SparqlKind = 'query' | 'update';

/** Throws `<kind>.service-refused` (400) for the first SERVICE anywhere in the tree, with its position in `text`. */
export function refuseService(
  tree: SparqlQuery,
  text: string | undefined,
  options: ParseOptions,
  kind: SparqlKind = 'query',
): void {
  const service = findService(tree);
  if (!service) return;
  const name = service.name.termType === 'NamedNode' ? `<${service.name.value}>` : `?${service.name.value}`;
  const at = text === undefined ? undefined : locate(text, maskText(text).search(/\bSERVICE\b/i));
  throw McpLdError.of(`${kind}.service-refused`, {
    detail: `${named(options)}SERVICE ${name}${at ? ` at line ${at.line}, column ${at.column}` : ''}: mcp-ld does not run federated queries; ${kind === 'query' ? 'a query' : 'an update'} reads only the store's own graphs`,
    ...(at ? { line: at.line } : {}),
  });
}

interface ServiceNode {
  type: 'service';
  name: { termType: string; value: string };
}

/**
 * The first node of a sparqljs tree (groups, OPTIONAL, UNION, MINUS, GRAPH, sub-queries, EXISTS, expressions) that
 * `match` turns into a value; RDF terms are leaves.
 */
export function findInTree<T>(node: unknown, match: (record: Record<string, unknown>) => T | undefined): T | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findInTree(item, match);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof node !== 'object' || node === null || 'termType' in node) return undefined;
  const record = node as Record<string, unknown>;
  const matched = match(record);
  if (matched !== undefined) return matched;
  for (const value of Object.values(record)) {
    const found = findInTree(value, match);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first SERVICE pattern anywhere in the tree. */
function findService(node: unknown): ServiceNode | undefined {
  return findInTree(node, (record) => (record['type'] === 'service' ? (record as unknown as ServiceNode) : undefined));
}

// ---- malformed text and where -------------------------------------------------------------------------------

export interface ParserErrorHash {
  text?: string;
  token?: string;
  loc?: { first_line: number; first_column: number; last_line: number; last_column: number };
  expected?: string[];
}

interface Position {
  line: number;
  column: number;
}

const tokenNames: Record<string, string> = {
  IRIREF: 'an IRI',
  PNAME_NS: 'a prefixed name',
  PNAME_LN: 'a prefixed name',
  VAR: 'a variable',
  EOF: 'the end of the query',
  INTEGER: 'a number',
  DECIMAL: 'a number',
  DOUBLE: 'a number',
  STRING_LITERAL1: 'a string',
  STRING_LITERAL2: 'a string',
  STRING_LITERAL_LONG1: 'a string',
  STRING_LITERAL_LONG2: 'a string',
  BLANK_NODE_LABEL: 'a blank node',
  ANON: "'[]'",
  NIL: "'()'",
  BOOLEAN: 'true or false',
  INVALID: 'an invalid token',
};

function describeToken(token: string): string {
  const bare = token.replace(/^'|'$/g, '');
  if (tokenNames[bare]) return tokenNames[bare]!;
  if (/^(INTEGER|DECIMAL|DOUBLE)_/.test(bare)) return 'a number';
  if (/^STRING_LITERAL/.test(bare)) return 'a string';
  if (/^FUNC_/.test(bare)) return 'a function';
  return /^[A-Z_]+$/.test(bare) && bare.length > 1 ? bare : `'${bare}'`;
}

/** The parser's error as `<kind>.malformed` (400), with the line and column of the offending token. */
export function malformed(
  text: string,
  error: Error & { hash?: ParserErrorHash },
  options: ParseOptions,
  kind: SparqlKind = 'query',
): McpLdError {
  let at: Position | undefined;
  let what: string;
  const hash = error.hash;
  if (hash && hash.loc) {
    // The parser reports the last token it accepted; the offending one starts at the next non-blank character.
    at = nextToken(text, hash.loc.last_line, hash.loc.last_column);
    const expected = [
      ...new Set(
        (hash.expected ?? []).map((token) =>
          token.replace(/'/g, '') === 'EOF' ? `the end of the ${kind}` : describeToken(token),
        ),
      ),
    ];
    const got = hash.token === 'EOF' ? `the end of the ${kind}` : `'${hash.text ?? hash.token ?? ''}'`;
    what = `unexpected ${got}${expected.length ? `; expected ${expected.slice(0, 8).join(', ')}${expected.length > 8 ? ', …' : ''}` : ''}`;
  } else {
    what = error.message.replace(/\.$/, '');
    at = positionOfMessage(text, error.message);
  }
  return McpLdError.of(`${kind}.malformed`, {
    detail: `${named(options)}${at ? `line ${at.line}, column ${at.column}: ` : ''}${what}`,
    ...(at ? { line: at.line } : {}),
  });
}

/** Finds what a semantic error of the parser names (a prefix, an IRI, a variable) in the text. */
function positionOfMessage(text: string, message: string): Position | undefined {
  const masked = maskText(text);
  const prefix = /^Unknown prefix: (.*)$/.exec(message);
  if (prefix) return locate(text, searchToken(masked, `${prefix[1]}:`, false));
  const relative = /^Cannot resolve relative IRI (.*) because/.exec(message);
  if (relative) return locate(text, text.indexOf(`<${relative[1]}>`));
  const variable = /\(\?([^)]+)\)/.exec(message);
  if (variable) return locate(text, searchToken(masked, `?${variable[1]}`));
  return undefined;
}

/** Offset of `token` in masked text where it starts a token (and, when `whole`, ends one), or -1. */
function searchToken(masked: string, token: string, whole = true): number {
  const escaped = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(^|[^A-Za-z0-9_:.?$-])${escaped}${whole ? '(?![A-Za-z0-9_])' : ''}`).exec(masked);
  return match ? match.index + match[1]!.length : -1;
}

/** Line and column (both 1-based) of an offset, or undefined for -1. */
export function locate(text: string, offset: number): Position | undefined {
  if (offset < 0) return undefined;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

function nextToken(text: string, line: number, column: number): Position {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
  offset += column;
  const masked = maskText(text);
  while (offset < masked.length && /\s/.test(masked[offset]!)) offset++;
  return locate(text, Math.min(offset, text.length))!;
}

/**
 * The text with the insides of comments, strings and IRIs blanked (same length, same line breaks), so that
 * searches for keywords, prefixes and variables find only real tokens.
 */
export function maskText(text: string): string {
  let out = '';
  let i = 0;
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i]!;
    if (c === '#') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === "'") {
      const long = text.startsWith(c.repeat(3), i);
      const quote = long ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < text.length && !text.startsWith(quote, j) && (long || text[j] !== '\n')) j += text[j] === '\\' ? 2 : 1;
      j = Math.min(text.length, j + (text.startsWith(quote, j) ? quote.length : 0));
      out +=
        quote +
        blank(text.slice(i + quote.length, Math.max(i + quote.length, j - quote.length))) +
        text.slice(Math.max(i + quote.length, j - quote.length), j);
      i = j;
    } else if (c === '<') {
      const iri = /^<[^<>"{}|^`\\\s]*>/.exec(text.slice(i, i + 4096));
      if (iri) {
        out += '<' + blank(iri[0].slice(1, -1)) + '>';
        i += iri[0].length;
      } else {
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
