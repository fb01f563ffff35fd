// A long, varied Markdown answer of a given number of tokens, as a model might stream it: headings, paragraphs
// with inline code and emphasis, lists, fenced code, tables, quotes. A "token" here is one word with its trailing
// whitespace: about seven characters, more than the four of a real tokenizer, so the bench errs on the heavy side.

const WORDS = (
  'the agent reads each file before editing it and keeps the change small so that a reviewer can follow ' +
  'every step of the plan while tests run in the sandbox and the transcript shows what happened'
).split(' ');

const CODE = [
  'export function parseConfig(text: string): Config {',
  '  const lines = text.split("\\n").filter((line) => line.trim() !== "");',
  '  const entries = lines.map((line) => line.split("=", 2) as [string, string]);',
  '  return Object.fromEntries(entries.map(([key, value]) => [key.trim(), value?.trim() ?? ""]));',
  '}',
];

/** Markdown of at least `tokens` tokens, deterministic for a given count. */
export function markdownAnswer(tokens: number): string {
  let seed = 7;
  const next = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed % n;
  };
  const sentence = (length: number) => {
    const words: string[] = [];
    for (let i = 0; i < length; i++) {
      const word = WORDS[next(WORDS.length)];
      const style = next(20);
      words.push(style === 0 ? `\`${word}()\`` : style === 1 ? `**${word}**` : style === 2 ? `_${word}_` : word);
    }
    const text = words.join(' ');
    return text[0].toUpperCase() + text.slice(1) + '.';
  };

  const parts: string[] = [];
  let count = 0;
  let section = 0;
  while (count < tokens) {
    let part: string;
    switch (section++ % 6) {
      case 0:
        part = `## Step ${section}: ${sentence(4).slice(0, -1)}\n\n${sentence(14)} ${sentence(18)} ${sentence(12)}\n\n`;
        break;
      case 1:
        part = Array.from({ length: 5 }, () => `- ${sentence(9)}`).join('\n') + '\n\n';
        break;
      case 2:
        part = '```ts\n' + Array.from({ length: 3 }, () => CODE.join('\n')).join('\n\n') + '\n```\n\n';
        break;
      case 3:
        part = '| file | change | lines |\n|---|---|---|\n' +
          Array.from({ length: 6 }, (_, i) => `| \`src/module${next(90)}.ts\` | ${sentence(5)} | ${10 + i * next(30)} |`).join('\n') + '\n\n';
        break;
      case 4:
        part = `> ${sentence(16)}\n\n1. ${sentence(8)}\n2. ${sentence(10)}\n3. ${sentence(7)}\n\n`;
        break;
      default:
        part = `${sentence(22)} ${sentence(15)} ${sentence(20)} ${sentence(11)}\n\n`;
    }
    parts.push(part);
    count += splitTokens(part).length;
  }
  return parts.join('');
}

/** The answer cut into tokens (word plus trailing whitespace); joined, they give back the text. */
export function splitTokens(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}
