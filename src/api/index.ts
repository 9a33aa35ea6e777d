// Stage 7, api: the HTTP service (Fastify), one plugin per route group under routes/, each described by JSON schemas
// (validation, serialization and OpenAPI from one source); core errors become application/problem+json here, once.
// An adapter over the core: no logic of its own, no CLI code.
export { buildServer, startServer, packageVersion, type BuildOptions } from './server.js';
