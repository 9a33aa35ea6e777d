// Stage 7, tap: records MCP traffic where it flows, as a transparent stdio relay in front of a server or an HTTP
// proxy, and delivers the lifted records to a store or an mcp-ld service (spooled while it is away). An adapter over
// lift and store; it imports no HTTP server code of the API and no CLI code.
export { relay, type TapStreams } from './tap.js';
export { Recorder, StdioObserver, type RecorderCounts } from './recorder.js';
export { createRecordingProxy, type ProxyOptions } from './http-proxy.js';
export {
  DeliveryQueue,
  BatchRefused,
  BatchFailed,
  badInputStatuses,
  readSpool,
  spoolFileFor,
  quarantineFileFor,
  type DeliverySink,
} from './delivery.js';
export { BridgeSink } from './bridge-sink.js';
export { ClientSessions, clientKeyOf } from './client-sessions.js';
export { serverNameOfCommand, serverInfoName } from './server-name.js';
export { SseReader, type SseEvent } from './sse-reader.js';
