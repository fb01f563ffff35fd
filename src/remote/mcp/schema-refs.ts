// What an MCP server's input schema refers to, checked before any validator sees it: a reference that leads back to
// itself without the value getting any deeper (`a` is `b`, `b` is `a`) would recurse forever on every call, and a
// reference outside the schema would need a fetch Conch does not make. A reference inside a property or an item (a
// tree of nodes) is fine: the value ends, so the check does too.

type Node = Record<string, unknown>;

/** Why the schema's references cannot be followed (a loop, a missing or outside target), or undefined. */
export function referenceProblem(root: Node): string | undefined {
  const safe = new Set<Node>();
  let problem: string | undefined;
  walk(root, (node) => {
    if (problem === undefined && typeof node.$ref === 'string') problem = followFrom(root, node, [], safe);
  });
  return problem;
}

/** The local target of `ref` ("#" or "#/json/pointer") in `root`; undefined when it names nothing there. */
export function resolveLocalRef(root: Node, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof at !== 'object' || at === null || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = (at as Node)[key];
  }
  return at;
}

// Depth-first along the keywords that apply to the same value; `path` holds the nodes on the way here.
function followFrom(root: Node, node: Node, path: Node[], safe: Set<Node>): string | undefined {
  if (safe.has(node)) return undefined;
  if (path.includes(node)) return 'its input schema has a $ref loop (a reference that leads back to itself)';
  path.push(node);
  for (const next of sameValueSchemas(node)) {
    let target: unknown = next;
    if (typeof next === 'string') {
      if (next.startsWith('#') && !next.startsWith('#/') && next !== '#') continue; // an anchor: the validator's job
      if (!next.startsWith('#')) return `its input schema refers to an outside schema (${next.slice(0, 100)}), which Conch does not fetch`;
      target = resolveLocalRef(root, next);
      if (target === undefined) return `its input schema refers to ${next.slice(0, 100)}, which it does not define`;
    }
    if (isNode(target)) {
      const problem = followFrom(root, target, path, safe);
      if (problem) return problem;
    }
  }
  path.pop();
  safe.add(node);
  return undefined;
}

// A reference (as its string) and the subschemas that constrain this same value, not a part of it.
function sameValueSchemas(node: Node): unknown[] {
  const out: unknown[] = [];
  if (typeof node.$ref === 'string') out.push(node.$ref);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[key];
    if (Array.isArray(list)) out.push(...list);
  }
  for (const key of ['not', 'if', 'then', 'else'] as const) if (isNode(node[key])) out.push(node[key]);
  return out;
}

function walk(value: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
    return;
  }
  if (!isNode(value)) return;
  visit(value);
  for (const key in value) {
    // An enum or const holds data, not schemas: megabytes of it are not walked.
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    walk(value[key], visit);
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
