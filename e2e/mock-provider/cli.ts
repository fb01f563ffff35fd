// `npm run mock-provider -- [--port 4010] [--script turns.json]`: runs the mock provider until interrupted.
import { readFileSync } from 'node:fs';
import { parseScript, type MockTurn } from './script';
import { startMockProvider } from './server';

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const port = Number(argument('--port') ?? 4010);
const scriptPath = argument('--script');
let script: MockTurn[] = [];
if (scriptPath) {
  try {
    script = parseScript(JSON.parse(readFileSync(scriptPath, 'utf8')));
  } catch (error) {
    console.error(`Could not load the script ${scriptPath}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

const mock = await startMockProvider({ port, script });
console.log(`Mock provider listening on ${mock.url}`);
console.log(`  Anthropic / Gemini base URL: ${mock.url}    OpenAI base URL: ${mock.url}/v1`);
console.log(`  ${script.length} scripted turn(s). Control: POST ${mock.url}/__mock/script, GET /__mock/requests, POST /__mock/reset`);
const stop = () => void mock.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
