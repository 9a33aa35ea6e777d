// Stage 3, lift: JSON-RPC messages (captures, raw lines, JSON text) to RDF quads, session-aware, by lifting plans
// compiled once from the schema; the one lift-and-tally loop the adapters feed. Pure core: no HTTP, no CLI.
// Adapters that load lifting lazily (the API's threads, CLI commands) import its modules directly.
export {
  Lifter,
  type LiftOptions,
  type LiftMode,
  type LiftedMeta,
  type LiftedMessage,
  type LiftedText,
  type LiftedTextParts,
} from './lifter.js';
export { ReferenceEngine } from './reference.js';
export {
  Conversion,
  convertText,
  summaryLine,
  failedInputError,
  listedFailure,
  failedItemPlace,
  type ConversionSummary,
  type FailedItem,
} from './convert.js';
export { parseInput, parseLine, parseJsonText, type InputItem } from './input.js';
export { sniffInputKind, inputKindNames, rdfKinds, type InputKind } from './input-kind.js';
export {
  toRecord,
  isCaptureRecord,
  isRawLine,
  sessionProblem,
  type CaptureRecord,
  type RawLineRecord,
  type InputRecord,
  type HttpFacts,
} from './records.js';
export { PlanCompiler, itemPlan, type NodePlan, type ValuePlan, type MessagePlan } from './plan.js';
export { MessagePlans } from './message-plans.js';
export { ProtocolSchemas } from './protocol-schemas.js';
export { MessageValidator, type ValidationProblem } from './validate.js';
export { captureTime, isoDateTime } from './capture-time.js';
export { derivedSessionId } from './session-id.js';
export { implementationName, serverInfoOf } from './server-info.js';
