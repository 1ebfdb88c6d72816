// One exchange in the core's own forms: what it reads of a request (node's IncomingMessage has these
// fields as they are; a web Request is read into them), and the prepared answer it decides, which each
// runtime writes its own way (Node writes the list to its socket as it is; a Worker wraps it in a Response).
import type { QuotaOutcome } from '../quota.ts';

/** Header values by lower-case name, repeated fields joined (as node:http gives them). */
export type CoreHeaders = Readonly<Record<string, string | undefined>>;

/** What the core reads of a request. */
export interface CoreRequest {
  method: string;
  /** The request target as sent: "/path?query" (or the absolute form). */
  url: string;
  headers: CoreHeaders;
}

/** The client's quota key, or null when the runtime could not tell who it is (served without quota). */
export type ClientKey = string | null;
/** The client's key, or how to learn it from the request: asked only when a quota counts the request. */
export type ClientOf = ClientKey | ((req: CoreRequest) => ClientKey);
/** Reads a request's body up to `maxBytes`: undefined when it is longer. Only /mcp reads one. */
export type BodyOf = (req: CoreRequest, maxBytes: number) => Promise<Uint8Array | undefined>;

export interface Prepared {
  status: number;
  /** A flat [name, value, …] list, every header of the response. */
  headers: readonly string[];
  /** The body of a GET (the adapter sends none for HEAD, 204 and 304). */
  body?: Uint8Array;
  /** What the quota made of the request (the access log's field); absent off the quota's routes. */
  quota?: QuotaOutcome;
}

/** A prepared answer with extra headers after its own (RateLimit, Retry-After). */
export function withHeaders(answer: Prepared, extra: readonly string[] | undefined, quota?: QuotaOutcome): Prepared {
  const headers = extra === undefined || extra.length === 0 ? answer.headers : [...answer.headers, ...extra];
  return { status: answer.status, headers, body: answer.body, quota };
}
