// Where a JSON text stops being JSON, for the errors V8's JSON.parse reports without a position ("Unexpected token
// 'N', … is not valid JSON", "Unexpected end of JSON input"). A small iterative scanner (no recursion, so any depth),
// run only after JSON.parse has failed. A text that could still become JSON ends early: its error is at its end.

const number = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const numberPrefix = /-?[0-9]*(?:\.[0-9]*)?(?:[eE][+-]?[0-9]*)?/y;
const literals = ['true', 'false', 'null'];
const hexDigit = /[0-9a-fA-F]/;

/** Past the string whose quote is at `i`; or, negated minus one, the offset of what breaks it. */
function scanString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c < 0x20) return -j - 1;
    if (c !== 0x5c) continue;
    const escape = text[j + 1];
    if (escape === undefined) break;
    if (escape === 'u') {
      for (let k = j + 2; k < j + 6; k++) {
        if (k >= text.length) return -text.length - 1;
        if (!hexDigit.test(text[k]!)) return -k - 1;
      }
      j += 5;
    } else if ('"\\/bfnrt'.includes(escape)) j++;
    else return -(j + 1) - 1;
  }
  return -text.length - 1;
}

/** Past the number or literal at `i`; or, negated minus one, where it breaks. */
function scanScalar(text: string, i: number): number {
  for (const literal of literals) {
    if (text.startsWith(literal, i)) return i + literal.length;
    if (i < text.length && literal.startsWith(text.slice(i))) return -text.length - 1;
  }
  number.lastIndex = i;
  const strict = number.test(text) ? number.lastIndex : i;
  numberPrefix.lastIndex = i;
  const loose = numberPrefix.test(text) ? numberPrefix.lastIndex : i;
  if (loose > strict && loose === text.length) return -text.length - 1; // a number cut short: `-`, `1.`, `2e`
  return strict > i ? strict : -i - 1;
}

/** The offset of the first character of `text` that cannot continue a JSON text (text.length when it ends early),
 *  or -1 when `text` is valid JSON. */
export function jsonErrorOffset(text: string): number {
  const open: ('}' | ']')[] = [];
  let i = 0;
  let expect: 'value' | 'key' | 'after' = 'value';
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  for (;;) {
    skipSpace();
    if (expect === 'value') {
      const c = text[i];
      if (c === '{' || c === '[') {
        open.push(c === '{' ? '}' : ']');
        i++;
        skipSpace();
        if (text[i] === open.at(-1)) {
          i++;
          open.pop();
          expect = 'after';
        } else expect = c === '{' ? 'key' : 'value';
        continue;
      }
      const end = c === '"' ? scanString(text, i) : scanScalar(text, i);
      if (end < 0) return -end - 1;
      i = end;
      expect = 'after';
    } else if (expect === 'key') {
      if (text[i] !== '"') return i;
      const end = scanString(text, i);
      if (end < 0) return -end - 1;
      i = end;
      skipSpace();
      if (text[i] !== ':') return i;
      i++;
      expect = 'value';
    } else {
      const close = open.at(-1);
      if (close === undefined) return i < text.length ? i : -1;
      if (text[i] === ',') {
        i++;
        expect = close === '}' ? 'key' : 'value';
      } else if (text[i] === close) {
        i++;
        open.pop();
      } else return i;
    }
  }
}
