// A fake market feed on an ephemeral loopback port, speaking Coinbase Exchange's WebSocket wire format
// (docs/upstreams.md#the-live-feed): a `subscribe` is answered with `subscriptions`, then the feed sends
// `ticker` messages and a `heartbeat` each second to every subscribed client. The tests drive it
// (send a tick, close every socket, go silent, refuse upgrades) and count connections and subscriptions;
// the demo runs it with a tick every second or so.
//
// Node has a WebSocket client but no server, so this is the least of RFC 6455 a server needs, on
// node:http's 'upgrade' event: the opening handshake (§4.2.2), text frames both ways, client masking
// (§5.3), ping/pong (§5.5.2, §5.5.3) and the closing handshake (§5.5.1). No extension is negotiated.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { closeAt } from './data.ts';

/** RFC 6455 §1.3: the GUID appended to the client's key in the accept hash. */
const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** A client message of the feed is a small subscribe; anything larger is not one of ours. */
const MAX_MESSAGE_BYTES = 64 * 1024;

const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

export interface Subscription {
  product_ids: string[];
  channels: string[];
}

export interface TickFields {
  price?: string | number;
  time?: string;
  product?: string;
  sequence?: number;
}

export interface FakeFeedOptions {
  /** The product the feed trades, MON-USD by default. */
  product?: string;
  /** Every this many ms each subscribed client gets a `ticker` of the simulated price (the demo); none by default. */
  tickEveryMs?: number;
  /** Heartbeat period; 1000 ms as Coinbase's. */
  heartbeatMs?: number;
  /** The feed's clock; the real one by default. */
  now?: () => number;
  host?: string;
}

export interface FakeFeed {
  /** ws://127.0.0.1:<port> */
  url: string;
  /** The feed's origin as a page's policy names it (scheme, host and port). */
  origin: string;
  /** Upgrade requests received, refused ones included. */
  attempts: number;
  /** Upgrades accepted. */
  connections: number;
  /** Sockets open now. */
  open: number;
  /** Every subscribe received, in order. */
  subscriptions: Subscription[];
  /** Every text message received, as sent. */
  received: string[];
  /** Refuse every upgrade with 503 while true. */
  refuse: boolean;
  /** Send nothing at all (no heartbeat, no tick, no subscriptions answer) while true. */
  silent: boolean;
  /** Answer each subscribe with its `subscriptions` message, then close the socket, while true: a feed that works for one message. */
  hangUp: boolean;
  /** A `ticker` to every subscribed client; fields not given are the product's, now and the next sequence. */
  tick(fields?: TickFields): void;
  /** Any text to every subscribed client, as it is (non-JSON, an error message...). */
  sendRaw(text: string): void;
  /** Closes every socket with a close frame (1001 going away). */
  closeAll(): void;
  /** Resolves once `count` subscribes have been received in all (rejects after timeoutMs). */
  waitForSubscriptions(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Encodes one unmasked server frame (RFC 6455 §5.2): a server never masks. */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const head =
    length < 126
      ? Buffer.from([0x80 | opcode, length])
      : length < 65_536
        ? Buffer.from([0x80 | opcode, 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(length)]);
  return Buffer.concat([head, payload]);
}

function bigLength(length: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(length));
  return b;
}

interface Client {
  socket: Socket;
  subscribed: boolean;
  buffer: Buffer;
  fragments: Buffer[];
  closing: boolean;
}

