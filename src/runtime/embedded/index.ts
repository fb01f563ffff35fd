// The embedded runtime: just-bash over an in-memory file system, with Conch's dev box, runnable where WebContainer
// cannot boot. Its parts:
// - in-process.ts: the Runtime itself (tests and the worker use it directly), embedded-runtime.ts its public surface;
//   fork/: its copy-on-write forks (a worker subagent's own tree: the live file system keeps, for each open fork,
//   the entries it changes after the fork point, so taking one copies nothing); bash-session.ts: its shell session
//   (a command's run, the directory it carries on); memory-fs.ts, observed-fs.ts, memory-tree.ts and
//   search-index.ts: its file system as the shell, the watchers and the search see it; workspace-replacement.ts:
//   an import replacing the whole workdir; interruptible-loops.ts: the yield points that let an abort stop a tight
//   shell loop;
// - client.ts, protocol.ts, host.ts, worker.ts: the same runtime hosted in a Web Worker, as the page uses it, with
//   packed-files.ts for the files it transfers, worker-requests.ts for the page's answers to the worker, and
//   rollback-copy.ts to put the files back when a stuck worker has to be ended;
// - the dev box, as just-bash commands loaded on first use: shell/ (rg and grep -r over the runtime-side search),
//   node/ (a sandboxed engine with Node's API), npm/ (install from a registry, run, test, npx), git/ (just-git, the
//   imported baseline as its first commit).
export { createEmbeddedRuntime, DEFAULT_WORKDIR, type EmbeddedExecOptions, type EmbeddedRuntime, type EmbeddedRuntimeOptions } from './in-process';
