// The one bound on JSON that someone else wrote, checked before anything walks it: JSON.parse,
// JSON.stringify, schema validation and comparison all recurse, or build what the bytes describe, and
// bytes do not bound either: 8 MB of "[" is four million nested arrays. The CLI once reached 514 MB of
// memory on such an answer, and a previous snapshot nested 500,000 deep overflowed the build's stack.
// So the text is scanned first, in one pass that allocates nothing, and refused when it nests deeper or
// holds more values than any document of the site does. Used by the CLI (builders/cli/json-body.ts), the build's
// previous snapshots (builders/build/previous.ts) and the site file (builders/lib/config.ts).

/** The site's documents nest less than 16 deep (the OpenAPI contract is the deepest). */
export const MAX_JSON_DEPTH = 64;
/** Arrays, objects and comma-separated members: the calendar holds about 1,500, the contract a few thousand. */
export const MAX_JSON_VALUES = 100_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/** Why `text` is refused before parsing, or null. Linear in the text; strings are skipped whole. */
export function jsonBoundExceeded(text: string): string | null {
  let depth = 0;
  let values = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string: a backslash escapes the next character, whatever it is.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > MAX_JSON_DEPTH) return `it nests deeper than ${MAX_JSON_DEPTH} levels`;
      values++;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    } else if (c === COMMA) {
      values++;
    }
    if (values > MAX_JSON_VALUES) return `it holds more than ${MAX_JSON_VALUES} values`;
  }
  return null;
}
