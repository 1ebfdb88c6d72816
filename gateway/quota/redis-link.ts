// One connection to Redis over node:net (node:tls for rediss:), RESP2 with replies matched to commands in
// order (pipelining). It holds nothing it cannot bound: no offline queue (a command on a closed link fails
// at once), a command past its deadline closes the link, replies are capped by the reader, and a store
// that reads nothing cannot grow the socket's write buffer past a limit. Whatever goes wrong closes the
// link: once the peer has broken the protocol, no later reply can be trusted to answer the command it
// seems to. Answers are delivered synchronously, in order, so that the caller can judge a reply and
// close the link before the next reply of the same read is handed to anyone.
import { connect as tcpConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { oneLine } from '../../lib/one-line.ts';
import type { RedisTarget } from '../../lib/redis-url.ts';
import { encodeCommand, replyReader, RespError, type Reply, type ReplyLimits } from './resp.ts';

export interface LinkOptions {
  /** Connecting plus the handshake (AUTH, SELECT, PING) must end within this. */
  connectTimeoutMs: number;
  /** A command unanswered this long: the store is taken for hung and the link closes. */
  deadlineMs: number;
  /** Bytes written and not yet taken by the store before the link gives up on it. */
  maxUnsentBytes: number;
  limits: ReplyLimits;
}

/** A command's answer: its reply, or why none will come. Called exactly once. */
export type Answer = (error: Error | undefined, reply: Reply | undefined) => void;

export interface RedisLink {
  send(args: readonly string[], answer: Answer): void;
  /** Closes the link at once: waiting commands fail, and `onDown` hears `reason`. */
  fail(reason: string): void;
  /** Ends the link once the store has answered what it was sent, or after `graceMs`. */
  close(graceMs: number): Promise<void>;
}

interface Waiter {
  sentAt: number;
  answer: Answer;
}

/**
 * Connects and shakes hands; resolves with the link once the store has answered PING, rejects with the
 * reason otherwise. After that, `onDown` is called once if the link fails (not after close()).
 */
export function openRedisLink(
  target: RedisTarget,
  options: LinkOptions,
  onDown: (reason: string) => void,
): Promise<RedisLink> {
  const host = target.host;
  const socket: Socket = target.tls
    ? tlsConnect({ host, port: target.port, servername: isIP(host) === 0 ? host : undefined })
    : tcpConnect({ host, port: target.port });
  socket.setNoDelay(true);
  socket.setKeepAlive(true, 10_000);
  const reader = replyReader(options.limits);
  // A FIFO without Array#shift's copying: `head` is the next waiter to be answered.
  let waiting: (Waiter | undefined)[] = [];
  let head = 0;
  let timer: NodeJS.Timeout | undefined;
  let state: 'opening' | 'open' | 'closing' | 'closed' = 'opening';
  let rejectOpen: (error: Error) => void = () => {};

  const fail = (reason: string) => {
    if (state === 'closed') return;
    const was = state;
    state = 'closed';
    clearTimeout(timer);
    socket.destroy();
    const error = new Error(reason);
    const pending = waiting.slice(head);
    waiting = [];
    head = 0;
    for (const w of pending) w!.answer(error, undefined);
    if (was === 'open') onDown(reason);
    else if (was === 'opening') rejectOpen(error);
  };

  /** Runs while commands wait: fails the link when the oldest has waited past the deadline. */
  const watch = () => {
    timer = undefined;
    const oldest = waiting[head];
    if (oldest === undefined || state === 'closed') return;
    const age = performance.now() - oldest.sentAt;
    if (age >= options.deadlineMs) return fail(`no answer within ${options.deadlineMs} ms`);
    timer = setTimeout(watch, options.deadlineMs - age);
  };

  const send = (args: readonly string[], answer: Answer): void => {
    if (state === 'closed') return answer(new Error('the connection is closed'), undefined);
    waiting.push({ sentAt: performance.now(), answer });
    timer ??= setTimeout(watch, options.deadlineMs);
    socket.write(encodeCommand(args));
    if (socket.writableLength > options.maxUnsentBytes) fail('the store takes no more commands');
  };

  socket.on('data', (chunk: Buffer) => {
    let replies: Reply[];
    try {
      replies = reader.push(chunk);
    } catch (error) {
      return fail(`protocol error: ${error instanceof RespError ? error.message : String(error)}`);
    }
    for (const reply of replies) {
      const waiter = waiting[head];
      if (waiter === undefined) return fail('a reply to no command');
      waiting[head++] = undefined;
      if (head === waiting.length) {
        waiting = [];
        head = 0;
      } else if (head > 1024 && head * 2 > waiting.length) {
        waiting = waiting.slice(head);
        head = 0;
      }
      waiter.answer(undefined, reply);
      if (state === 'closed') return; // the answer judged the reply nonsense
    }
  });
  socket.on('error', (error: Error) => fail(oneLine(error.message, 200)));
  socket.on('close', () => fail('connection closed'));

  const link: RedisLink = {
    send,
    fail,
    close(graceMs) {
      if (state === 'closed') return Promise.resolve();
      state = 'closing'; // a closing link reports nothing
      return new Promise<void>((resolve) => {
        const grace = setTimeout(() => fail('closed'), graceMs);
        socket.once('close', () => {
          clearTimeout(grace);
          resolve();
        });
        // FIN after what was written: the store answers it, then closes its side.
        socket.end();
      });
    },
  };

  return new Promise<RedisLink>((resolve, reject) => {
    const deadline = setTimeout(
      () => fail(`no connection within ${options.connectTimeoutMs} ms`),
      options.connectTimeoutMs,
    );
    rejectOpen = (error) => {
      clearTimeout(deadline);
      reject(error);
    };
    // AUTH and SELECT from the URL, then PING: written at once (node:net holds them until connected).
    const hello: { args: string[]; expect: string; name: string }[] = [];
    if (target.password !== undefined) {
      const credentials = target.username === undefined ? [target.password] : [target.username, target.password];
      hello.push({ args: ['AUTH', ...credentials], expect: 'OK', name: 'AUTH' });
    }
    if (target.db !== 0) hello.push({ args: ['SELECT', String(target.db)], expect: 'OK', name: `SELECT ${target.db}` });
    hello.push({ args: ['PING'], expect: 'PONG', name: 'PING' });
    let unanswered = hello.length;
    for (const h of hello) {
      send(h.args, (error, reply) => {
        if (error !== undefined || state !== 'opening') return; // fail() has rejected the open
        if (reply!.type !== 'simple' || reply!.value !== h.expect) {
          return fail(
            reply!.type === 'error'
              ? `${h.name} refused: ${oneLine(reply!.message, 200)}`
              : `${h.name} answered a ${reply!.type} reply, not +${h.expect}`,
          );
        }
        if (--unanswered > 0) return;
        clearTimeout(deadline);
        state = 'open';
        resolve(link);
      });
    }
  });
}
