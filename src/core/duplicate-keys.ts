// A key given twice in one object of a JSON text, which JSON.parse resolves silently (the last one wins). Both scans
// read text JSON.parse has accepted (valid JSON) and jump from quote to quote: `keyCount` counts the keys of the text,
// to compare with those of the parsed value (equal: no key was lost, the common case, cheap); `duplicateKey` finds
// which key it was and where, and runs only when they differ.

/** Past the string whose opening quote is at `start` (the offset after its closing quote). */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return end + 1;
    end = text.indexOf('"', end + 1);
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Past the whitespace at `i`. */
function skipSpace(text: string, i: number): number {
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** How many object keys the JSON text `text` has (every string followed by a colon is one). */
export function keyCount(text: string): number {
  let count = 0;
  for (let start = text.indexOf('"'); start >= 0;) {
    const after = skipSpace(text, stringEnd(text, start));
    if (text.charCodeAt(after) === 0x3a) count++;
    start = text.indexOf('"', after);
  }
  return count;
}

interface DuplicateKey {
  key: string;
  /** Offset in the text of the second occurrence's opening quote. */
  offset: number;
}

/** The first key that the JSON text `text` gives twice in one object, or undefined. */
export function duplicateKey(text: string): DuplicateKey | undefined {
  // One entry per open object (its keys so far) or array (null).
  const open: (Set<string> | null)[] = [];
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) open.push(new Set());
    else if (c === 0x5b /* [ */) open.push(null);
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) open.pop();
    else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const after = skipSpace(text, end);
      const keys = open.at(-1);
      if (keys && text.charCodeAt(after) === 0x3a) {
        const key = JSON.parse(text.slice(i, end)) as string;
        if (keys.has(key)) return { key, offset: i };
        keys.add(key);
      }
      i = after;
      continue;
    }
    i++;
  }
  return undefined;
}
