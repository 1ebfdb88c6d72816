// The fake upstreams as a program of their own (.build/fake-upstreams.mjs): the bench runs the market
// provider in its own process, as a real provider is, so that "the upstream's own latency" is what a
// client in another process sees, wake-up included, and not a round trip inside the bench's own event
// loop. Prints one `listening on http://…` line; SIGTERM or SIGINT stops it.
import { runMain } from '../core/run-main.ts';
import { startFakeUpstreams } from './upstreams.ts';

runMain('fake-upstreams', async () => {
  const fake = await startFakeUpstreams({});
  process.stdout.write(`listening on ${fake.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void fake.close().then(resolve, resolve);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  return 0;
});
