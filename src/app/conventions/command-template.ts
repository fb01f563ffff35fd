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
