// Repairs the shapes real models send for edit calls before the loop validates them.

type PlainObject = Record<string, unknown>;

/**
 * Folds top-level oldText/newText into `edits` (appended last), wraps a single edit object into an array and parses
 * `edits` sent as a JSON string. Returns `raw` itself when nothing needed repair.
 */
export function prepareEditArguments(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  let edits: unknown = raw.edits;
  let changed = false;

  if (typeof edits === 'string') {
    const parsed = parseJson(edits);
    if (Array.isArray(parsed) || isRecord(parsed)) {
      edits = parsed;
      changed = true;
    }
  }
  if (isRecord(edits)) {
    edits = [edits];
    changed = true;
  }

  const hasTopLevel = 'oldText' in raw || 'newText' in raw;
  if (hasTopLevel && (edits === undefined || edits === null || Array.isArray(edits))) {
    const folded = { oldText: raw.oldText, newText: raw.newText };
    edits = Array.isArray(edits) ? [...edits, folded] : [folded];
    changed = true;
  }
  if (!changed) return raw;

  const repaired: PlainObject = { ...raw, edits };
  if (hasTopLevel && Array.isArray(edits)) {
    delete repaired.oldText;
    delete repaired.newText;
  }
  return repaired;
}

function isRecord(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
