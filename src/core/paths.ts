// Where the package's own files live (schemas, contexts, ontology, queries), resolved from this module's location
// so that the CLI works from any working directory. Never points outside the installed package.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

// This file compiles to dist/src/core/paths.js: the package root is three levels up.
export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const schemasDir = path.join(packageRoot, 'schemas');
export const contextsDir = path.join(packageRoot, 'contexts');
export const ontologyDir = path.join(packageRoot, 'ontology');
export const queriesDir = path.join(packageRoot, 'queries');
