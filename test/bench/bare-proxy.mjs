// The Node limit of the market route: a bare node:http server that answers every request with the
// fake provider's ticker, fetched for that request, with nothing but Content-Type and Content-Length:
// no validation, no payload, no log. What it adds over the provider's own latency is what any Node
// process between a client and the provider adds.
// The ticker comes over one of two transports, so the bench can show what each costs by itself:
// `http`, a keep-alive node:http agent (the floor), or `fetch`, Node's built-in fetch (undici, with its
// own keep-alive pool: what ky, the gateway's HTTP client, runs on).
// Plain JavaScript, run by `node` as it is (test/bench/processes.ts, startBareProxy).
// usage: node test/bench/bare-proxy.mjs <port> <upstream url> [http|fetch]
import { Agent, createServer, request } from 'node:http';

const [port, upstream, transport = 'http'] = process.argv.slice(2);
if (transport !== 'http' && transport !== 'fetch') {
  process.stderr.write(`bare-proxy: the transport is http or fetch, not ${transport}\n`);
  process.exit(2);
}
const agent = new Agent({ keepAlive: true });
const target = new URL(upstream);
// Coinbase refuses a request without a User-Agent (docs/upstreams.md), and so does the fake.
const headers = { 'User-Agent': 'bench-bare-proxy' };
const options = { agent, headers };

/** The upstream's status and body, read whole. */
const viaHttp = () =>
  new Promise((resolve, reject) => {
    request(target, options, (answer) => {
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 502, body: Buffer.concat(chunks) }));
      answer.on('error', reject);
    })
      .on('error', reject)
      .end();
  });

const viaFetch = async () => {
  const answer = await fetch(target, { headers });
  return { status: answer.status, body: Buffer.from(await answer.arrayBuffer()) };
};

const relay = transport === 'fetch' ? viaFetch : viaHttp;

const server = createServer({ noDelay: true }, (req, res) => {
  relay().then(
    ({ status, body }) => {
      res.writeHead(status, ['Content-Type', 'application/json', 'Content-Length', String(body.length)]);
      res.end(body);
    },
    () => {
      res.writeHead(502, ['Content-Length', '0']);
      res.end();
    },
  );
});
server.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
