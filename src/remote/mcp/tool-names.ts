// Registry names for a server's tools: mcp__<server>__<tool>, only [a-zA-Z0-9_-], at most 64 characters (what every
// provider accepts as a function name), and unique. A server's names are untrusted: markup, spaces and dots become
// `_`, and two tools that clean to the same name get a numbered suffix in the order the server listed them.
export const MAX_TOOL_NAME = 64;
const PREFIX = 'mcp__';
// A long server name must leave room for the tool's own part.
const MAX_SERVER_PART = 24;

/** Only [a-zA-Z0-9_-]: every other character becomes `_`; an empty result is `fallback`. */
export function cleanNamePart(text: string, fallback: string): string {
  const cleaned = text.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned.length === 0 ? fallback : cleaned;
}

/** The server's part of its tools' registry names (mcp__<this>__…). */
export function serverNamePart(serverName: string): string {
  return cleanNamePart(serverName, 'server').slice(0, MAX_SERVER_PART);
}

/** The registry name for `toolName` of `serverName`, not in `taken` (which it joins). */
export function registryToolName(serverName: string, toolName: string, taken: Set<string>): string {
  const stem = `${PREFIX}${serverNamePart(serverName)}__`;
  const base = (stem + cleanNamePart(toolName, 'tool')).slice(0, MAX_TOOL_NAME);
  let name = base;
  for (let n = 2; taken.has(name); n++) {
    const suffix = `_${n}`;
    name = base.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
  }
  taken.add(name);
  return name;
}
