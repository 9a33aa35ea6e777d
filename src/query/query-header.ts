// Reads the header of a `.rq` file: its leading comment lines with `@title`, `@description`, one `@param` per
// parameter, e.g. `# @param tool xsd:string (optional) — only this tool`, and the computed columns: `@percentiles`
// (percentiles.ts) and `@quotient` (quotients.ts) lines, and `@per-session` (per-session.ts): how the answer is put
// together from the answers over each session.
// A line without a tag continues the tag before it. Pure: text in, metadata out.
import { McpLdError } from '../core/problem.js';
import { isParameterType, modifierParameters, parameterTypes, type QueryParameter } from './parameters.js';
import { parsePercentiles, type PercentileDeclaration } from './percentiles.js';
import { parseQuotient, type QuotientDeclaration } from './quotients.js';
import { parsePerSession, type PerSessionDeclaration } from './per-session.js';

export interface QueryHeader {
  title?: string;
  description?: string;
  parameters: QueryParameter[];
  /** Columns computed from the answer: percentiles of a list of numbers. */
  percentiles: PercentileDeclaration[];
  /** Columns computed from the answer: exact quotients of two columns. */
  quotients: QuotientDeclaration[];
  /** How the answer is put together from the answers over each session's graph alone, where it can be. */
  perSession?: PerSessionDeclaration;
}

const paramLine = /^([A-Za-z_][A-Za-z0-9_]*)\s+(\S+)\s*(?:\(([^)]*)\))?\s*(?:(?:—|–|--|-)\s*(.*))?$/;

function headerError(source: string, line: number, detail: string): McpLdError {
  return McpLdError.of('query.header-invalid', { detail: `${source}, line ${line}: ${detail}`, line });
}

/**
 * The metadata of a query file; throws McpLdError (query.header-invalid) for a malformed tag. `strict` (named
 * queries) also refuses tags it does not know; otherwise they are plain comments.
 */
export function parseQueryHeader(text: string, source = 'query', strict = true): QueryHeader {
  const header: QueryHeader = { parameters: [], percentiles: [], quotients: [] };
  let last: { append: (more: string) => void } | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') {
      last = undefined;
      continue;
    }
    if (!line.startsWith('#')) break;
    const body = line.replace(/^#+\s?/, '').trim();
    const tag = /^@([a-z]+(?:-[a-z]+)*)\b\s*(.*)$/.exec(body);
    if (!tag) {
      if (body !== '') last?.append(body);
      continue;
    }
    const [, name, rest] = tag as unknown as [string, string, string];
    switch (name) {
      case 'title':
        header.title = rest;
        last = { append: (more) => (header.title += ` ${more}`) };
        break;
      case 'description':
        header.description = rest;
        last = { append: (more) => (header.description = header.description ? `${header.description} ${more}` : more) };
        break;
      case 'param': {
        const parameter = parseParam(rest, source, i + 1);
        if (header.parameters.some((p) => p.name === parameter.name))
          throw headerError(source, i + 1, `parameter ${parameter.name} is declared twice`);
        header.parameters.push(parameter);
        last = {
          append: (more) => (parameter.description = parameter.description ? `${parameter.description} ${more}` : more),
        };
        break;
      }
      case 'percentiles': {
        const declaration = parsePercentiles(rest);
        if (typeof declaration === 'string') throw headerError(source, i + 1, declaration);
        if (header.percentiles.some((p) => p.list === declaration.list))
          throw headerError(source, i + 1, `@percentiles of ?${declaration.list} is declared twice`);
        header.percentiles.push(declaration);
        last = undefined;
        break;
      }
      case 'quotient': {
        const declaration = parseQuotient(rest);
        if (typeof declaration === 'string') throw headerError(source, i + 1, declaration);
        if (header.quotients.some((q) => q.name === declaration.name))
          throw headerError(source, i + 1, `@quotient ?${declaration.name} is declared twice`);
        header.quotients.push(declaration);
        last = undefined;
        break;
      }
      case 'per-session': {
        const declaration = parsePerSession(rest);
        if (typeof declaration === 'string') throw headerError(source, i + 1, `@per-session: ${declaration}`);
        if (header.perSession) throw headerError(source, i + 1, '@per-session is declared twice');
        header.perSession = declaration;
        last = undefined;
        break;
      }
      default:
        if (strict)
          throw headerError(
            source,
            i + 1,
            `unknown tag @${name} (known: @title, @description, @param, @percentiles, @quotient, @per-session)`,
          );
        last = undefined;
    }
  }
  return header;
}

function parseParam(text: string, source: string, line: number): QueryParameter {
  const match = paramLine.exec(text);
  if (!match)
    throw headerError(
      source,
      line,
      `expected "@param NAME TYPE (optional|required|default VALUE) — description", not ${JSON.stringify(text)}`,
    );
  const [, name, type, flags, description] = match as unknown as [
    string,
    string,
    string,
    string | undefined,
    string | undefined,
  ];
  if (!isParameterType(type))
    throw headerError(source, line, `parameter ${name} has type ${type}; known types: ${parameterTypes.join(', ')}`);
  if ((modifierParameters as readonly string[]).includes(name) && type !== 'xsd:integer')
    throw headerError(
      source,
      line,
      `parameter ${name} sets the query's ${name.toUpperCase()}: its type must be xsd:integer`,
    );
  const parameter: QueryParameter = { name, type, required: true, description: (description ?? '').trim() };
  for (const flag of splitFlags(flags ?? '')) {
    if (flag === 'optional') parameter.required = false;
    else if (flag === 'required') parameter.required = true;
    else if (flag.startsWith('default ')) {
      const value = flag.slice('default '.length).trim();
      try {
        parameter.default = value.startsWith('"') ? (JSON.parse(value) as string) : value;
      } catch {
        throw headerError(source, line, `parameter ${name}: the default ${value} is not a JSON string`);
      }
      parameter.required = false;
    } else
      throw headerError(
        source,
        line,
        `parameter ${name}: unknown flag ${JSON.stringify(flag)} (known: optional, required, default VALUE)`,
      );
  }
  return parameter;
}

/** Comma-separated flags; a quoted default (JSON string) may hold commas. */
function splitFlags(flags: string): string[] {
  const out: string[] = [];
  const flag = /\s*(default\s+"(?:[^"\\]|\\.)*"|[^,]*?)\s*(?:,|$)/gy;
  for (let m = flag.exec(flags); m && m.index < flags.length; m = flag.exec(flags)) {
    if (m[1]) out.push(m[1]);
    if (m[0] === '') break;
  }
  return out;
}
