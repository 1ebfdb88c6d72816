// The Node limit for the bench: a bare node:http server answering each path with the bytes of one dist/
// file from memory, Content-Type and Content-Length only, no log. Plain JavaScript, run by `node` as is.
// usage: node bench/bare-server.mjs <port> <urlPath>=<file> [<urlPath>=<file> ...]
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, ...pairs] = process.argv.slice(2);
const routes = new Map();
for (const pair of pairs) {
  const eq = pair.indexOf('=');
  const body = readFileSync(pair.slice(eq + 1));
  routes.set(pair.slice(0, eq), ['Content-Type', 'application/json', 'Content-Length', String(body.length), body]);
}
const server = createServer({ noDelay: true, keepAliveTimeout: 5000 }, (req, res) => {
  const route = routes.get(req.url);
  if (route === undefined) {
    res.writeHead(404, ['Content-Length', '0']);
    return res.end();
  }
  res.writeHead(200, route.slice(0, 4));
  res.end(route[4]);
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
