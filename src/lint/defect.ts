// What the annotation lint reports: one defect per rule violation, at the JSON pointer where the annotation is
// written, with whether (and why) the overlay corrects it. Plain data: rules build it, adapters print it.
import type { DocumentId } from '../schema/index.js';

/**
 * `error`: the annotation misdescribes the data (wrong datatype, wrong shape, a term nothing can use).
 * `warning`: the annotation is acceptable, but JSON-LD alone cannot honour it as written.
 */
export type Severity = 'error' | 'warning';

/** What one rule finds in one set of documents (seed or effective). */
export interface Finding {
  /** The schema document the pointer points into. */
  document: DocumentId;
  /** JSON pointer into that document, where the annotation is written. */
  pointer: string;
  /** Stable rule id, e.g. `datatype-mismatch`. */
  rule: string;
  severity: Severity;
  /** What is wrong, concretely (the JSON type, the annotated type, the places). */
  message: string;
}

/** A finding compared across the seed and the effective (overlaid) documents. */
export interface Defect extends Finding {
  /** True when the finding is in the seed and no longer in the effective documents. */
  corrected: boolean;
  /** The `why` of the overlay correction(s) that fix it, when corrected. */
  correction?: string;
  /** The `at` of those corrections. */
  correctionAt?: string[];
}

/** Identifies a finding across the seed and the effective documents. */
export function findingKey(finding: Finding): string {
  return `${finding.rule} ${finding.document} ${finding.pointer}`;
}
