// A push's record as the session keeps it (SessionRecord.pushRecord), read back defensively: the store checks only
// the envelope, so the host client's own record is checked here, field by field, before a push is given it. A record
// made for another host or another imported commit (the session imported again since) is no record of this push.
import type { MergeRequestRecord, PushRecord } from '../../../remote';
import type { RepoOrigin, StoredPushRecord } from '../../../store';

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';
const optionalText = (v: unknown) => v === undefined || isText(v);

/** The GitHub record stored for `origin`, when it is one and whole. */
export function githubRecordFor(stored: StoredPushRecord | undefined, origin: RepoOrigin): PushRecord | undefined {
  if (!stored || stored.host !== 'github' || stored.base !== origin.sha) return undefined;
  const r = stored.record;
  if (!isObject(r.target) || !isText(r.target.owner) || !isText(r.target.repo) || !isText(r.branch)) return undefined;
  if (!Array.isArray(r.blobs) || !r.blobs.every(isText) || !optionalText(r.baseTree) || !optionalText(r.pushed)) return undefined;
  if (r.tree !== undefined && !(isObject(r.tree) && isText(r.tree.key) && isText(r.tree.sha))) return undefined;
  if (r.commit !== undefined && !(isObject(r.commit) && isText(r.commit.sha) && isText(r.commit.tree) && isText(r.commit.parent))) return undefined;
  if (r.pullRequest !== undefined && !(isObject(r.pullRequest) && typeof r.pullRequest.number === 'number' && isText(r.pullRequest.url))) return undefined;
  return structuredClone(r) as PushRecord;
}

/** The GitLab record stored for `origin`, when it is one and whole. */
export function gitlabRecordFor(stored: StoredPushRecord | undefined, origin: RepoOrigin): MergeRequestRecord | undefined {
  if (!stored || stored.host !== 'gitlab' || stored.base !== origin.sha) return undefined;
  const r = stored.record;
  if (!isText(r.project) || !isText(r.branch) || !optionalText(r.pushed) || !isObject(r.files)) return undefined;
  const fileOk = (f: unknown) => isObject(f) && typeof f.present === 'boolean' && typeof f.id === 'string' && typeof f.inBaseline === 'boolean';
  if (!Object.values(r.files).every(fileOk)) return undefined;
  if (r.mergeRequest !== undefined && !(isObject(r.mergeRequest) && typeof r.mergeRequest.iid === 'number' && isText(r.mergeRequest.url))) return undefined;
  return structuredClone(r) as MergeRequestRecord;
}

/** What the session stores for a host client's record made from `origin`. */
export function storedRecord(origin: RepoOrigin, record: PushRecord | MergeRequestRecord): StoredPushRecord {
  return { host: origin.host, base: origin.sha, record: structuredClone(record) as unknown as Record<string, unknown> };
}

/** The branch and request link an earlier push left, for the form's defaults. */
export function earlierPush(stored: StoredPushRecord | undefined, origin: RepoOrigin): { branch: string; url?: string; number?: number } | null {
  const github = githubRecordFor(stored, origin);
  if (github) return { branch: github.branch, url: github.pullRequest?.url, number: github.pullRequest?.number };
  const gitlab = gitlabRecordFor(stored, origin);
  if (gitlab) return { branch: gitlab.branch, url: gitlab.mergeRequest?.url, number: gitlab.mergeRequest?.iid };
  return null;
}
