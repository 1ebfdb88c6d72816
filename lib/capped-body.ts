// Reading an HTTP body from someone else's server without trusting its size: streamed, and given up as
// soon as it passes a limit (or announces more with Content-Length), so a huge or endless answer costs
// at most that much memory. Shared by the upstream clients and the CLI, so it imports nothing: the CLI
// is bundled into one dependency-free file.

export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

export async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
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
  const coding = response.headers.get('content-encoding');
  if (length !== undefined && (coding === null || coding.trim() === 'identity'))
    return new Uint8Array(await response.arrayBuffer());
  const body = await readStreamCapped(response.body, maxBytes);
  if (body === undefined) throw new BodyTooLarge(`more than ${maxBytes} bytes received`);
  return body;
}

/**
 * A stream read whole, or undefined (and the stream cancelled) as soon as it passes `maxBytes`. Also
 * the gateway's core reads a request's body with it (gateway/core/http/web.ts).
 */
export async function readStreamCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
