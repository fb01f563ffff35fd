// What the settings keep about MCP servers: the servers as the person set them up (headers included, like API keys:
// only in this browser's settings store, never in exports or session files), the tool descriptions they accepted,
// and which MCP tools are switched on. Read back from storage, every field is checked.
import type { McpServerConfig } from '../../remote/mcp/types';

/** The accepted description of each reviewed tool: key `<server id>/<registry name>`, value its fingerprint. */
export type McpReviewed = Record<string, string>;

/** The key under which a server's tool's accepted description is remembered. */
export function reviewKey(serverId: string, toolName: string): string {
  return `${serverId}/${toolName}`;
}

/** A short fingerprint of a description (FNV-1a, with its length): equal texts give equal fingerprints. */
export function descriptionFingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length.toString(36)}-${(hash >>> 0).toString(36)}`;
}

/** A new server's config with a fresh id. */
export function newServerConfig(fields: Omit<McpServerConfig, 'id'>): McpServerConfig {
  return { id: `mcp-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, ...fields };
}

/** Every header value of every server: secrets an export's review must catch. */
export function mcpSecrets(servers: readonly McpServerConfig[]): string[] {
  return servers.flatMap((s) => s.headers.map((h) => h.value.trim())).filter(Boolean);
}

/** Servers read back from storage: broken entries are dropped, headers without a name are dropped. */
export function parseMcpServers(value: unknown): McpServerConfig[] {
  if (!Array.isArray(value)) return [];
  const out: McpServerConfig[] = [];
  for (const raw of value) {
    if (typeof raw !== 'object' || raw === null) continue;
    const r = raw as Record<string, unknown>;
    if (typeof r.id !== 'string' || typeof r.name !== 'string' || typeof r.url !== 'string') continue;
    if (out.some((s) => s.id === r.id)) continue;
    out.push({ id: r.id, name: r.name, url: r.url, headers: parseHeaders(r.headers), connectOnStart: r.connectOnStart !== false });
  }
  return out;
}

function parseHeaders(value: unknown): McpServerConfig['headers'] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((h) => {
    if (typeof h !== 'object' || h === null) return [];
    const { name, value: v } = h as Record<string, unknown>;
    return typeof name === 'string' && name.trim() !== '' && typeof v === 'string' ? [{ name: name.trim(), value: v }] : [];
  });
}

/** The accepted descriptions read back from storage. */
export function parseMcpReviewed(value: unknown): McpReviewed {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
