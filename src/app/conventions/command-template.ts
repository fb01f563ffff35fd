// A command template (Claude Code's and Pi's custom slash commands): a Markdown file whose name is the command and
// whose text is the prompt, with optional front matter (`description`, `argument-hint`). Typing `/name args` sends
// the text with the arguments put in.
import { readFrontMatter } from './front-matter';
import type { ConventionSource } from './skill';

export type CommandTemplate = {
  /** The file's name without `.md`: typed as `/name`. */
  name: string;
  description: string;
  argumentHint: string;
  /** The template after the front matter. */
  body: string;
  source: ConventionSource;
  /** The file it came from (workdir-relative), or the name it was imported under. */
  path: string;
};

/** The template in `text`, the file `fileName` (e.g. `review.md`) at `path`. */
export function parseCommandTemplate(input: { fileName: string; path: string; text: string; source: ConventionSource }): CommandTemplate {
  const { data, body } = readFrontMatter(input.text);
  const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string).trim() : '');
  return {
    name: input.fileName.replace(/\.md$/i, ''),
    description: text('description'),
    argumentHint: text('argument-hint'),
    body,
    source: input.source,
    path: input.path,
  };
}

/**
 * `template` with its placeholders filled from `args` (what followed the command): `$ARGUMENTS` is all of it, `$1`…`$9`
 * the words (a "quoted phrase" is one), `${1:-default}` a word or, when missing or empty, its default. Any other `$` stays as written.
 */
export function expandTemplate(template: string, args: string): string {
  const words = splitArguments(args);
  const word = (n: string) => words[Number(n) - 1] ?? '';
  return template.replace(/\$\{([1-9]):-([^}]*)\}|\$ARGUMENTS|\$([1-9])/g, (match, braced: string | undefined, fallback: string | undefined, bare: string | undefined) => {
    if (braced !== undefined) return words[Number(braced) - 1] || (fallback ?? '');
    if (bare !== undefined) return word(bare);
    return args.trim();
  });
}

/** The words of `args`; double or single quotes keep a phrase together (without the quotes). */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  for (const match of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}
