// IRIs in annotations: expands them (full IRIs, or CURIEs over the schemas' declared prefixes) and compacts them
// back to CURIEs for the generated contexts. Keywords (`@id`, `@json`, …) pass through untouched.

export type PrefixMap = Readonly<Record<string, string>>;

export function isKeyword(value: string): boolean {
  return value.startsWith('@');
}

/** The full IRI of `value`: a CURIE whose prefix is declared is expanded; anything else is returned as is. */
export function expandIri(value: string, prefixes: PrefixMap): string {
  if (isKeyword(value)) return value;
  const colon = value.indexOf(':');
  if (colon <= 0) return value;
  const prefix = value.slice(0, colon);
  const suffix = value.slice(colon + 1);
  if (suffix.startsWith('//') || !Object.prototype.hasOwnProperty.call(prefixes, prefix)) return value;
  return prefixes[prefix] + suffix;
}

interface CompactIri {
  /** The CURIE, or the IRI itself when no declared prefix fits. */
  value: string;
  /** The prefix the CURIE uses. */
  prefix?: string;
}

/** Compacts `iri` with the declared prefix of the longest namespace (ties: the alphabetically first prefix). */
export function compactIri(iri: string, prefixes: PrefixMap): CompactIri {
  if (isKeyword(iri)) return { value: iri };
  let best: string | undefined;
  for (const prefix of Object.keys(prefixes).sort()) {
    const namespace = prefixes[prefix]!;
    if (!iri.startsWith(namespace) || iri.length === namespace.length) continue;
    if (iri.slice(namespace.length).startsWith('//')) continue;
    if (best === undefined || namespace.length > prefixes[best]!.length) best = prefix;
  }
  return best === undefined ? { value: iri } : { value: `${best}:${iri.slice(prefixes[best]!.length)}`, prefix: best };
}

/** The local name of an IRI: what follows its last `#`, `/` or `:`. */
export function localName(iri: string): string {
  return iri.slice(Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/'), iri.lastIndexOf(':')) + 1);
}
