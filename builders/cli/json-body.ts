// JSON from the site, parsed within a memory bound. The body is capped in bytes already (http.ts), but
// bytes do not bound what JSON.parse builds from them: the text is checked against the shared bound
// first (builders/lib/json-bound.ts), and only then parsed. A refusal is an UnexpectedBody (exit 1, one line).
import { jsonBoundExceeded } from '../lib/json-bound.ts';
import { UnexpectedBody } from './errors.ts';

export { jsonBoundExceeded, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../lib/json-bound.ts';

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
