// Module resolution inside node_modules asks whether a dozen candidate paths exist for every require (each
// extension, index files, package.json): a real project's tools make ten thousand such checks, each a round trip to
// the host. Inside node_modules the answers come instead from one listing per folder, kept for the process (Node
// too keeps its resolution caches for the process's life): packages do not change under a running program. Any
// write the program makes drops the listings, so a file it writes and then requires is found.

type EntryKind = 'file' | 'dir' | 'symlink';

const listings = new Map<string, Map<string, EntryKind> | null>();

/**
 * What is at `path` from its folder's listing, when `path` is inside node_modules and is no link: 'file', 'dir' or
 * null (nothing there); undefined when the listing cannot tell (outside node_modules, or a link to follow).
 */
export function listedKind(path: string, readListing: (folder: string) => { name: string; type: string }[] | null): 'file' | 'dir' | null | undefined {
  if (!path.includes('/node_modules/')) return undefined;
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash) || '/';
  let listing = listings.get(folder);
  if (listing === undefined) {
    const entries = readListing(folder);
    listing = entries ? new Map(entries.map((entry) => [entry.name, entry.type === 'dir' ? 'dir' : entry.type === 'symlink' ? 'symlink' : 'file'])) : null;
    listings.set(folder, listing);
  }
  if (listing === null) return null;
  const kind = listing.get(path.slice(slash + 1));
  if (kind === undefined) return null;
  return kind === 'symlink' ? undefined : kind;
}

/** The program changed the file system: listings may be stale. */
export function forgetListings(): void {
  listings.clear();
}
