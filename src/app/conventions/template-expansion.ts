// A command template's placeholders filled from what followed the command (Claude Code's `$ARGUMENTS`, Pi's `$1`
// and `${1:-default}`).

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
