// The annotation lint: rules that find where the annotated schema's x-jsonld-* annotations misdescribe the data or
// cannot be honoured by JSON-LD, and whether the overlay corrects each. Pure: reads a SchemaIndex, prints nothing.
export { lintSchema, findDefects } from './lint-schema.js';
export { rules } from './rules/index.js';
export { SchemaModel } from './schema-model.js';
export { findingKey, type Defect, type Finding, type Severity } from './defect.js';
export type { Rule } from './rule.js';
