// Stage 1's check, lint: rules that find where the annotated schema's x-jsonld-* annotations misdescribe the data or
// cannot be honoured by JSON-LD, and whether the overlay corrects each. Pure core: reads a SchemaIndex, prints
// nothing; no HTTP, no CLI.
export { lintSchema, findDefects } from './lint-schema.js';
export { rules } from './rules/index.js';
export { SchemaModel } from './schema-model.js';
export { findingKey, type Defect, type Finding, type Severity } from './defect.js';
export type { Rule } from './rule.js';
