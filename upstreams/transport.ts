// How one GET reaches an upstream: the request goes out, the status and headers come back, and the body
// is read only as far as a cap allows. The rules around it (deadline, retries, redirects, error text) are
// upstreams/http.ts's, the same on every runtime; the transport is the runtime's. `fetchTransport` runs
// anywhere `fetch` does (a Cloudflare Worker); Node's programs use node-transport.ts, which makes no web
// Request, Headers or Response per call: on the gateway's market route, which fetches the ticker for every
// request, those objects were most of what the route added over the provider (docs/performance.md).
import { BodyTooLarge, readCapped } from '../lib/capped-body.ts';

export { BodyTooLarge };

/** An upstream's answer, its body not yet read. */
export interface TransportAnswer {
  status: number;
  /** A header's value by its lower-case name (several lines joined with ", "), or null. */
  header(name: string): string | null;
  /**
   * The body, decoded from its Content-Encoding, read whole; rejects with BodyTooLarge as soon as it
   * (or its declared length) passes `maxBytes`, and with the signal's error once the signal fires.
   */
  read(maxBytes: number): Promise<Uint8Array<ArrayBuffer>>;
  /** The body is not wanted: the connection gives it up. */
  discard(): void;
}

/**
 * One GET of `url` with `headers`; never follows a redirect (a 3xx is an answer like any other). Rejects
 * when no answer came (a refused or dropped connection), and with the signal's error once it fires.
 */
export type Transport = (
  url: string,
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal,
) => Promise<TransportAnswer>;

/** The transport of every runtime with `fetch`; it decodes compressed answers itself. */
export const fetchTransport: Transport = async (url, headers, signal) => {
  const response = await fetch(url, { headers, signal, redirect: 'manual' });
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    read: (maxBytes) => readCapped(response, maxBytes),
    discard: () => void response.body?.cancel().catch(() => undefined),
  };
};
