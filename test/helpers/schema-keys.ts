// Which keys a protocol version's schema defines at a place of a message, read from that version's schema by walking
// the JSON path through $ref, allOf, anyOf/oneOf, items and additionalProperties: a yardstick for "no key the
// version's schema defines is filed under the extension vocabulary" that shares no code with the lifter's plans.
import { isJsonObject, type JsonObject } from '../../src/core/json.js';
import type { SchemaIndex, SchemaLocation } from '../../src/schema/index.js';

export class SchemaKeys {
  constructor(private readonly index: SchemaIndex) {}

  /** Every schema object that describes the same JSON value as `location`. */
  private expand(location: SchemaLocation, seen = new Set<string>()): SchemaLocation[] {
    const id = `${location.document}#${location.pointer}`;
    if (seen.has(id)) return [];
    seen.add(id);
    const found: SchemaLocation[] = [location];
    const { node } = location;
    if (typeof node['$ref'] === 'string') {
      const target = this.index.resolver.resolve(node['$ref'], location.document);
      if (target.document === 'mcp') found.push(...this.expand(target, seen));
    }
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
      const members = node[keyword];
      if (!Array.isArray(members)) continue;
      members.forEach((member, i) => {
        if (isJsonObject(member))
          found.push(
            ...this.expand(
              { document: location.document, pointer: `${location.pointer}/${keyword}/${i}`, node: member },
              seen,
            ),
          );
      });
    }
    return found;
  }

  private step(locations: SchemaLocation[], segment: string): SchemaLocation[] {
    const next: SchemaLocation[] = [];
    for (const location of locations.flatMap((l) => this.expand(l))) {
      const { node } = location;
      const at = (keyword: string, child: JsonObject) =>
        next.push({ document: location.document, pointer: `${location.pointer}/${keyword}`, node: child });
      if (/^\d+$/.test(segment) && isJsonObject(node['items'])) at('items', node['items']);
      const properties = node['properties'];
      if (isJsonObject(properties) && isJsonObject(properties[segment]))
        at(`properties/${segment}`, properties[segment]);
      else if (isJsonObject(node['additionalProperties'])) at('additionalProperties', node['additionalProperties']);
    }
    return next;
  }

  /** The keys defined for the object at `path` below the body (params or result) of a message of `definition`. */
  keysAt(definition: string, path: string[]): Set<string> {
    let locations = [this.index.definition(definition)];
    for (const segment of path) locations = this.step(locations, segment);
    const keys = new Set<string>();
    for (const location of locations.flatMap((l) => this.expand(l))) {
      const properties = location.node['properties'];
      if (isJsonObject(properties)) for (const key of Object.keys(properties)) keys.add(key);
    }
    return keys;
  }
}
