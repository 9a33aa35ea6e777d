// Stage 2, context: derives JSON-LD 1.1 contexts from the effective schema's annotations: one per message
// definition, json-rpc.jsonld, and the merged mcp.jsonld. Pure core: no HTTP, no CLI.
export {
  buildContexts,
  buildAllContexts,
  buildVersionContexts,
  writeContexts,
  writeGeneratedContexts,
  checkContexts,
  checkGeneratedContexts,
  messagesDir,
  type GeneratedContext,
  type BuildOptions,
  type WriteResult,
  type ContextDrift,
} from './build-contexts.js';
export { contextDefinitions, messageContext, messageTerms, termWalker } from './message-contexts.js';
export { jsonRpcContext, jsonRpcEnvelopeTerms } from './json-rpc-context.js';
export { mergedContext, mergedTerms, termCandidates, chooseMeaning, propertySchemas } from './merged-context.js';
export { loadReferenceTerms, referenceTerms, referenceContextFile } from './reference.js';
export { TermWalker, type TermModel, type TermMap, type TermKind } from './terms.js';
export { expandIri, compactIri, type PrefixMap } from './iris.js';
