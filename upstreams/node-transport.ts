// The upstream transport of Node's programs (the build and the gateway): node:http and node:https over
// one keep-alive agent each, so the provider's connection is reused from one ticker to the next. It makes
// no web Request, Headers or Response: measured side by side, a bare proxy on node:http adds about half
// of what the same proxy adds on fetch (docs/performance.md). Compressed answers are decoded here, and the
// cap counts decoded bytes, so a small gzip that inflates to gigabytes stops at the cap.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BodyTooLarge, type Transport, type TransportAnswer } from './transport.ts';

// Idle pooled sockets are unref'd by the agent: they never keep a finished build alive.
const HTTP_AGENT = new HttpAgent({ keepAlive: true });
const HTTPS_AGENT = new HttpsAgent({ keepAlive: true });

/** What fetch asks for too; each is decoded below. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

export const nodeTransport: Transport = (url, headers, signal) =>
  new Promise<TransportAnswer>((resolve, reject) => {
    const https = url.startsWith('https:');
    const request = (https ? httpsRequest : httpRequest)(url, {
      agent: https ? HTTPS_AGENT : HTTP_AGENT,
      headers: { 'accept-encoding': ACCEPT_ENCODING, ...headers },
      signal,
    });
    // A listener for good: an error after the answer came (the socket reset) must not go uncaught.
    request.on('error', reject);
    request.once('response', (res) => resolve(answerOf(res, signal)));
    request.end();
  });

function answerOf(res: IncomingMessage, signal: AbortSignal): TransportAnswer {
  return {
    status: res.statusCode ?? 0,
    header(name) {
      const value = res.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    read: (maxBytes) => readWhole(res, maxBytes, signal),
    discard: () => void res.destroy(),
  };
}

function decoded(res: IncomingMessage): Readable {
  const coding = (res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? createGunzip()
      : coding === 'br'
        ? createBrotliDecompress()
        : coding === 'deflate'
          ? createInflate()
          : undefined;
  if (decoder === undefined) {
    if (coding !== 'identity') throw new Error(`unsupported Content-Encoding "${coding.slice(0, 40)}"`);
    return res;
  }
  res.once('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}

function readWhole(res: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    // The first outcome is the answer's: destroying the response emits events of its own.
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error);
      res.destroy();
    };
    if (signal.aborted) return fail(signal.reason);
    const declared = res.headers['content-length'];
    if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes)
      return fail(new BodyTooLarge(`Content-Length ${declared}`));
    let body: Readable;
    try {
      body = decoded(res);
    } catch (error) {
      return fail(error);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal.removeEventListener('abort', onAbort);
    body.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total <= maxBytes) return void chunks.push(chunk);
      settle();
      if (body !== res) body.destroy();
      fail(new BodyTooLarge(`more than ${maxBytes} bytes received`));
    });
    body.once('end', () => {
      settle();
      // A body cut short by the server (its declared length not reached) is not a body.
      if (!res.complete) return fail(new Error('the connection closed before the answer ended'));
      settled = true;
      const whole = new Uint8Array(total);
      let at = 0;
      for (const chunk of chunks) {
        whole.set(chunk, at);
        at += chunk.length;
      }
      resolve(whole);
    });
    body.on('error', (error) => {
      settle();
      fail(error);
    });
    res.once('aborted', () => {
      settle();
      fail(new Error('the connection closed before the answer ended'));
    });
  });
}
