// `node --import tsx e2e/mock-github/cli.ts [--files 2000] [--latency 30] [--private]`: runs the mock GitHub with one
// generated repository, octo/sample, until interrupted.
import { manyFiles } from './sample-repos';
import { startMockGitHub } from './server';

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const files = Number(argument('--files') ?? 200);
const mock = await startMockGitHub({
  latencyMs: Number(argument('--latency') ?? 0),
  repos: [{ owner: 'octo', name: 'sample', private: process.argv.includes('--private'), branches: { main: manyFiles(files) } }],
});
console.log(`Mock GitHub: API ${mock.apiUrl}  GraphQL ${mock.graphqlUrl}  raw ${mock.rawUrl}`);
console.log(`  octo/sample: ${files} files on main; token ghp_mock`);
const stop = () => void mock.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
