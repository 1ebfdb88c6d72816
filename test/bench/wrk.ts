// wrk (Debian `wrk`) as the bench's load generator: a C program with its own event loop, so it can
// saturate a fast server where a generator in Node, sharing the CPU with its own event loop, cannot
// (docs/performance.md). One thread, like the single-process servers under test; its report is parsed here.
import { spawn, spawnSync } from 'node:child_process';
import type { LoadResult } from './load-result.ts';

/** wrk's version line ("wrk debian/4.1.0-3+b2 [epoll] …"), or undefined when it is not installed. */
export function wrkVersion(binary: string): string | undefined {
  const run = spawnSync(binary, ['-v'], { encoding: 'utf8' });
  if (run.error) return undefined;
  return /^wrk (\S+)/m.exec(`${run.stdout}${run.stderr}`)?.[1] ?? 'unknown version';
}

/** A wrk duration ("812.00us", "1.23ms", "1.02s", "2.00m") in milliseconds; NaN when it is none. */
export function wrkDurationMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === 'us'
    ? n / 1000
    : m[2] === 'ms'
      ? n
      : n * { s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 's' | 'm' | 'h'];
}

/**
 * The figures of one `wrk --latency` report. Requests/sec counts every answer; only 2xx ones count
 * here, like the other generator's figures, so a server answering errors fast does not look fast.
 * wrk's latencies cover every answer (it keeps no separate histogram per status).
 */
export function parseWrk(report: string): LoadResult {
  const number = (re: RegExp) => {
    const m = re.exec(report);
    return m ? Number(m[1]) : Number.NaN;
  };
  const requests = number(/^\s*(\d+) requests in /m);
  const perSecond = number(/^Requests\/sec:\s+([\d.]+)/m);
  if (!Number.isFinite(requests) || !Number.isFinite(perSecond))
    throw new Error(`wrk printed no request count: ${report.trim().slice(0, 500)}`);
  const non2xx = number(/Non-2xx or 3xx responses: (\d+)/) || 0;
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  const errors = socket ? socket.slice(1, 5).reduce((s, n) => s + Number(n), 0) : 0;
  const latency = (p: number) => {
    const m = new RegExp(`^\\s*${p}%\\s+(\\S+)`, 'm').exec(report);
    return m ? wrkDurationMs(m[1]!) : Number.NaN;
  };
  const ok = requests - non2xx;
  return {
    rps: requests === 0 ? 0 : (perSecond * ok) / requests,
    p50Ms: latency(50),
    p99Ms: latency(99),
    ok,
    non2xx,
    errors,
  };
}

/** One round: `connections` keep-alive connections on one wrk thread for `seconds`. */
export function runWrk(binary: string, url: string, connections: number, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const args = [
      '-t1',
      `-c${connections}`,
      `-d${Math.max(1, Math.round(seconds))}s`,
      '--latency',
      '--timeout',
      '10s',
      url,
    ];
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited ${code}: ${out.trim().slice(0, 500)}`));
      try {
        resolve(parseWrk(out));
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}
