// The gateway's lifecycle: everything is prepared before the port opens (file table, problems, quota
// store), and close() stops accepting, lets in-flight requests finish, then closes the store.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { liveFeedUrl, type Config } from '../builders/lib/config.ts';
import { ALLOW_HEADER, MCP_ENDPOINT } from '../builders/contract/service.ts';
import { createDeployment } from '../builders/datasets/registry.ts';
import { createValidator, loadSchemas, type Validator } from '../builders/contract/schemas.ts';
import { httpOptions } from '../builders/upstreams/http.ts';
import { accessLog } from './http/access-log.ts';
import { answerInTurn, capConnections, endAndRelease } from './http/connection-limits.ts';
import { clientIdentity } from './quota/client-identity.ts';
import { parseTrustProxy } from './quota/ip-ranges.ts';
import { MCP_MAX_BODY_BYTES } from './core/routes/mcp.ts';
import { rawPath } from './core/http/request-path.ts';
import { createQuota, DISABLED_QUOTA, type Quota, type QuotaStore } from './core/quota.ts';
import { memoryQuotaStore } from './quota/memory-store.ts';
import { createGateway } from './core/gateway.ts';
import { nodeAdapter } from './node-adapter.ts';
import { oneLine } from '../builders/lib/text/one-line.ts';
import { MAX_ERROR_LINE, throttledLines } from './http/error-lines.ts';
import { fdWriter } from './http/log-writer.ts';
import { readSiteFiles } from './http/static-files.ts';
import { staticTable } from './core/http/static-table.ts';
import { NODE_CODEC } from './http/node-codec.ts';
import { gatewayOpenApiFile } from './http/openapi-document.ts';

export interface GatewayOptions {
  /** The built site; read once, here. */
  distDir: string;
  /** The clock of every time rule (quota windows, candle reuse, Toronto midnight). Default Date.now. */
  now?: () => number;
  /** Where the `listening on` line and the access log go. Default process.stdout. */
  stdout?: (chunk: string) => void;
  /** Where error lines go. Default process.stderr. */
  stderr?: (chunk: string) => void;
  /** Prefix of quota keys in Redis (tests give each run its own). */
  quotaKeyPrefix?: string;
  /** How long start waits for the first Redis connection before serving without it. Default 1000 ms. */
  redisConnectWaitMs?: number;
  /** Grace period of close() for in-flight requests before connections are cut. Default 10 s. */
  shutdownGraceMs?: number;
  /** Overrides of SERVER_LIMITS (tests shorten the timeouts). */
  limits?: Partial<Record<keyof typeof SERVER_LIMITS, number>>;
}

