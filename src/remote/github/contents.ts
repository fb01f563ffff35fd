// The bytes of every listed blob, each fetched once however many paths share it, and each checked against its git
// id. Without a token they come from the raw host, which does not count against the API's 60 requests an hour. With
// one they come batched through GraphQL, hundreds of blobs' text a query (so 20,000 files fit the 5,000 an hour);
// a blob GraphQL has no exact text for (binary, large, cut short) is then read alone from the blobs API.
import { gitBlobId } from '../../runtime/object-id';
import type { RepoLocation } from '../repo-url';
import type { GitHubClient } from './api';
import { CorruptFileError, UnexpectedAnswerError } from './errors';
import { escapedPath, repoPath } from './resolve';
import type { ListedFile } from './tree-listing';

export type ContentsProgress = { files: number; bytes: number; totalFiles: number; totalBytes: number };

// One query's answer stays small (a few MB of JSON) and well inside GitHub's per-query limits.
const MAX_ALIASES = 250;
const MAX_BATCH_BYTES = 2 * 1024 ** 2;
// Bigger blobs go straight to the blobs API: GraphQL cuts long text short.
const GRAPHQL_MAX_FILE = 256 * 1024;

const encoder = new TextEncoder();

/** The bytes of each listed blob by id, verified; `signal` (the client's) cancels every request. */
export async function fetchContents(
  client: GitHubClient,
  location: RepoLocation,
  commitSha: string,
  files: ListedFile[],
  onProgress?: (progress: ContentsProgress) => void,
): Promise<Map<string, Uint8Array>> {
  const byBlob = new Map<string, ListedFile[]>();
  for (const file of files) byBlob.set(file.sha, [...(byBlob.get(file.sha) ?? []), file]);
  const blobs = [...byBlob.values()].map((paths) => paths[0]);
  const progress: ContentsProgress = { files: 0, bytes: 0, totalFiles: files.length, totalBytes: files.reduce((sum, f) => sum + f.size, 0) };
  const contents = new Map<string, Uint8Array>();
  onProgress?.({ ...progress });

  const keep = async (file: ListedFile, data: Uint8Array, verified = false) => {
    if (!verified && !(await matches(file, data))) throw new CorruptFileError(file.path);
    contents.set(file.sha, data);
    for (const path of byBlob.get(file.sha) ?? []) {
      progress.files++;
      progress.bytes += path.size;
    }
    onProgress?.({ ...progress });
  };
  const fromBlobsApi = async (file: ListedFile) => keep(file, await readBlob(client, location, file));

  if (!client.withToken) {
    await Promise.all(blobs.map(async (file) => {
      const data = await client.raw(`/${escapedPath(`${location.owner}/${location.repo}/${commitSha}/${file.repoPath}`)}`, file.size, file.path);
      // A file the raw host does not serve (gone private since the listing, say) is still in the blobs API.
      return data ? keep(file, data) : fromBlobsApi(file);
    }));
    return contents;
  }
  const small = blobs.filter((file) => file.size <= GRAPHQL_MAX_FILE);
  const large = blobs.filter((file) => file.size > GRAPHQL_MAX_FILE);
  await Promise.all([
    ...batches(small).map(async (batch) => {
      const texts = await readTexts(client, location, batch);
      await Promise.all(batch.map(async (file, i) => {
        const text = texts[i];
        const data = text === null ? null : encoder.encode(text);
        // Text is exact only for UTF-8 content; anything else is read again as bytes.
        return data !== null && (await matches(file, data)) ? keep(file, data, true) : fromBlobsApi(file);
      }));
    }),
    ...large.map(fromBlobsApi),
  ]);
  return contents;
}

async function matches(file: ListedFile, data: Uint8Array): Promise<boolean> {
  return data.length === file.size && (await gitBlobId(data)) === file.sha;
}

/** Blobs in runs of at most MAX_ALIASES and MAX_BATCH_BYTES (a blob bigger than that alone). */
function batches(files: ListedFile[]): ListedFile[][] {
  const out: ListedFile[][] = [];
  let batch: ListedFile[] = [];
  let bytes = 0;
  for (const file of files) {
    if (batch.length > 0 && (batch.length >= MAX_ALIASES || bytes + file.size > MAX_BATCH_BYTES)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(file);
    bytes += file.size;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

/** Each blob's whole text, in order; null where GraphQL has none (binary, cut short, or missing). */
async function readTexts(client: GitHubClient, location: RepoLocation, batch: ListedFile[]): Promise<(string | null)[]> {
  const aliases = batch.map((file, i) => `f${i}: object(oid: "${file.sha}") { ... on Blob { text isBinary isTruncated byteSize } }`);
  const query = `query { repository(owner: ${JSON.stringify(location.owner)}, name: ${JSON.stringify(location.repo)}) { ${aliases.join(' ')} } }`;
  const what = `the files of ${location.owner}/${location.repo}`;
  const { data, errors } = await client.graphql(query, what);
  const repository = (data as { repository?: Record<string, unknown> | null } | null)?.repository;
  if (!repository) throw new UnexpectedAnswerError(what, errors[0]?.message ?? 'no repository in the answer');
  return batch.map((_, i) => {
    const blob = repository[`f${i}`] as { text?: unknown; isBinary?: unknown; isTruncated?: unknown } | null | undefined;
    return typeof blob?.text === 'string' && blob.isBinary !== true && blob.isTruncated !== true ? blob.text : null;
  });
}

async function readBlob(client: GitHubClient, location: RepoLocation, file: ListedFile): Promise<Uint8Array> {
  const { body } = await client.get(`${repoPath(location)}/git/blobs/${file.sha}`, `"${file.path}"`);
  const { content, encoding } = (body ?? {}) as { content?: unknown; encoding?: unknown };
  if (typeof content !== 'string' || encoding !== 'base64') throw new UnexpectedAnswerError(`"${file.path}"`, 'a blob without base64 content');
  try {
    return fromBase64(content);
  } catch {
    throw new CorruptFileError(file.path);
  }
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text.replace(/\s+/g, ''));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
