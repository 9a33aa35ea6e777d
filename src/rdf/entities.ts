// The entities MCP traffic talks about — tools, prompts and resources offered by a server — and where messages
// name them. Entities get one IRI per server, so that a tools/call links to the tool it calls and queries
// aggregate across sessions. This is MCP's own semantics, stated once here.

export type EntityKind = 'tool' | 'prompt' | 'resource';

/** A message that names one entity by a key inside its params. */
export interface EntityReference {
  definition: string;
  /** Key of `params` holding the entity's key (tool name, prompt name, resource URI). */
  key: 'name' | 'uri';
  kind: EntityKind;
}

/** A result that lists entities: each item of `result[list]` describes the entity keyed by `item[key]`. */
export interface EntityListing {
  definition: string;
  list: string;
  key: 'name' | 'uri';
  kind: EntityKind;
}

export const entityReferences: EntityReference[] = [
  { definition: 'CallToolRequest', key: 'name', kind: 'tool' },
  { definition: 'GetPromptRequest', key: 'name', kind: 'prompt' },
  { definition: 'ReadResourceRequest', key: 'uri', kind: 'resource' },
  { definition: 'SubscribeRequest', key: 'uri', kind: 'resource' },
  { definition: 'UnsubscribeRequest', key: 'uri', kind: 'resource' },
  { definition: 'ResourceUpdatedNotification', key: 'uri', kind: 'resource' },
];

export const entityListings: EntityListing[] = [
  { definition: 'ListToolsResult', list: 'tools', key: 'name', kind: 'tool' },
  { definition: 'ListPromptsResult', list: 'prompts', key: 'name', kind: 'prompt' },
  { definition: 'ListResourcesResult', list: 'resources', key: 'uri', kind: 'resource' },
  { definition: 'ReadResourceResult', list: 'contents', key: 'uri', kind: 'resource' },
];
