// The part of GitHub's GraphQL API an import uses: blobs of one repository by alias,
//   query { repository(owner: "O", name: "R") { a0: object(oid: "SHA") { ... on Blob { text isBinary byteSize oid } } … } }
// (`object(expression: "REV:PATH")` too), answered as GitHub does: `{ data: { repository: { a0: {…} | null } } }`,
// a null repository with a NOT_FOUND error for one that cannot be read, and `errors` alone for a query it cannot run.
import { commitOf, entryAt, type MockRepo } from './fixture';

export type BlobQuery = { owner: string; name: string; objects: { alias: string; by: 'oid' | 'expression'; value: string; fields: string[] }[] };

const BLOB_FIELDS = new Set(['text', 'isBinary', 'isTruncated', 'byteSize', 'oid', 'abbreviatedOid']);
const STRING = String.raw`"((?:[^"\\]|\\.)*)"`;
const REPOSITORY = new RegExp(String.raw`^\s*(?:query\b[^{]*)?\{\s*repository\s*\(\s*owner\s*:\s*${STRING}\s*,\s*name\s*:\s*${STRING}\s*\)\s*\{([\s\S]*)\}\s*\}\s*$`);
const OBJECT = new RegExp(String.raw`\s*([A-Za-z_]\w*)\s*:\s*object\s*\(\s*(oid|expression)\s*:\s*${STRING}\s*\)\s*\{\s*\.\.\.\s*on\s+Blob\s*\{([^{}]*)\}\s*\}`, 'y');
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The blobs a query asks for, or an error message in GitHub's words when it is not of the shape served here. */
export function parseBlobQuery(query: string): BlobQuery | { error: string } {
  const match = REPOSITORY.exec(query);
  if (!match) return { error: `Parse error on "${query.trim().slice(0, 20)}" (the mock serves repository { alias: object(...) { ... on Blob { ... } } })` };
  const [, owner, name, body] = match;
  const objects: BlobQuery['objects'] = [];
  OBJECT.lastIndex = 0;
  let at = 0;
  for (let m = OBJECT.exec(body); m; m = OBJECT.exec(body)) {
    const fields = m[4].split(/[\s,]+/).filter(Boolean);
    const unknown = fields.find((field) => !BLOB_FIELDS.has(field));
    if (unknown) return { error: `Field '${unknown}' doesn't exist on type 'Blob'` };
    objects.push({ alias: m[1], by: m[2] as 'oid' | 'expression', value: JSON.parse(`"${m[3]}"`) as string, fields });
    at = OBJECT.lastIndex;
  }
  if (body.slice(at).trim() !== '') return { error: `Parse error on "${body.slice(at).trim().slice(0, 20)}"` };
  return { owner: unescape(owner), name: unescape(name), objects };
}

/** The `data` of a query: each alias's blob fields, or null where no blob is. */
export function answerBlobQuery(repo: MockRepo, query: BlobQuery, textLimit: number, corrupt: (sha: string, data: Uint8Array) => Uint8Array): unknown {
  const repository: Record<string, unknown> = {};
  for (const object of query.objects) {
    const sha = object.by === 'oid' ? object.value : blobOfExpression(repo, object.value);
    const stored = sha ? repo.blobs.get(sha) : undefined;
    if (!sha || !stored) {
      repository[object.alias] = null;
      continue;
    }
    const data = corrupt(sha, stored);
    const text = textOf(data);
    const truncated = text !== null && data.length > textLimit;
    const values: Record<string, unknown> = {
      text: text === null ? null : truncated ? decoder.decode(data.subarray(0, textLimitAt(data, textLimit))) : text,
      isBinary: text === null,
      isTruncated: truncated,
      byteSize: stored.length,
      oid: sha,
      abbreviatedOid: sha.slice(0, 7),
    };
    repository[object.alias] = Object.fromEntries(object.fields.map((field) => [field, values[field]]));
  }
  return { repository };
}

export function notFoundError(owner: string, name: string): unknown {
  return { type: 'NOT_FOUND', path: ['repository'], locations: [{ line: 1, column: 9 }], message: `Could not resolve to a Repository with the name '${owner}/${name}'.` };
}

function blobOfExpression(repo: MockRepo, expression: string): string | undefined {
  const colon = expression.indexOf(':');
  if (colon < 0) return undefined;
  const commit = commitOf(repo, expression.slice(0, colon));
  const entry = commit ? entryAt(repo, commit.treeSha, expression.slice(colon + 1)) : undefined;
  return entry?.type === 'blob' ? entry.sha : undefined;
}

// Like GitHub, a blob with a NUL byte, or one that is not UTF-8, is binary: it has no text.
function textOf(data: Uint8Array): string | null {
  if (data.includes(0)) return null;
  try {
    return decoder.decode(data);
  } catch {
    return null;
  }
}

/** The longest prefix within `limit` bytes that ends on a character boundary. */
function textLimitAt(data: Uint8Array, limit: number): number {
  let end = limit;
  while (end > 0 && (data[end] & 0xc0) === 0x80) end--;
  return end;
}

const unescape = (value: string) => JSON.parse(`"${value}"`) as string;
