// The Node.js flags the gateway runs with, one list for every program that starts it: `npm start`
// (package.json, checked against this list by test/gateway-process.test.ts), the demo, the bench, the
// resilience suite and the tests' spawned gateways.
//
// V8 grows the young generation of a busy process up to 16 MiB per semi-space, and keeps it: under the
// bench's load that was half the gateway's heap (heap total 51 MiB, 26 MiB of it in use) and put its
// resident memory past 100 MiB. A request here allocates a few KiB that die young, so 4 MiB semi-spaces
// hold thousands of requests between scavenges; measured side by side, throughput did not move
// (within the noise of ±10 %) and the resident memory after the load went from 111 to 93 MiB.
//
// No stack traces: the gateway never prints one (errors are one line at the edge, docs/gateway.md), yet
// node makes an Error, and formats its stack, for every request and response still queued on a
// connection that closes (ConnResetException). 1,024 clients that each pipeline 200 requests leave
// 400,000 of them: in a CPU profile of that attack they were 35 % of the gateway's time (3.7 of 10 s),
// and with `--stack-trace-limit=0` 0.4 s.
//
// No allocation-site pretenuring: V8 counts, per allocation site, how many of its objects a collection
// finds alive, and past 85 % allocates that site's objects straight in the old generation. A full
// collection that runs while requests are in flight (one comes with the first seconds of load) finds
// every object of those requests alive, and 17 of node's request sites were tenured at once. From then
// on each request's first objects were born old and kept the young ones they point to alive until the
// next full collection: a megabyte promoted per scavenge, a full collection every 300 ms, and a fifth
// of the snapshot route's throughput, in most processes but not all (the bench's figure depended on
// which one it started). Without it, nothing of a finished request is promoted and the throughput is
// the same in every process (docs/performance.md#v8-pretenuring-issue-42).
export const GATEWAY_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=4',
  '--stack-trace-limit=0',
  '--no-allocation-site-pretenuring',
];
