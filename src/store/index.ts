// Stage 4, store: the knowledge-graph store behind one interface (QuadStore: one named graph per session, SPARQL 1.1),
// embedded (Oxigraph in a thread, durable through a journal in a data directory, shared through an owner process) or
// remote (a SPARQL 1.1 endpoint). Pure core: no HTTP server, no CLI. Callers that open a store lazily import
// open-store.ts.
export type {
  QuadStore,
  QueryForm,
  QueryResult,
  QueryText,
  QueryDataset,
  QueryOptions,
  GraphSummary,
  IngestReceipt,
  IngestOptions,
  UpdateOptions,
} from './quad-store.js';
export { openStore, memoryOnlyWarning, type OpenStoreOptions, type DataDirectoryRole } from './open-store.js';
export { EmbeddedStore, type EmbeddedStoreOptions } from './embedded-store.js';
export { RemoteStore, type RemoteStoreOptions } from './remote-store.js';
export { OwnerClient } from './owner-client.js';
export { StoreOwner, logOwner, ownerSocketName } from './store-owner.js';
export { startOwnerProcess } from './owner-process.js';
export { DataLock, readLockHolder, lockFileName } from './data-lock.js';
export { BatchWriter } from './batch-writer.js';
export { WatchedSize, type StoreChange } from './store-changes.js';
export { repairJournal, sessionsSetAside, type RepairReport } from './journal-repair.js';
export { listSessions } from './journal-sessions.js';
export { journalFileName, snapshotFileName } from './file-journal.js';
export { checkNQuads, splitNQuads } from './nquads-check.js';
export { checkDataset } from './query-dataset.js';
export { queryForm, queryShape, withoutDatasetClauses } from './query-form.js';
export { solutionMarker, limitResultText, moreBindingsThan } from './result-limits.js';
export {
  parseTriples,
  readQueryText,
  resultsJson,
  termJson,
  type ResultTermJson,
  type ResultsJson,
} from './sparql-results.js';
export { isSystemGraph } from './system-graphs.js';
