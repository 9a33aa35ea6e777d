// Stage 3's inverse, lower: RDF to JSON, rebuilding every lifted message exactly from its quads by the same
// message plans. Pure core: no HTTP, no CLI.
export { Lowerer, type LoweredRecord } from './lower.js';
