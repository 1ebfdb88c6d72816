// Text to bytes and back with the web's encoders, which every runtime has (Node's Buffer is Node's own).
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 bytes of a string. */
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** The string of UTF-8 bytes. */
export const text = (bytes: Uint8Array): string => decoder.decode(bytes);

/** Bytes laid end to end. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.byteLength;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.byteLength;
  }
  return out;
}
