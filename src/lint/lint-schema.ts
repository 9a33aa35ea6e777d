// Runs the rules over the seed and over the effective (overlaid) documents and compares them: a seed finding that
// the effective documents no longer have is corrected, and the overlay correction(s) without which it would come
// back say why. Pure: no files, no printing.
import {
  annotationCoverage,
  applyOverlay,
  correctionTargets,
  propertyLabel,
  type Correction,
  type SchemaIndex,
  type SeedDocuments,
} from '../schema/index.js';
import { findingKey, type Defect, type Finding } from './defect.js';
import { rules } from './rules/index.js';
import { SchemaModel } from './schema-model.js';

/** Every rule's findings on one set of documents, sorted by document, pointer and rule. */
export function findDefects(documents: SeedDocuments): Finding[] {
  const model = new SchemaModel(documents);
  return rules.flatMap((rule) => rule.check(model)).sort(byPlace);
}

const documentOrder = { mcp: 0, 'json-rpc': 1 };

/** Document (MCP first), then pointer, then the rules' order. */
function byPlace(a: Finding, b: Finding): number {
  return (
    documentOrder[a.document] - documentOrder[b.document] ||
    (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0) ||
    rules.findIndex((rule) => rule.id === a.rule) - rules.findIndex((rule) => rule.id === b.rule)
  );
}

/**
 * The schema's defects: every finding on the seed, marked corrected when the overlay removes it (with the `why` of
 * the correction that does), and the findings only the effective documents have (never corrected), in place order.
 */
export function lintSchema(index: SchemaIndex): Defect[] {
  return [...annotationDefects(index), ...coverageDefects(index)];
}

/**
 * Annotation coverage as defects (rule `unannotated-property`, an error): every property a message can carry that
 * has no annotation and that no annotation file excuses. Neither the overlay nor an annotation file corrects
 * them after the fact: annotating them does.
 */
function coverageDefects(index: SchemaIndex): Defect[] {
  return annotationCoverage(index).missing.map((pointer) => ({
    document: 'mcp',
    pointer,
    rule: 'unannotated-property',
    severity: 'error',
    message: `${propertyLabel(pointer)} is a property of a ${index.version} message but has no annotation: it would be lifted under the extension vocabulary; annotate it in schemas/annotations/${index.version}.yaml, or say there why it is left out (\`unannotated\`)`,
    corrected: false,
  }));
}

function annotationDefects(index: SchemaIndex): Defect[] {
  const seedFindings = findDefects(index.seed);
  const corrections = index.overlay.corrections;
  if (corrections.length === 0) return seedFindings.map((finding) => ({ ...finding, corrected: false }));

  const effective = new Map(findDefects(index.documents).map((finding) => [findingKey(finding), finding]));
  const seedKeys = new Set(seedFindings.map(findingKey));
  const attribution = new Attribution(index.seed, corrections);
  const defects: Defect[] = seedFindings.map((finding) => {
    const still = effective.get(findingKey(finding));
    if (still) return { ...still, corrected: false };
    const responsible = attribution.responsibleFor(finding);
    const defect: Defect = { ...finding, corrected: true };
    if (responsible.length > 0) {
      defect.correction = [...new Set(responsible.map((correction) => correction.why))].join(' + ');
      defect.correctionAt = [
        ...new Set(responsible.map((correction) => `${correction.in === 'mcp' ? '' : 'json-rpc:'}${correction.at}`)),
      ];
    }
    return defect;
  });
  for (const [key, finding] of effective) if (!seedKeys.has(key)) defects.push({ ...finding, corrected: false });
  return defects.sort(byPlace);
}

/**
 * Which corrections fix a seed finding: those without which it comes back (leave one out). When none alone is
 * needed (two corrections fix the same thing), the corrections written at the finding's pointer, an ancestor or a
 * descendant of it.
 */
class Attribution {
  private readonly withoutOne = new Map<number, Set<string> | undefined>();

  constructor(
    private readonly seed: SeedDocuments,
    private readonly corrections: readonly Correction[],
  ) {}

  responsibleFor(finding: Finding): Correction[] {
    const key = findingKey(finding);
    const needed = this.corrections.filter((_, index) => this.findingsWithout(index)?.has(key));
    if (needed.length > 0) return needed;
    return this.corrections.filter((correction) => {
      if (correction.in !== finding.document) return false;
      const targets = correctionTargets(this.seed[correction.in], correction.at);
      return targets.some(
        (target) => isPrefixPointer(target, finding.pointer) || isPrefixPointer(finding.pointer, target),
      );
    });
  }

  private findingsWithout(index: number): Set<string> | undefined {
    if (!this.withoutOne.has(index)) {
      let keys: Set<string> | undefined;
      try {
        const documents = applyOverlay(this.seed, { corrections: this.corrections.filter((_, i) => i !== index) });
        keys = new Set(findDefects(documents).map(findingKey));
      } catch {
        keys = undefined; // the other corrections depend on this one: no counterfactual to compare with
      }
      this.withoutOne.set(index, keys);
    }
    return this.withoutOne.get(index);
  }
}

/** True when pointer `a` equals `b` or is an ancestor of it. */
function isPrefixPointer(a: string, b: string): boolean {
  return a === b || b.startsWith(a + '/');
}
