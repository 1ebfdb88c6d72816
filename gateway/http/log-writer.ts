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
 * How long a line may wait for others before a write starts. Under load the access log gets a batch of
 * lines every turn of the event loop; one write call per turn was nearly a tenth of the snapshot route's
 * CPU. Gathering for a few milliseconds makes it one call per interval (like nginx's `access_log …
 * flush=`), and a line still reaches the log within a blink.
 */
export const GATHER_MS = 5;

export function fdWriter(fd: number, maxQueuedBytes = 8 * 1024 * 1024): LogWriter {
  let gathering: NodeJS.Timeout | undefined;
  let queue: string[] = [];
  let queuedBytes = 0;
  let writing = false;
  let dropped = 0;
  let broken = false;
  let waiters: Array<() => void> = [];

  const settle = () => {
    if (writing || queue.length > 0) return;
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };

  const pump = () => {
    if (writing || broken) return settle();
    if (queue.length === 0) return settle();
    if (dropped > 0) {
      queue.push(`{"warning":"access log lines dropped while the reader was slow","count":${dropped}}\n`);
      dropped = 0;
    }
    const buffer = Buffer.from(queue.join(''));
    queue = [];
    queuedBytes = 0;
    writing = true;
    const writeFrom = (offset: number) => {
      fsWrite(fd, buffer, offset, buffer.length - offset, null, (error, written) => {
        if (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return void setTimeout(() => writeFrom(offset), 10);
          broken = true; // EPIPE: nobody reads any more; stop writing, keep serving
          writing = false;
          queue = [];
          return settle();
        }
        if (offset + written < buffer.length) return writeFrom(offset + written);
        writing = false;
        pump();
      });
    };
    writeFrom(0);
  };

  return {
    write(chunk) {
      if (broken) return;
      if (queuedBytes + chunk.length > maxQueuedBytes) {
        dropped++;
        return;
      }
      queue.push(chunk);
      queuedBytes += chunk.length;
      // While a write is under way, its completion starts the next one; otherwise wait a moment for more.
      if (!writing && gathering === undefined)
        gathering = setTimeout(() => {
          gathering = undefined;
          pump();
        }, GATHER_MS);
    },
    drain(timeoutMs = 1000) {
      if (!writing && queue.length === 0) return Promise.resolve();
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
