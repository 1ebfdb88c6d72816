// start:edge's front door on HOST:PORT: a node:http server that hands every request to the local workerd
// (on a loopback port of its own) with CF-Connecting-IP set to the client's address, as Cloudflare does.
// miniflare keeps a CF-Connecting-IP the client sent and fills in the socket's address only when there
// is none, so without this door any local client named its own quota bucket. A client-sent one is
// believed only from a peer in TRUST_PROXY (a tunnel or proxy of the operator's in front), as the Node
// gateway believes X-Forwarded-For (docs/deploying.md#cloudflare-workers).
import { Agent, createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isIP } from 'node:net';
import { normaliseAddress } from '../../builders/lib/client-address.ts';
import type { TrustedProxies } from '../quota/ip-ranges.ts';

/**
 * Connection-level fields, which describe one hop and are not forwarded (RFC 9110 §7.6.1: "a proxy or
 * gateway MUST ... remove any ... connection options" and Connection itself).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

/** The client a request comes from: a trusted peer's CF-Connecting-IP when it sent one address, else the peer. */
export function connectingIp(peer: string, header: string | string[] | undefined, trusted: TrustedProxies): string {
  const address = normaliseAddress(peer);
  if (!trusted.has(address) || typeof header !== 'string') return address;
  const claimed = header.trim();
  return isIP(claimed) === 0 ? address : claimed;
}

/** The conditional request fields, whose entity tags may be a coded answer's (codedAnswerHeaders). */
const CONDITIONS = new Set(['if-none-match', 'if-match', 'if-range']);
/** A coded answer's tag: the identity tag with the coding after it, as the Node gateway writes them. */
const CODED_TAG = /"([^"]*)-(?:gzip|br)"/g;

function forwardedHeaders(headers: IncomingHttpHeaders, client: string): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (HOP_BY_HOP.has(name)) continue;
    // The Worker and the asset router know the identity tags: a coded one is asked for as its identity's.
    out[name] = CONDITIONS.has(name) && typeof value === 'string' ? value.replace(CODED_TAG, '"$1"') : value;
  }
  out['cf-connecting-ip'] = client;
  return out;
}

/**
 * The headers of an answer workerd compressed. miniflare compresses as Cloudflare's edge does (gzip or
 * br for a compressible type the client accepts), but leaves the answer's `Vary` and its strong ETag as
 * they were, so a cache would hand the gzip bytes to a client that cannot read them, under the tag of
 * other bytes (RFC 9110 §8.8.3: a strong tag names one representation). A coded answer says it varies by
 * `Accept-Encoding` (RFC 9110 §12.5.5) and carries a tag of its own, the identity tag with the coding after
 * it (`"t-gzip"`), as the Node gateway's do; a request naming that tag is forwarded with the identity's.
 * Answers without a coding are left as they are.
 */
export function codedAnswerHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const coding = headers['content-encoding'];
  if (coding !== 'gzip' && coding !== 'br') return headers;
  const out: IncomingHttpHeaders = { ...headers };
  const vary = typeof headers.vary === 'string' ? headers.vary : '';
  if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary))
    out.vary = vary === '' ? 'Accept-Encoding' : `${vary}, Accept-Encoding`;
  const etag = headers.etag;
  if (typeof etag === 'string' && /^"[^"]*"$/.test(etag)) out.etag = `${etag.slice(0, -1)}-${coding}"`;
  return out;
}

export interface FrontDoor {
  /** http://host:port with the actual port. */
  url: string;
  close(): Promise<void>;
}

/** Listens on `host:port` and forwards to the workerd at `inner` (http://127.0.0.1:<port>). */
export async function startFrontDoor(
  host: string,
  port: number,
  inner: URL,
  trusted: TrustedProxies,
  onError: (line: string) => void,
): Promise<FrontDoor> {
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res) => {
    const client = connectingIp(req.socket.remoteAddress ?? '', req.headers['cf-connecting-ip'], trusted);
    const out = forward(
      {
        host: inner.hostname,
        port: inner.port,
        method: req.method,
        path: req.url,
        headers: forwardedHeaders(req.headers, client),
        agent,
      },
      (answer) => {
        const headers: IncomingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, codedAnswerHeaders(headers));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    out.on('error', (error) => {
      if (res.headersSent) return void res.destroy();
      onError(`local workerd did not answer: ${error.message}`);
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end('502 Bad Gateway\n');
    });
    // A client that goes away takes its request with it.
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          agent.destroy();
          resolve();
        });
        server.closeIdleConnections();
        // In-flight answers finish; what is still open after a moment is cut.
        setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, 1000).unref();
      }),
  };
}
