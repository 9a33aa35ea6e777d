// What the route groups that reach the store are given (sparql, queries, ingest, sessions, messages, events): one
// declaration their plugins share, so that none imports it from a sibling route.
import type { ServiceConfig } from '../../core/config.js';
import type { QuadStore } from '../../store/quad-store.js';
import type { Metrics } from '../metrics.js';
import type { Offload } from '../offload.js';

export interface StoreRouteOptions {
  store: QuadStore;
  config: ServiceConfig;
  metrics: Metrics;
  /** Where the CPU-bound part of a request runs, off the event loop. */
  offload: Offload;
}
