// Between web Request/Response and the core's own forms, for runtimes that speak fetch (a Worker, the
// tests' in-process calls): the request's target, its body read under a cap, and a Prepared as a Response.
import { readStreamCapped } from '../../../builders/lib/capped-body.ts';
import type { Prepared } from './exchange.ts';

/** The request target of an absolute URL: its path and query ("/a?b"), as an HTTP/1.1 request line has it. */
export function targetOf(url: string): string {
  const scheme = url.indexOf('://');
  const slash = scheme < 0 ? url.indexOf('/') : url.indexOf('/', scheme + 3);
  return slash < 0 ? '/' : url.slice(slash);
}

/** The body, or undefined when it announces or turns out to be longer than `maxBytes`. */
export async function readRequestBody(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) return undefined;
  if (request.body === null) return new Uint8Array(0);
  return readStreamCapped(request.body, maxBytes);
}

/**
 * RFC 9110 §7.6.1: Connection is hop-by-hop; it tells Node's socket to close after an answer and means
 * nothing to a runtime that owns its connections.
 */
const HOP_BY_HOP = 'connection';

/** A Prepared as a web Response: no body for HEAD, 204 and 304 (RFC 9110 §9.3.2, §15.3.5, §15.4.5). */
export function toResponse(method: string, answer: Prepared): Response {
  const headers = new Headers();
  const list = answer.headers;
  for (let i = 0; i < list.length; i += 2)
    if (list[i]!.toLowerCase() !== HOP_BY_HOP) headers.append(list[i]!, list[i + 1]!);
  const bodyless = method === 'HEAD' || answer.status === 204 || answer.status === 304;
  return new Response(bodyless || answer.body === undefined ? null : (answer.body as Uint8Array<ArrayBuffer>), {
    status: answer.status,
    headers,
  });
}
