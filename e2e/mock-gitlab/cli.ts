// `node --import tsx e2e/mock-gitlab/cli.ts [--files 2000] [--latency 30] [--private]`: runs the mock GitLab with one
// generated project, group/sub/sample, until interrupted.
import { manyFiles } from '../mock-github/sample-repos';
import type { MockGitLabFile } from './fixture';
import { startMockGitLab } from './server';

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const files = Number(argument('--files') ?? 200);
// The GitHub mock's generator makes only plain files, which GitLab's mock takes as they are.
const sample = manyFiles(files).filter((file): file is MockGitLabFile & { data: string | Uint8Array } => 'data' in file);
const mock = await startMockGitLab({
  latencyMs: Number(argument('--latency') ?? 0),
  projects: [{ namespace: 'group/sub', name: 'sample', private: process.argv.includes('--private'), branches: { main: sample } }],
});
console.log(`Mock GitLab: ${mock.baseUrl} (API ${mock.baseUrl}/api/v4)`);
console.log(`  group/sub/sample: ${files} files on main; token glpat-mock`);
const stop = () => void mock.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
