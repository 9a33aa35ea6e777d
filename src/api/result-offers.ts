// The media types the query routes answer each result format in, and the pick for an Accept header. Plain JSON rows are
// `application/json` on the named queries; on /sparql only when asked for by their profile
// (`application/json; profile="https://w3id.org/mcp-ld/rows"`). JSON Lines are `application/jsonl` or
// `application/x-ndjson`.
import { McpLdError } from '../core/problem.js';
import { formatsFor, resultMediaAliases, resultMediaTypes, rowsProfile, type ResultFormat } from '../query/index.js';
import type { QueryForm } from '../store/quad-store.js';
import { negotiate, type Offer } from './negotiate.js';

interface ResultOffer extends Offer {
  format: ResultFormat;
  /** The Content-Type of the answer. */
  contentType: string;
}

/**
 * Where the results go: the SPARQL endpoint keeps `application/json` for the SPARQL results; the named queries give
 * rows.
 */
type ResultRoute = 'sparql' | 'named-query';

/** The offers for a query form, in order of preference (the first is the answer to no Accept, or to `*\/*`). */
export function resultOffers(form: QueryForm, route: ResultRoute): ResultOffer[] {
  return formatsFor(form)
    .filter((format) => format !== 'table')
    .flatMap((format): ResultOffer[] => {
      const contentType = resultMediaTypes[format];
      switch (format) {
        case 'rows':
          return [
            {
              format,
              contentType,
              type: 'application/json',
              params: { profile: rowsProfile },
              onlyNamed: route === 'sparql',
            },
          ];
        case 'jsonl':
          return [
            { format, contentType, type: 'application/jsonl' },
            { format, contentType: 'application/x-ndjson', type: 'application/x-ndjson' },
          ];
        default:
          // SPARQL results are also asked for as plain `application/json` / `application/xml` (SPARQLWrapper, rdflib)
          // and answered under the type named; on the named queries `application/json` is rows instead.
          return [
            { format, contentType, type: contentType.split(';')[0]! },
            ...(resultMediaAliases[format] ?? [])
              .filter((alias) => route === 'sparql' || alias !== 'application/json')
              .map((alias) => ({ format, contentType: alias, type: alias })),
          ];
      }
    });
}

/** The offer that answers `accept`; a 406 naming the media types offered when none does. */
export function pickResult(accept: string | undefined, offers: ResultOffer[]): ResultOffer {
  const index = negotiate(accept, offers);
  if (index < 0) {
    const types = offers.map((o) => (o.onlyNamed ? `${o.type}; profile="${o.params!['profile']}"` : o.type));
    throw McpLdError.of('http.not-acceptable', {
      detail: `no result format matches Accept: ${accept}; this query gives ${types.join(', ')}`,
    });
  }
  return offers[index]!;
}
