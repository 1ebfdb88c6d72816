// The load generators: wrk when installed, else autocannon, for throughput (many keep-alive
// connections for a fixed time), and a sequential keep-alive client for latency that needs
// sub-millisecond resolution.
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import { which } from './processes.ts';
import { percentile } from './stats.ts';
import { runWrk, wrkVersion } from './wrk.ts';
import type { LoadResult } from './load-result.ts';

export type { LoadResult };

export interface LoadGenerator {
  name: 'wrk' | 'autocannon';
  /** e.g. "wrk debian/4.1.0-3+b2": printed with every figure it produced. */
  label: string;
  run(url: string, connections: number, seconds: number): Promise<LoadResult>;
}

/** wrk when it is on PATH (docs/performance.md), else autocannon, which runs in Node and cannot saturate a fast server. */
export function loadGenerator(): LoadGenerator {
  const binary = which('wrk');
  const version = binary && wrkVersion(binary);
  if (binary && version)
    return {
      name: 'wrk',
      label: `wrk ${version} (one thread)`,
      run: (url, connections, seconds) => runWrk(binary, url, connections, seconds),
    };
  return { name: 'autocannon', label: 'autocannon (in Node; wrk is not installed)', run: runLoad };
}

/**
 * One round of `connections` keep-alive connections for `seconds`. Latencies are taken from every 2xx
 * response's own timer (autocannon's histogram rounds to whole milliseconds, too coarse on loopback).
 */
export async function runLoad(url: string, connections: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const instance = autocannon({ url, connections, duration: seconds, timeout: 10 });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(ms);
  });
  const result = await instance;
  const sorted = Float64Array.from(latencies).sort();
  return {
    rps: latencies.length / (result.duration || seconds),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    ok: latencies.length,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  ms: number;
}

/** One GET on a keep-alive agent, timed from the request to the last byte of the body. */
export function get(
  url: string,
  agent: Agent,
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          ms: performance.now() - started,
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** `count` GETs one after the other on one keep-alive connection; the latency of each (ms). */
export async function sequentialLatencies(
  url: string,
  count: number,
  headers: Record<string, string> = {},
): Promise<{ ms: number[]; statuses: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ms: number[] = [];
  const statuses: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const reply = await get(url, agent, headers);
      ms.push(reply.ms);
      statuses.push(reply.status);
    }
  } finally {
    agent.destroy();
  }
  return { ms, statuses };
}
