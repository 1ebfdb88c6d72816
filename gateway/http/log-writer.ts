// Writes log output to a file descriptor without ever blocking the event loop. process.stdout on a
// pipe is synchronous on Linux: a reader that stops reading would freeze every request once the pipe
// buffer fills. Here one write at a time runs on libuv's thread pool, output queues behind it, and
// past `maxQueuedBytes` new lines are dropped (and counted) rather than held without bound.
import { write as fsWrite } from 'node:fs';

export interface LogWriter {
  write(chunk: string): void;
  /** Resolves when everything queued was written, or after `timeoutMs`. */
  drain(timeoutMs?: number): Promise<void>;
}

/**
 * How long a line may wait for others before a write starts. Under load the access log hands over a
 * line per request, many each turn of the event loop; one write call per turn was nearly a tenth of the
 * snapshot route's CPU. Gathering for a few milliseconds makes it one call per interval (like nginx's
 * `access_log … flush=`), and a line still reaches the log within a blink.
 */
export const GATHER_MS = 5;

/** The size of a buffer that takes output; one grows (doubling) for a burst and is let go after it. */
const BUFFER_BYTES = 64 * 1024;
/** UTF-8 takes at most 3 bytes for one UTF-16 code unit (a surrogate pair, two units, takes 4). */
const MOST_BYTES_PER_UNIT = 3;

/**
 * Output is copied into a buffer as it comes, not held as strings until the write: under load the
 * strings of 5 ms of lines, joined and then encoded, were a share of the access log's cost. Two buffers
 * take turns: one is being written while the other takes output.
 */
export function fdWriter(fd: number, maxQueuedBytes = 8 * 1024 * 1024): LogWriter {
  let gathering: NodeJS.Timeout | undefined;
  let staged: Buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  /** Bytes of `staged` that wait to be written. */
  let length = 0;
  /** The buffer of the last finished write, taken again for output. */
  let spare: Buffer | undefined;
  let writing = false;
  let dropped = 0;
  let broken = false;
  let waiters: Array<() => void> = [];

  const settle = () => {
    if (writing || length > 0) return;
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };

  const append = (text: string) => {
    if (length + text.length * MOST_BYTES_PER_UNIT > staged.length) {
      const needed = length + Buffer.byteLength(text);
      let size = staged.length;
      while (size < needed) size *= 2;
      if (size !== staged.length) {
        const grown = Buffer.allocUnsafe(size);
        staged.copy(grown, 0, 0, length);
        staged = grown;
      }
    }
    length += staged.write(text, length);
  };

  const pump = () => {
    if (writing || broken) return settle();
    if (length === 0) return settle();
    if (dropped > 0) {
      append(`{"warning":"access log lines dropped while the reader was slow","count":${dropped}}\n`);
      dropped = 0;
    }
    const buffer = staged;
    const end = length;
    staged = spare ?? Buffer.allocUnsafe(BUFFER_BYTES);
    spare = undefined;
    length = 0;
    writing = true;
    const writeFrom = (offset: number) => {
      fsWrite(fd, buffer, offset, end - offset, null, (error, written) => {
        if (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return void setTimeout(() => writeFrom(offset), 10);
          broken = true; // EPIPE: nobody reads any more; stop writing, keep serving
          writing = false;
          length = 0;
          return settle();
        }
        if (offset + written < end) return writeFrom(offset + written);
        writing = false;
        // A buffer grown for a burst is let go, so that a burst does not keep its memory.
        if (buffer.length === BUFFER_BYTES) spare = buffer;
        pump();
      });
    };
    writeFrom(0);
  };

  return {
    write(chunk) {
      if (broken) return;
      const most = length + chunk.length * MOST_BYTES_PER_UNIT;
      if (most > maxQueuedBytes && length + Buffer.byteLength(chunk) > maxQueuedBytes) {
        dropped++;
        return;
      }
      append(chunk);
      // While a write is under way, its completion starts the next one; otherwise wait a moment for more.
      if (!writing && gathering === undefined)
        gathering = setTimeout(() => {
          gathering = undefined;
          pump();
        }, GATHER_MS);
    },
    drain(timeoutMs = 1000) {
      if (!writing && length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
        if (gathering !== undefined) {
          clearTimeout(gathering);
          gathering = undefined;
          pump();
        }
      });
    },
  };
}