export async function startFakeFeed(options: FakeFeedOptions = {}): Promise<FakeFeed> {
  const product = options.product ?? 'MON-USD';
  const now = options.now ?? Date.now;
  const clients = new Set<Client>();
  const rawSockets = new Set<Socket>();
  let sequence = 1000;
  let tradeId = 500;
  const waiters: Array<{ count: number; resolve: () => void }> = [];

  const send = (client: Client, text: string) => {
    if (!client.closing && !client.socket.destroyed) client.socket.write(frame(OPCODE.text, Buffer.from(text)));
  };
  const broadcast = (text: string) => {
    if (feed.silent) return;
    for (const c of clients) if (c.subscribed) send(c, text);
  };
  /** A client that has not closed its side a second after the feed's close is cut off. */
  const cutOffLater = (client: Client) => setTimeout(() => client.socket.destroy(), 1000).unref();
  const closeClient = (client: Client, code: number) => {
    if (client.closing) return;
    client.closing = true;
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code);
    if (!client.socket.destroyed) client.socket.write(frame(OPCODE.close, payload));
    // The client answers with its own close frame; a client that does not is cut off.
    cutOffLater(client);
  };

  const onMessage = (client: Client, text: string) => {
    feed.received.push(text);
    let message: { type?: unknown; product_ids?: unknown; channels?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      if (!feed.silent) send(client, JSON.stringify({ type: 'error', message: 'Malformed JSON' }));
      return;
    }
    if (message.type !== 'subscribe') return;
    // Channels may be names or {name, product_ids} objects (docs/upstreams.md#the-live-feed).
    const channels = Array.isArray(message.channels) ? message.channels : [];
    const names = channels.map((c) => (typeof c === 'string' ? c : String((c as { name?: unknown })?.name)));
    const products = new Set<string>(Array.isArray(message.product_ids) ? message.product_ids.map(String) : []);
    for (const c of channels)
      if (typeof c === 'object' && c !== null && Array.isArray((c as { product_ids?: unknown }).product_ids))
        for (const p of (c as { product_ids: unknown[] }).product_ids) products.add(String(p));
    feed.subscriptions.push({ product_ids: [...products], channels: names });
    client.subscribed = true;
    if (!feed.silent)
      send(
        client,
        JSON.stringify({
          type: 'subscriptions',
          channels: names.map((name) => ({ name, product_ids: [...products] })),
        }),
      );
    if (feed.hangUp) closeClient(client, 1011);
    for (const w of [...waiters])
      if (feed.subscriptions.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };

  /** Reads every complete frame in the client's buffer (RFC 6455 §5.2); a protocol error closes with 1002. */
  const onData = (client: Client, chunk: Buffer) => {
    client.buffer = Buffer.concat([client.buffer, chunk]);
    for (;;) {
      const b = client.buffer;
      if (b.length < 2) return;
      const fin = (b[0]! & 0x80) !== 0;
      const opcode = b[0]! & 0x0f;
      const masked = (b[1]! & 0x80) !== 0;
      let length = b[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (b.length < 4) return;
        length = b.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (b.length < 10) return;
        const big = b.readBigUInt64BE(2);
        if (big > BigInt(MAX_MESSAGE_BYTES)) return closeClient(client, 1009);
        length = Number(big);
        offset = 10;
      }
      // §5.1: a server MUST close the connection upon receiving a frame that is not masked.
      if (!masked) return closeClient(client, 1002);
      if (length > MAX_MESSAGE_BYTES) return closeClient(client, 1009);
      if (b.length < offset + 4 + length) return;
      const mask = b.subarray(offset, offset + 4);
      const payload = Buffer.from(b.subarray(offset + 4, offset + 4 + length));
      for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
      client.buffer = b.subarray(offset + 4 + length);
      if (opcode === OPCODE.close) {
        if (!client.closing) {
          client.closing = true;
          client.socket.write(frame(OPCODE.close, payload.subarray(0, 2)));
        }
        // RFC 6455 §7.1.1: after the closing handshake the server closes the TCP connection first; a
        // client that keeps its side open is cut off.
        client.socket.end();
        cutOffLater(client);
        return;
      }
      if (opcode === OPCODE.ping) {
        if (!feed.silent) client.socket.write(frame(OPCODE.pong, payload));
        continue;
      }
      if (opcode === OPCODE.pong) continue;
      if (opcode === OPCODE.text || opcode === OPCODE.binary || opcode === OPCODE.continuation) {
        client.fragments.push(payload);
        if (!fin) continue;
        const whole = Buffer.concat(client.fragments);
        client.fragments = [];
        onMessage(client, whole.toString('utf8'));
      }
    }
  };

  const server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' });
    res.end('a WebSocket feed: upgrade required\n');
  });
  server.on('connection', (socket) => {
    rawSockets.add(socket);
    socket.on('close', () => rawSockets.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    feed.attempts++;
    const key = req.headers['sec-websocket-key'];
    if (feed.refuse || typeof key !== 'string' || req.headers.upgrade?.toLowerCase() !== 'websocket') {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const accept = createHash('sha1')
      .update(key + WEBSOCKET_GUID)
      .digest('base64');
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    socket.setNoDelay(true);
    const client: Client = { socket, subscribed: false, buffer: Buffer.alloc(0), fragments: [], closing: false };
    clients.add(client);
    feed.connections++;
    socket.on('data', (chunk: Buffer) => onData(client, chunk));
    // node:http's sockets are half-open (a peer's FIN leaves this side open), and an upgraded one stays so:
    // a browser context closed right after the handshake sent FIN and nothing more, and the fake counted
    // that socket open for ever. A feed closes its side when the client has closed its own.
    socket.on('end', () => socket.end());
    socket.on('error', () => socket.destroy());
    socket.on('close', () => clients.delete(client));
  });

  const heartbeat = setInterval(() => {
    broadcast(
      JSON.stringify({
        type: 'heartbeat',
        sequence: sequence,
        last_trade_id: tradeId,
        product_id: product,
        time: new Date(now()).toISOString(),
      }),
    );
  }, options.heartbeatMs ?? 1000);
  heartbeat.unref();

  /** The demo's price: the fake's hourly close, moving a little from second to second. */
  const simulatedPrice = () => {
    const ms = now();
    const hour = Math.floor(ms / 3_600_000) * 3600;
    const wiggle = 1 + 0.004 * Math.sin(ms / 7_000) + 0.002 * Math.sin(ms / 1_300);
    return (closeAt(hour) * wiggle).toFixed(6);
  };
  const ticking = options.tickEveryMs === undefined ? undefined : setInterval(() => feed.tick(), options.tickEveryMs);
  ticking?.unref();

  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  const feed: FakeFeed = {
    url: `ws://${host}:${port}`,
    origin: `ws://${host}:${port}`,
    attempts: 0,
    connections: 0,
    get open() {
      return clients.size;
    },
    subscriptions: [],
    received: [],
    refuse: false,
    silent: false,
    hangUp: false,
    tick(fields = {}) {
      sequence++;
      tradeId++;
      const price = String(fields.price ?? simulatedPrice());
      broadcast(
        JSON.stringify({
          type: 'ticker',
          sequence: fields.sequence ?? sequence,
          product_id: fields.product ?? product,
          price,
          open_24h: price,
          volume_24h: '1000.00000000',
          low_24h: price,
          high_24h: price,
          volume_30d: '30000.00000000',
          best_bid: price,
          best_bid_size: '10.00000000',
          best_ask: price,
          best_ask_size: '10.00000000',
          side: 'buy',
          time: fields.time ?? new Date(now()).toISOString().replace('Z', '123Z'),
          trade_id: tradeId,
          last_size: '1.00000000',
        }),
      );
    },
    sendRaw(text) {
      broadcast(text);
    },
    closeAll() {
      for (const c of clients) closeClient(c, 1001);
    },
    waitForSubscriptions(count, timeoutMs = 30_000) {
      if (feed.subscriptions.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(entry), 1);
          reject(new Error(`fewer than ${count} subscriptions after ${timeoutMs} ms (${feed.subscriptions.length})`));
        }, timeoutMs);
        const entry = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        waiters.push(entry);
      });
    },
    async close() {
      clearInterval(heartbeat);
      if (ticking) clearInterval(ticking);
      for (const s of rawSockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return feed;
}
