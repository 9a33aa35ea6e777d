// Resolves `$ref`s across the loaded schema documents: JSON pointers, `$anchor`s, and the JSON-RPC schema's
// published URL (mapped to the local copy). An unknown URL is an error, never a download.
import { getAtPointer, isJsonObject, joinPointer, type JsonObject, type JsonValue } from '../core/json.js';
import { McpLdError } from '../core/problem.js';
import { documentForUri, documentUris, type DocumentId, type SeedDocuments } from './documents.js';

/** A schema node together with where it lives, so that refs inside it resolve against the right document. */
export interface SchemaLocation {
  document: DocumentId;
  pointer: string;
  node: JsonObject;
}

export class RefResolver {
  private readonly anchors = new Map<string, string>();

  /** `anchors`: the documents' anchor table as `anchorTable()` gave it (a snapshot's); else it is indexed here. */
  constructor(
    private readonly documents: SeedDocuments,
    anchors?: Iterable<[string, string]>,
  ) {
    if (anchors) for (const [key, pointer] of anchors) this.anchors.set(key, pointer);
    else for (const id of Object.keys(documents) as DocumentId[]) this.indexAnchors(id, documents[id], '');
  }

  /** Every `$anchor` of the documents, as `document#anchor` and the pointer to its node. */
  anchorTable(): [string, string][] {
    return [...this.anchors];
  }

  private indexAnchors(document: DocumentId, value: JsonValue, pointer: string): void {
    if (Array.isArray(value)) {
      value.forEach((item, index) => this.indexAnchors(document, item, joinPointer(pointer, String(index))));
    } else if (isJsonObject(value)) {
      const anchor = value['$anchor'];
      if (typeof anchor === 'string') this.anchors.set(`${document}#${anchor}`, pointer);
      for (const [key, child] of Object.entries(value)) this.indexAnchors(document, child, joinPointer(pointer, key));
    }
  }

  document(id: DocumentId): JsonObject {
    return this.documents[id];
  }

  /** The node at `pointer` of document `id`. */
  at(id: DocumentId, pointer: string): SchemaLocation {
    const node = getAtPointer(this.documents[id], pointer);
    if (!isJsonObject(node)) throw unresolved(`${documentUris[id]}#${pointer}`, 'no schema object there');
    return { document: id, pointer, node };
  }

  /** Resolves `ref` as written inside document `from`. */
  resolve(ref: string, from: DocumentId): SchemaLocation {
    const hash = ref.indexOf('#');
    const base = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? '' : ref.slice(hash + 1);
    const document = base === '' ? from : documentForUri(base);
    if (document === undefined) throw unresolved(ref, 'only the bundled schemas can be referenced; nothing is fetched');
    if (fragment === '' || fragment.startsWith('/')) return this.at(document, decodeURIComponent(fragment));
    const pointer = this.anchors.get(`${document}#${fragment}`);
    if (pointer === undefined) throw unresolved(ref, `no $anchor "${fragment}" in ${documentUris[document]}`);
    return this.at(document, pointer);
  }

  /** Follows a chain of pure `$ref` nodes (a node that is only a reference, plus annotations) to its target. */
  follow(location: SchemaLocation): SchemaLocation {
    let current = location;
    const seen = new Set<string>();
    while (typeof current.node['$ref'] === 'string') {
      const key = `${current.document}#${current.pointer}`;
      if (seen.has(key)) throw unresolved(String(current.node['$ref']), 'circular reference');
      seen.add(key);
      current = this.resolve(current.node['$ref'], current.document);
    }
    return current;
  }
}

function unresolved(ref: string, why: string): McpLdError {
  return McpLdError.of('schema.ref-unresolved', { detail: `${ref}: ${why}` });
}
