// The key of one `name=value` pair of a page address's query or hash, decoded as a browser would read it.

/** The pair's key, `+` read as a space and percent-decoded (left as it is when its escapes are broken). */
export function queryKey(pair: string): string {
  const key = pair.split('=', 1)[0].replace(/\+/g, ' ');
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}
