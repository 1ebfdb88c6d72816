// The Node limit of the market route: a bare node:http server that answers every request with the
// fake provider's ticker, fetched for that request through a keep-alive node:http agent, with nothing
// but Content-Type and Content-Length: no validation, no payload, no log. What it adds over the
// provider's own latency is what any Node process between a client and the provider adds.
// Plain JavaScript, run by `node` as it is (bench/processes.ts, startBareProxy).
// usage: node bench/bare-proxy.mjs <port> <upstream url>
import { Agent, createServer, request } from 'node:http';

const [port, upstream] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true });
const target = new URL(upstream);
// Coinbase refuses a request without a User-Agent (CONTRACT §4), and so does the fake.
const options = { agent, headers: { 'User-Agent': 'bench-bare-proxy' } };

const server = createServer({ noDelay: true }, (req, res) => {
  request(target, options, (answer) => {
    const chunks = [];
    answer.on('data', (chunk) => chunks.push(chunk));
    answer.on('end', () => {
      const body = Buffer.concat(chunks);
      res.writeHead(answer.statusCode ?? 502, [
        'Content-Type',
        'application/json',
        'Content-Length',
        String(body.length),
      ]);
      res.end(body);
    });
  })
    .on('error', () => {
      res.writeHead(502, ['Content-Length', '0']);
      res.end();
    })
    .end();
});
server.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
