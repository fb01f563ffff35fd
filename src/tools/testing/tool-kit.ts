// Shared set-up for the tool tests: a real embedded runtime seeded with files, and result readers.
import type { AgentToolResult } from '../../agent/types';
import { errorText } from '../../ai/messages';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import type { Runtime } from '../../runtime/types';
import { resolvePath } from '../paths';

/** An embedded runtime whose workdir holds `files` (paths relative to the workdir). */
export async function runtimeWith(files: Record<string, string | Uint8Array> = {}): Promise<Runtime> {
  const runtime = await createEmbeddedRuntime();
  for (const [path, content] of Object.entries(files)) {
    await runtime.writeFile(resolvePath(runtime.workdir, path), content);
  }
  return runtime;
}

/** The text blocks of a result, joined. */
export function textOf(result: AgentToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** The message of the error `promise` rejects with (fails the test if it resolves). */
export async function errorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return errorText(error);
  }
  throw new Error('expected the tool call to fail, but it succeeded');
}

export async function readText(runtime: Runtime, path: string): Promise<string> {
  return new TextDecoder().decode(await runtime.readFile(resolvePath(runtime.workdir, path)));
}
