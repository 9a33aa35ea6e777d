// Quotients of a query's answer, computed here so that every store prints the same: a query file's
// `@quotient NAME=NUMERATOR/DENOMINATOR [else N]` header line names two selected columns and the column that replaces
// the first, their exact quotient as the embedded store divides (Virtuoso 7.2.5 writes 15 digits, and divides integers
// as integers). Pure: declaration in, rows in, rows out.
import { DataFactory } from 'n3';
import type { Term } from '@rdfjs/types';
import { McpLdError } from '../core/problem.js';
import { xsd } from '../rdf/index.js';
import type { QueryResult } from '../store/quad-store.js';
import { replaceColumns } from './computed-columns.js';

export interface QuotientDeclaration {
  /** The column of the quotient, in the numerator's place. */
  name: string;
  /** The selected column divided (replaced by the quotient). */
  numerator: string;
  /** The selected column it is divided by (kept). */
  denominator: string;
  /** The value (an xsd:integer) of a row whose denominator is 0; without it, such a row has no quotient. */
  whenZero?: bigint;
}

const declarationForm =
  /^\??([A-Za-z_][A-Za-z0-9_]*)\s*=\s*\??([A-Za-z_][A-Za-z0-9_]*)\s*\/\s*\??([A-Za-z_][A-Za-z0-9_]*)(?:\s+else\s+(-?[0-9]{1,18}))?$/;

/** Reads `NAME=NUMERATOR/DENOMINATOR [else N]` (the text after `@quotient`); a message for what is wrong, else it. */
export function parseQuotient(text: string): QuotientDeclaration | string {
  const match = declarationForm.exec(text.trim());
  if (!match)
    return `expected "@quotient NAME=NUMERATOR/DENOMINATOR" (optionally "else N", the integer when the denominator is 0), e.g. "@quotient avgMs=totalMs/answered", not ${JSON.stringify(text.trim())}`;
  const [, name, numerator, denominator, whenZero] = match as unknown as [string, string, string, string, string?];
  if (new Set([name, numerator, denominator]).size < 3)
    return `the quotient, its numerator and its denominator are three columns, not ${JSON.stringify(text.trim())}`;
  return { name, numerator, denominator, ...(whenZero !== undefined ? { whenZero: BigInt(whenZero) } : {}) };
}

/** Digits after the decimal point a quotient keeps: the embedded store's xsd:decimal (Oxigraph: 18). */
const fractionDigits = 18;
const scale = 10n ** BigInt(fractionDigits);

const decimalLexical = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/;

/** An xsd:integer or xsd:decimal lexical form as units and a power of ten (`1.25` → 125n, 2); undefined otherwise. */
export function readDecimal(lexical: string): { units: bigint; digits: number } | undefined {
  const match = decimalLexical.exec(lexical.trim());
  if (!match || (match[2] === '' && !match[3])) return undefined;
  const [, sign, whole, fraction = ''] = match as unknown as [string, string, string, string?];
  const units = BigInt(`${whole}${fraction}` || '0');
  return { units: sign === '-' ? -units : units, digits: fraction.length };
}

/**
 * numerator / denominator as xsd:decimal's canonical form, truncated toward zero after 18 decimal places (the embedded
 * store's division: `1/3` is 0.333333333333333333, `4/2` is 2); undefined for a denominator of 0.
 */
export function exactQuotient(numerator: string, denominator: string): string | undefined {
  const n = readDecimal(numerator);
  const d = readDecimal(denominator);
  if (!n || !d) throw new RangeError(`not an integer or a decimal: ${JSON.stringify(n ? denominator : numerator)}`);
  if (d.units === 0n) return undefined;
  // (n.units / 10^n.digits) / (d.units / 10^d.digits), scaled by 10^18; BigInt division truncates toward zero.
  return decimalText((n.units * 10n ** BigInt(d.digits) * scale) / (d.units * 10n ** BigInt(n.digits)), fractionDigits);
}

/** units / 10^digits in xsd:decimal's canonical form, as the embedded store writes it (`3100n, 1` → 310). */
export function decimalText(units: bigint, digits: number): string {
  const negative = units < 0n;
  const text = (negative ? -units : units).toString().padStart(digits + 1, '0');
  const whole = digits === 0 ? text : text.slice(0, -digits);
  const fraction = digits === 0 ? '' : text.slice(-digits).replace(/0+$/, '');
  const written = fraction ? `${whole}.${fraction}` : whole;
  return negative && written !== '0' ? `-${written}` : written;
}

function quotientInvalid(source: string, detail: string): McpLdError {
  return McpLdError.of('query.quotient-invalid', { detail: `${source}: ${detail}` });
}

/** The answer with each declaration's numerator column replaced by the quotient column. */
export function applyQuotients(
  result: QueryResult,
  declarations: readonly QuotientDeclaration[],
  source = 'the query',
): QueryResult {
  return replaceColumns(
    result,
    declarations,
    ({ name, numerator, denominator }, variables) => {
      if (!variables.includes(numerator) || !variables.includes(denominator))
        throw quotientInvalid(
          source,
          `@quotient ${name} divides ?${numerator} by ?${denominator}, which the answer lacks`,
        );
      return { replaced: numerator, added: [name] };
    },
    (row, out, declaration) => {
      const quotient = rowQuotient(row, declaration, source);
      if (quotient) out.set(declaration.name, quotient);
    },
  );
}

function rowQuotient(
  row: ReadonlyMap<string, Term>,
  declaration: QuotientDeclaration,
  source: string,
): Term | undefined {
  const numerator = row.get(declaration.numerator);
  const denominator = row.get(declaration.denominator);
  if (numerator === undefined || denominator === undefined) return undefined;
  for (const [column, term] of [
    [declaration.numerator, numerator],
    [declaration.denominator, denominator],
  ] as const) {
    if (term.termType !== 'Literal' || !readDecimal(term.value))
      throw quotientInvalid(source, `?${column} holds ${term.termType} ${term.value}, not an integer or a decimal`);
  }
  const quotient = exactQuotient(numerator.value, denominator.value);
  if (quotient !== undefined) return DataFactory.literal(quotient, DataFactory.namedNode(xsd.decimal));
  if (declaration.whenZero === undefined) return undefined;
  return DataFactory.literal(declaration.whenZero.toString(), DataFactory.namedNode(xsd.integer));
}
