// RESP2, the Redis wire protocol (https://redis.io/docs/latest/develop/reference/protocol-spec/), as far
// as the quota needs it: commands out as arrays of bulk strings, replies in through a reader that caps
// what one reply may hold. Pure: bytes in, values or a RespError out; the connection is elsewhere.

export type Reply =
  | { type: 'simple'; value: string }
  | { type: 'error'; message: string }
  | { type: 'integer'; value: number }
  | { type: 'bulk'; value: Buffer | null }
  | { type: 'array'; items: Reply[] | null };

/** The peer broke the protocol or a limit: the stream cannot be trusted past this point. */
export class RespError extends Error {
  override readonly name = 'RespError';
}

export interface ReplyLimits {
  /** Longest line of a simple string, error or integer, and longest bulk string, in bytes. */
  maxString: number;
  /** Most elements of one array. */
  maxArray: number;
  /** Deepest nesting of arrays (1: an array of scalars). */
  maxDepth: number;
}

/** A command as RESP2 sends it: an array of bulk strings (lengths in bytes, not characters). */
export function encodeCommand(args: readonly string[]): string {
  let out = `*${args.length}\r\n`;
  for (const arg of args) out += `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`;
  return out;
}

const CR = 13;
const LF = 10;
/** An integer reply is at most a sign and the digits of a safe integer. */
const INTEGER = /^-?\d{1,16}$/;
/** Marks an incomplete reply inside the parser; never escapes it. */
const MORE = Symbol('more');

/**
 * Splits a byte stream into replies. `push` returns every reply completed by the chunk and keeps the
 * incomplete rest; it throws a RespError on a malformed reply or one past `limits` (an endless bulk
 * string `$999999999` is refused at its header, before a byte of it is held). Arrays are assembled
 * element by element, so each byte is read once and at most one incomplete element is buffered: what
 * one reply may hold is bounded by maxArray^maxDepth elements of maxString bytes each.
 */
export function replyReader(limits: ReplyLimits): { push(chunk: Buffer): Reply[] } {
  let buffer: Buffer = Buffer.alloc(0);
  let offset = 0;
  /** The arrays being filled, outermost first. */
  const open: { items: Reply[]; remaining: number }[] = [];

  const line = (): string | typeof MORE => {
    const end = buffer.indexOf(LF, offset);
    if (end === -1) {
      if (buffer.length - offset > limits.maxString + 2) throw new RespError('a reply line is too long');
      return MORE;
    }
    if (end - offset > limits.maxString + 2) throw new RespError('a reply line is too long');
    if (end === offset || buffer[end - 1] !== CR) throw new RespError('a reply line does not end in CRLF');
    const text = buffer.toString('latin1', offset, end - 1);
    offset = end + 1;
    return text;
  };

  const length = (text: string, max: number, what: string): number => {
    if (!INTEGER.test(text)) throw new RespError(`a ${what} length is not a number`);
    const n = Number(text);
    if (n < -1) throw new RespError(`a ${what} length is negative`);
    if (n > max) throw new RespError(`a ${what} of ${n} is more than the ${max} allowed`);
    return n;
  };

  /** One scalar, or the header of an array (then `open` grows and undefined is returned). */
  const element = (): Reply | undefined | typeof MORE => {
    if (offset >= buffer.length) return MORE;
    const kind = buffer[offset]!;
    offset++;
    const text = line();
    if (text === MORE) return MORE;
    switch (kind) {
      case 0x2b: // '+'
        return { type: 'simple', value: text };
      case 0x2d: // '-'
        return { type: 'error', message: text };
      case 0x3a: // ':'
        if (!INTEGER.test(text) || !Number.isSafeInteger(Number(text)))
          throw new RespError('an integer reply is no integer');
        return { type: 'integer', value: Number(text) };
      case 0x24: {
        // '$'
        const n = length(text, limits.maxString, 'bulk string');
        if (n === -1) return { type: 'bulk', value: null };
        if (buffer.length - offset < n + 2) return MORE;
        if (buffer[offset + n] !== CR || buffer[offset + n + 1] !== LF)
          throw new RespError('a bulk string does not end in CRLF');
        const value = Buffer.from(buffer.subarray(offset, offset + n));
        offset += n + 2;
        return { type: 'bulk', value };
      }
      case 0x2a: {
        // '*'
        const n = length(text, limits.maxArray, 'array');
        if (n === -1) return { type: 'array', items: null };
        if (n === 0) return { type: 'array', items: [] };
        if (open.length >= limits.maxDepth) throw new RespError('arrays are nested too deeply');
        open.push({ items: [], remaining: n });
        return undefined;
      }
      default:
        throw new RespError(`a reply starts with byte 0x${kind.toString(16).padStart(2, '0')}, no RESP2 type`);
    }
  };

  return {
    push(chunk) {
      buffer = offset < buffer.length ? Buffer.concat([buffer.subarray(offset), chunk]) : chunk;
      offset = 0;
      const out: Reply[] = [];
      for (;;) {
        const start = offset;
        let done = element();
        if (done === MORE) {
          // Only the incomplete element is kept (at most a line or a bulk string of maxString bytes).
          offset = start;
          return out;
        }
        while (done !== undefined) {
          const parent = open.at(-1);
          if (parent === undefined) {
            out.push(done);
            break;
          }
          parent.items.push(done);
          if (--parent.remaining > 0) break;
          open.pop();
          done = { type: 'array', items: parent.items };
        }
      }
    },
  };
}
