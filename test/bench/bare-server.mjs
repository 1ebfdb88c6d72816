// The Node limit the bench compares the gateway with: a bare node:http server that answers each path
// with one file's bytes from memory and nothing but Content-Type and Content-Length, and logs nothing.
// Plain JavaScript, run by `node` as it is (test/bench/processes.ts, startBareNode).
// usage: node test/bench/bare-server.mjs <port> [<url path> <file> <content type>]...
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, ...triples] = process.argv.slice(2);
const routes = new Map();
for (let i = 0; i + 2 < triples.length; i += 3) {
  const body = readFileSync(triples[i + 1]);
  routes.set(triples[i], { headers: ['Content-Type', triples[i + 2], 'Content-Length', String(body.length)], body });
}
const NOT_FOUND = ['Content-Length', '0'];

const server = createServer({ noDelay: true }, (req, res) => {
  const route = routes.get(req.url);
  if (route === undefined) {
    res.writeHead(404, NOT_FOUND);
    return res.end();
  }
  res.writeHead(200, route.headers);
  res.end(route.body);
});
server.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
