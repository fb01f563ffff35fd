// The branch a session's work is pushed to by default: `conch/` and its title as a slug, a name git accepts.

const MAX_SLUG = 48;

/** `conch/<title-slug>`: lowercase letters, digits and dashes; `conch/changes` for a title with none. */
export function branchNameFor(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return `conch/${slug || 'changes'}`;
}
