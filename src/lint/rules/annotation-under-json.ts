// Rule `annotation-under-json` (warning): annotations that cannot take effect because the value they describe sits
// inside a property typed @json (one rdf:JSON literal): written below it, or in a definition used only below @json.
import type { DocumentId } from '../../schema/index.js';
import type { Finding } from '../defect.js';
import { finding, type Rule } from '../rule.js';
import type { RefUse, SchemaModel } from '../schema-model.js';

export const annotationUnderJson: Rule = {
  id: 'annotation-under-json',
  summary: 'annotations nested below a property typed @json, which cannot take effect',
  check(model) {
    const findings: Finding[] = [];
    for (const site of model.properties) {
      if (site.type !== '@json') continue;
      const nested = model.properties.filter(
        (inner) => inner.annotated && inner.document === site.document && inner.jsonAncestor === site.pointer,
      );
      if (nested.length === 0) continue;
      const names = nested.map((inner) => inner.label.slice(site.label.length + 1));
      findings.push(
        finding(
          this.id,
          'warning',
          site,
          `${site.label} is typed @json, so the annotations below it (${names.join(', ')}) cannot take effect: the whole value becomes one rdf:JSON literal`,
        ),
      );
    }
    for (const { document, name, via } of definitionsOnlyUnderJson(model)) {
      const pointer = `${model.definitionsPointer(document)}/${name}`;
      const annotated = model.properties.filter(
        (site) =>
          site.annotated && site.document === document && site.definition === name && site.jsonAncestor === undefined,
      );
      if (annotated.length === 0) continue;
      const keys = [...new Set(annotated.map((site) => site.key))];
      findings.push({
        document,
        pointer,
        rule: this.id,
        severity: 'warning',
        message: `${name} is reachable only through values typed @json (its uses: ${via.join(', ')}), so its annotations (${keys.join(', ')}) can never take effect`,
      });
    }
    return findings;
  },
};

/**
 * Definitions every use of which is below a @json value: referenced only from under @json, or only from
 * definitions that are themselves used only below @json (a greatest fixpoint, so cycles stay inside).
 */
function definitionsOnlyUnderJson(model: SchemaModel): { document: DocumentId; name: string; via: string[] }[] {
  const id = (document: DocumentId, name: string) => `${document}#${name}`;
  const incoming = new Map<string, RefUse[]>();
  for (const use of model.refs) {
    if (use.target === undefined || use.targetDocument === undefined) continue;
    const key = id(use.targetDocument, use.target);
    if (!incoming.has(key)) incoming.set(key, []);
    incoming.get(key)!.push(use);
  }
  const onlyJson = new Set(incoming.keys());
  let changed = true;
  while (changed) {
    changed = false;
    for (const [key, uses] of incoming) {
      if (!onlyJson.has(key)) continue;
      const escapes = uses.some(
        (use) => !use.underJson && (use.from === undefined || !onlyJson.has(id(use.document, use.from))),
      );
      if (escapes) {
        onlyJson.delete(key);
        changed = true;
      }
    }
  }
  return [...onlyJson].sort().map((key) => {
    const [document, name] = key.split('#') as [DocumentId, string];
    return { document, name, via: [...new Set(incoming.get(key)!.map((use) => use.label))] };
  });
}
