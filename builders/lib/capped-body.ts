// Reading an HTTP body from someone else's server without trusting its size: streamed, and given up as
// soon as it passes a limit (or announces more with Content-Length), so a huge or endless answer costs
// at most that much memory. Shared by the upstream clients and the CLI, so it imports nothing: the CLI
// is bundled into one dependency-free file.

export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

/**
 * The body of `response`, read whole; BodyTooLarge as soon as it (or its declared length) passes
 * `maxBytes`. Given a `signal`, the read ends with the signal's reason once it fires, the body cancelled:
 * the caller's own deadline, held by the caller, rather than whichever signal the fetch was given
 * (ky's request signals follow the caller's weakly, and garbage collection may take them mid-body).
 */
export async function readCapped(
  response: Response,
  maxBytes: number,
  signal?: AbortSignal | null,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = response.headers.get('content-length');
  const length = declared !== null && /^\d+$/.test(declared.trim()) ? Number(declared) : undefined;
  if (length !== undefined && length > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(`Content-Length ${declared}`);
  }
  if (response.body === null) return new Uint8Array(0);
  // A declared length within the cap is a bound the HTTP framing enforces (a body longer than its
  // Content-Length is not read as this body), so it is read whole, without a loop of stream reads.
  // Not when it is compressed: fetch decodes it, and the length counts the compressed bytes.
  // With a signal it is read as a stream all the same: a locked body cannot be cancelled from outside.
  const coding = response.headers.get('content-encoding');
  if (!signal && length !== undefined && (coding === null || coding.trim() === 'identity'))
    return new Uint8Array(await response.arrayBuffer());
  const body = await readStreamCapped(response.body, maxBytes, signal);
  if (body === undefined) throw new BodyTooLarge(`more than ${maxBytes} bytes received`);
  return body;
}

/**
 * A stream read whole, or undefined (and the stream cancelled) as soon as it passes `maxBytes`; with a
 * `signal`, rejected with its reason (and the stream cancelled) once it fires. Also the gateway's core
 * reads a request's body with it (gateway/core/http/web.ts).
 */
export async function readStreamCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  signal?: AbortSignal | null,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  signal?.throwIfAborted();
  const reader = stream.getReader();
  // A cancelled reader's pending read ends as if the stream had: the signal is checked after each read.
  const cancel = () => void reader.cancel(signal!.reason).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        void reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
