// The MCP protocol versions the package knows, the order they came in and the one each version's annotations are
// carried from. Version names are dates, so they compare as strings. Nothing else lists versions.
import { McpLdError } from '../core/problem.js';

/** Every protocol version with an official schema in schemas/official/, oldest first. */
export const protocolVersions = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

export type ProtocolVersion = (typeof protocolVersions)[number];

/** The version the annotated seed describes: its annotations are the source of every other version's. */
export const seedVersion: ProtocolVersion = '2025-06-18';

/** The newest version, the current release. */
export const latestVersion: ProtocolVersion = protocolVersions[protocolVersions.length - 1]!;

/**
 * The version whose effective annotations each version starts from: the seed's neighbours start from the seed, and
 * each further version from its neighbour nearer the seed, so a term added in 2025-11-25 keeps its IRI in 2026-07-28.
 */
export function carriedFrom(version: ProtocolVersion): ProtocolVersion | undefined {
  const index = protocolVersions.indexOf(version);
  const seed = protocolVersions.indexOf(seedVersion);
  if (index === seed) return undefined;
  return protocolVersions[index < seed ? index + 1 : index - 1];
}

export function isProtocolVersion(text: string): text is ProtocolVersion {
  return (protocolVersions as readonly string[]).includes(text);
}

/** A version named by a user (`--protocol`, an HTTP field): one the package knows, or a 400 naming those it knows. */
export function parseProtocolVersion(text: string): ProtocolVersion {
  if (isProtocolVersion(text)) return text;
  throw McpLdError.of('schema.unknown-protocol-version', {
    detail: `protocol version "${text}" is not one mcp-ld knows; known versions: ${protocolVersions.join(', ')}`,
  });
}

/**
 * The known version a message speaking `text` is read by: that version when known; else the newest known version
 * older than it (a newer release keeps what it shares with its predecessor), or the oldest for an older one.
 * Undefined for text that names no version (not a date).
 */
export function versionFor(text: string): ProtocolVersion | undefined {
  if (isProtocolVersion(text)) return text;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  return [...protocolVersions].reverse().find((version) => version < text) ?? protocolVersions[0];
}
