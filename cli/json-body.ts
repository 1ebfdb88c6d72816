// JSON from the site, parsed within a memory bound. The body is capped in bytes already (http.ts), but
// bytes do not bound what JSON.parse builds from them: 8 MB of "[" is four million nested arrays, and
// the CLI once reached 514 MB of memory on such an answer. So the text is scanned first, in one pass
// that allocates nothing, and refused when it nests deeper or holds more values than any document of
// the site does; only then is it parsed. A refusal is an UnexpectedBody (exit 1, one line).
import { UnexpectedBody } from './errors.ts';

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

/** The JSON value of `text`; `what` names the document in the refusal ("the market preview"). */
export function parseJson(text: string, what: string): unknown {
  const exceeded = jsonBoundExceeded(text);
  if (exceeded !== null) throw new UnexpectedBody(`${what} is refused unparsed: ${exceeded}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UnexpectedBody(`${what} is not JSON`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON object, or an UnexpectedBody. */
export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  const value = parseJson(text, what);
  if (!isObject(value)) throw new UnexpectedBody(`${what} is not a JSON object`);
  return value;
}
