// Stage 5, query: SPARQL 1.1 over a QuadStore (checked, read-only, no federation), SPARQL Update (checked: only
// session graphs, nothing fetched), named parameterised queries from queries/, and the result formats. The API and
// the CLI use it through this module. Pure core: no HTTP, no CLI.
export { parseQuery, generateQuery, type ParsedQuery } from './parse-query.js';
export { parseUpdate, type ParsedUpdate } from './parse-update.js';
export { runQuery, runQueryText, runQueryStream, sessionGraph, type RunOptions } from './run-query.js';
export { boundRows, type BoundedQuery } from './bound-rows.js';
export {
  NamedQueries,
  readQuery,
  prepareQuery,
  completeAnswer,
  planAnswer,
  runNamedQuery,
  runNamedQueryText,
  type NamedQuery,
} from './named-queries.js';
export { SessionPartials } from './session-partials.js';
export { applyPercentiles, nearestRank, parsePercentiles, type PercentileDeclaration } from './percentiles.js';
export { applyQuotients, exactQuotient, parseQuotient, type QuotientDeclaration } from './quotients.js';
export {
  parameterTerm,
  bindParameters,
  parameterTypes,
  type ParameterType,
  type ParameterValues,
  type QueryParameter,
} from './parameters.js';
export { parseQueryHeader, type QueryHeader } from './query-header.js';
export {
  writeResult,
  writeSolutions,
  writeGraph,
  resultsJson,
  formatsFor,
  isResultFormat,
  resultMediaTypes,
  resultMediaAliases,
  solutionFormats,
  graphFormats,
  type ResultFormat,
  type SolutionFormat,
  type GraphFormat,
} from './result-formats.js';
export { rowsJson, rowsJsonLines, rowsProfile } from './rows.js';
export {
  streamsIn,
  streamHead,
  streamTail,
  streamRows,
  writeChunk,
  passThrough,
  type ChunkRequest,
} from './result-stream.js';
export { queryPrefixes } from './prefixes.js';
export { messageAt, messageTriples } from './message-triples.js';
export { checkSparqlLimits, defaultSparqlLimits, type SparqlLimits } from './sparql-limits.js';
