// Below the stages, core: what every stage shares: the one error type and its catalogue of codes, the one
// configuration reader (flags and environment), JSON, IRI and UTF-8 checks, package paths, the build cache, line
// splitting, flat strings and the worker-thread helper. Imports no stage, no HTTP, no CLI.
export { McpLdError, isMcpLdError, type ProblemDetails, type ProblemExtensions, type ErrorFields } from './problem.js';
export { errorCatalogue, isErrorCode, type ErrorCode, type CatalogueEntry } from './errors.js';
export {
  readServiceConfig,
  readStoreConfig,
  readDataDirectory,
  readTapConfig,
  storeDefaults,
  environmentVariables,
  storeVariables,
  serviceVariables,
  tapVariables,
  ConfigError,
  type ServiceConfig,
  type StoreConfig,
  type TapConfig,
  type Environment,
  type EnvironmentVariable,
} from './config.js';
export {
  isJsonObject,
  joinPointer,
  splitPointer,
  getAtPointer,
  cloneJson,
  canonicalJson,
  inspectJson,
  type JsonValue,
  type JsonObject,
  type JsonPrimitive,
} from './json.js';
export { isAbsoluteIri, hasIriScheme, unsafeIriCharacters, absoluteIriPattern, iriRef } from './iri.js';
export { decodeUtf8, invalidUtf8Offset, invalidUtf8 } from './utf8.js';
export { packageRoot, schemasDir, contextsDir, ontologyDir, queriesDir } from './paths.js';
export {
  codeVersion,
  contentKey,
  sha256,
  moduleFiles,
  cacheDir,
  cachePath,
  readCached,
  writeCached,
  writeCachedDirectory,
} from './cache.js';
export { duplicateKey, keyCount } from './duplicate-keys.js';
export { jsonErrorOffset } from './json-error.js';
export { flatString } from './flat-string.js';
export { LineSplitter, type SplitLine } from './line-splitter.js';
export { TaskThread, serveTasks, type TaskAnswer } from './task-thread.js';