export interface Gateway {
  /** http://host:port with the actual port. */
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** Socket-level limits (node:http): slow or oversized clients are cut off rather than held. */
export const SERVER_LIMITS = {
  /** RFC 9112 leaves limits to the server; 16 KiB of headers is Node's default and plenty here. */
  maxHeaderSize: 16 * 1024,
  headersTimeout: 10_000,
  /**
   * The whole request, its body included: a body that trickles in holds its connection at most this
   * long (node answers 408 and closes), and meanwhile it counts toward both connection caps.
   */
  requestTimeout: 10_000,
  keepAliveTimeout: 5_000,
  /**
   * Inactivity of a connection (nothing read or written): the two timeouts above bound reading, so
   * in practice this bounds an answer the client does not take (nginx's send_timeout).
   */
  timeout: 30_000,
  /** How often the two timeouts above are enforced; node's default (30 s) lets slowloris clients sit 40 s. */
  connectionsCheckingInterval: 1_000,
  /**
   * Open connections of the whole server: past it the connection idle longest (no request in flight)
   * is closed to make room, or the new one if every connection is busy (capConnections).
   */
  maxConnections: 4_096,
  /** Open connections from one client address (a browser opens six; a load test a few dozen). */
  maxConnectionsPerClient: 256,
  /** Requests one connection may send ahead of the answers it has taken (see answerInTurn). */
  maxPipelined: 4,
  /**
   * Bytes of answers handed to one run of requests a connection sent ahead before it is closed (see
   * answerInTurn): a few pages and their documents. A client that never reads can make the gateway
   * write at most this and one answer more into the kernel's buffers, whatever the route.
   */
  maxPipelinedBytes: 128 * 1024,
  /** What a connection that pipelined past the count gets to take its last answers. */
  pipelineGraceMs: 1_000,
} as const;

export async function startGateway(config: Config, options: GatewayOptions): Promise<Gateway> {
  // An invalid TRUST_PROXY is a ConfigError before anything is opened (docs/configuration.md#variables: exit status 2).
  const trustedProxies = parseTrustProxy(config.trustProxy);
  const now = options.now ?? Date.now;
  const stdoutWriter = options.stdout === undefined ? fdWriter(1) : undefined;
  const stdout = options.stdout ?? ((chunk: string) => stdoutWriter!.write(chunk));
  const stderrWriter = options.stderr === undefined ? fdWriter(2) : undefined;
  const stderr = options.stderr ?? ((chunk: string) => stderrWriter!.write(chunk));
  const plainLine = (line: string) => stderr(`gateway: ${oneLine(line, MAX_ERROR_LINE)}\n`);
  // Throttled on the real clock: the injected one may stand still in tests.
  const errorLine = throttledLines(plainLine, () => performance.now());

  // Ended by close() once every answer is sent: an upstream request still running then is one nobody
  // waits for, and a stopped gateway asks no one anything.
  const upstreamLifetime = new AbortController();
  // The gateway's deployment, made once: the core, the static table and the OpenAPI document read it.
  const deployment = createDeployment(config, {
    schemas: loadSchemas,
    // Made when the first payload is checked: ajv's instance and its formats are a few milliseconds of the
    // start that a gateway answering files only never needs (docs/performance.md#what-changed-in-the-core-round-issue-34).
    validator: (schemas) => {
      let made: Validator | undefined;
      return {
        validate: (name, data) => (made ??= createValidator(schemas, { checkSchemas: false })).validate(name, data),
      };
    },
    http: httpOptions(config, upstreamLifetime.signal),
  });
  const { service } = deployment;
  const files = readSiteFiles(options.distDir, (found) => [gatewayOpenApiFile(deployment, found)]);
  const table = staticTable(files, service, NODE_CODEC, liveFeedUrl(config));

  let store: QuotaStore | undefined;
  let quota: Quota = DISABLED_QUOTA;
  if (config.rateLimitQuota !== undefined) {
    if (config.rateLimitRedisUrl !== undefined) {
      // State changes are rare by construction (one line per outage and recovery): never throttled.
      // ioredis is a quarter of the gateway's code; a gateway without a Redis URL never evaluates it
      // (docs/performance.md: 8 MiB less at start).
      const { redisQuotaStore } = await import('./quota/redis-store.ts');
      const redis = redisQuotaStore(config.rateLimitRedisUrl, { onStateChange: plainLine });
      await redis.ready(options.redisConnectWaitMs ?? 1000);
      store = redis;
    } else {
      store = memoryQuotaStore(now);
    }
    quota = createQuota({
      quota: config.rateLimitQuota,
      windowSeconds: config.rateLimitWindow,
      store,
      now,
      keyPrefix: options.quotaKeyPrefix,
      onUnavailable: (reason) => errorLine(`quota store skipped: ${reason}`),
    });
  }

  const log = accessLog(stdout, now);
  let closing = false;
  const core = createGateway({
    deployment,
    table,
    quota,
    codec: NODE_CODEC,
    now,
    reportError: errorLine,
  });
  const adapter = nodeAdapter({
    core,
    identify: clientIdentity(trustedProxies),
    log,
    reportError: errorLine,
    closing: () => closing,
  });

  const {
    maxConnections,
    maxConnectionsPerClient,
    maxPipelined,
    maxPipelinedBytes,
    pipelineGraceMs,
    timeout,
    ...httpLimits
  } = { ...SERVER_LIMITS, ...options.limits };
  const inTurn = answerInTurn(adapter.listener, { maxPipelined, maxPipelinedBytes, graceMs: pipelineGraceMs });
  const server = createServer(
    { ...httpLimits, noDelay: true, ServerResponse: adapter.ServerResponse },
    inTurn.listener,
  );
  inTurn.read(server);
  server.timeout = timeout;
  capConnections(server, { maxConnections, maxConnectionsPerClient }, trustedProxies);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Malformed requests get a bare status line, never Node's message or anything of the request.
    const httpMessage = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || httpMessage?.headersSent) return void socket.destroy();
    const status =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    endAndRelease(socket, `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  // RFC 7231 §5.1.1, kept by RFC 9110 §10.1.1: a server that receives `Expect: 100-continue` sends "an
  // immediate response with a final status code, if that status can be determined by examining just the
  // request-line and header fields, or ... an immediate 100 (Continue)". Only a request whose content
  // the gateway will read is told to send it; an oversized POST /mcp gets its 413 at once, as from nginx.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (readsContent(req)) res.writeContinue();
    server.emit('request', req, res);
  });
  // CONNECT is not a request for a resource here (RFC 9110 §9.3.6); node hands it over as a raw socket.
  server.on('connect', (_req, socket: Socket) => {
    endAndRelease(
      socket,
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOW_HEADER}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    );
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // EADDRINUSE and the like: the store's socket and reconnect timers must not outlive the failed start.
    await store?.close();
    throw error;
  }
  // After start, an accept error (EMFILE under a connection flood) is reported, not fatal.
  server.on('error', (error: Error) => errorLine(`server: ${error.message}`));

  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;
  stdout(`listening on ${url}\n`);

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      closing = true;
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections close as soon as they are idle; busy ones finish their response first.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const grace = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 10_000);
      await drained;
      clearInterval(sweep);
      clearTimeout(grace);
      upstreamLifetime.abort();
      await store?.close();
      await Promise.all([stdoutWriter?.drain(), stderrWriter?.drain()]);
    })();
    return closed;
  };
  return { url, port, server, close };
}

/** A request whose content the gateway reads: a POST to /mcp within the size it accepts. */
function readsContent(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || rawPath(req.url ?? '/') !== MCP_ENDPOINT.path) return false;
  const length = req.headers['content-length'];
  return length === undefined || Number(length) <= MCP_MAX_BODY_BYTES;
}
