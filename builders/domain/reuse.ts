// Whether a previously published snapshot may be published again unchanged, when its upstream gives no
// usable data now (`npm run build -- --previous <dir>`, docs/data-rules.md#reusing-a-previous-snapshot).
// Pure: (schema-valid payload, what the configuration expects, now) → reusable with its age, or why not;
// and whether a previous site's data may stand in at all (simulated for simulated, real for real).
// Whoever serves the previous site chose its bytes: a snapshot is republished only when it is one the fresh
// build's own rules could have written, checked with the same functions (buildMarketData, calendarWindow).
import { DateTime } from 'luxon';
import { UpstreamError } from '../lib/errors.ts';
import { CONSTANTS } from '../contract/service.ts';
import { calendarWindow } from './calendar.ts';
import type { GitHubContributions } from './contributions.ts';
import { buildMarketData, type MarketData } from './market.ts';
import { MARKET_REUSE_MAX_MS } from './freshness.ts';

// The market's bound is its validity too (freshness.ts): one number for both rules.
export { MARKET_REUSE_MAX_MS };

/** The candles' granularity: every candle starts on the hour (builders/upstreams/coinbase.ts refuses any other row). */
const HOUR_SECONDS = 3600;

export type Reuse =
  /** `ageMs`: how old the data are at most, at the build's "now". */
  { reusable: true; ageMs: number } | { reusable: false; reason: string };

const refuse = (reason: string): Reuse => ({ reusable: false, reason });

/** An instant in Unix seconds, for a reason: only ever the build's now or one a snapshot's points bound. */
const instant = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/**
 * A market snapshot is reusable while it describes the configured product and source, is one the fresh
 * rules could have written (marketFault), and its `asOf` (the provider's time of the value it shows) is
 * neither in the future nor more than MARKET_REUSE_MAX_MS before `nowMs`. Its age is measured from the
 * payload, never from when a file was copied: a reused snapshot reused again keeps ageing.
 */
export function marketReuse(snapshot: MarketData, nowMs: number, expected: { source: string; product: string }): Reuse {
  if (snapshot.product !== expected.product) return refuse(`it is for ${snapshot.product}, not ${expected.product}`);
  if (snapshot.source !== expected.source)
    return refuse(`its source is ${JSON.stringify(snapshot.source)}, not ${JSON.stringify(expected.source)}`);
  const asOfMs = Date.parse(snapshot.asOf);
  if (!Number.isFinite(asOfMs)) return refuse(`its asOf ${JSON.stringify(snapshot.asOf)} is not an instant`);
  const ageMs = nowMs - asOfMs;
  if (ageMs < 0) return refuse(`its asOf ${snapshot.asOf} is later than now`);
  if (ageMs > MARKET_REUSE_MAX_MS)
    return refuse(`its asOf ${snapshot.asOf} is more than ${MARKET_REUSE_MAX_MS / 3_600_000} h old`);
  const fault = marketFault(snapshot, asOfMs, nowMs);
  if (fault !== undefined) return refuse(fault);
  return { reusable: true, ageMs };
}

/**
 * Why `snapshot` (schema-valid, `asOfMs` its parsed `asOf`) is not what a fresh build before `nowMs` writes by
 * the rules of docs/data-rules.md#market-preview, or undefined (docs/data-rules.md#reusing-a-previous-snapshot).
 * That build's "now", which ended its candle window, is not in the payload: it was at or after every candle
 * and (the provider's clock agreeing) the ticker's `asOf`, and before `nowMs`. So:
 * - every point but the last is a candle, which starts on the hour; the last is a candle or the ticker
 *   point `floor(asOf)`, at `value`;
 * - the points ascend, none is later than `nowMs` (not even by the hour: a provider whose ticker lags its
 *   candles lists a candle newer than `asOf`, as the fakes do on the hour), and the first is at most 604800 s
 *   before the later of `asOf` and the last point: at most 169 points, every time a date;
 * - then buildMarketData, the fresh build's own function, run on these points and the ticker they imply,
 *   must give back the same points and the same `changePercent`, `low` and `high`, to the last bit.
 */
export function marketFault(snapshot: MarketData, asOfMs: number, nowMs: number): string | undefined {
  const { points } = snapshot;
  const count = points.length;
  const tickerSeconds = Math.floor(asOfMs / 1000);
  const nowSeconds = Math.floor(nowMs / 1000);
  const last = points[count - 1]!;
  const lastIsTicker = last.time === tickerSeconds && last.value === snapshot.value;
  for (let i = 0; i < count; i++) {
    const { time } = points[i]!;
    const point = `its point ${i + 1} of ${count} (time ${time})`;
    if (i > 0 && time <= points[i - 1]!.time) return `${point} does not come after the one before it`;
    if (time > nowSeconds) return `${point} is later than now, ${instant(nowSeconds)}`;
    if (time % HOUR_SECONDS !== 0 && !(i === count - 1 && lastIsTicker))
      return `${point} is neither a candle's start on the hour nor its ticker point (floor of asOf, at value)`;
  }
  const windowStart = Math.max(tickerSeconds, last.time) - CONSTANTS.marketWindowSeconds;
  if (points[0]!.time < windowStart)
    return `its first point (time ${points[0]!.time}) is before ${instant(windowStart)}, outside its seven-day window`;
  let fresh: MarketData;
  try {
    fresh = buildMarketData(
      { price: snapshot.value, time: snapshot.asOf, timeMs: asOfMs },
      points.map((p) => ({ time: p.time, close: p.value })),
      (windowStart + CONSTANTS.marketWindowSeconds) * 1000,
      snapshot.source,
      snapshot.product,
    );
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return `the market rules refuse it as they would the upstream's answer: ${error.message}`;
  }
  if (fresh.points.length !== count || fresh.points.some((p, i) => p.time !== points[i]!.time))
    return `its points are not what the market rules make of them and its asOf (${fresh.points.length} points)`;
  for (const field of ['changePercent', 'low', 'high'] as const)
    if (fresh[field] !== snapshot[field])
      return `its ${field} ${snapshot[field]} is not what its points and value give (${fresh[field]})`;
  return undefined;
}

/**
 * A calendar snapshot is reusable while it is the configured account's, in the configured zone, and is
 * exactly the calendar a build would write now from its own days (docs/data-rules.md#contribution-calendar):
 * the same window (365 consecutive dates ending today in the zone, so it stays valid until the zone's next
 * midnight), `nextRefreshAt` that midnight, and `totalContributions` the sum of its counts (counts and
 * levels are in range by the schema). Its counts were read at some moment of that day, so its age is at
 * most the time since that day began.
 */
export function calendarReuse(
  snapshot: GitHubContributions,
  nowMs: number,
  expected: { username: string; timeZone: string },
): Reuse {
  if (snapshot.username !== expected.username)
    return refuse(
      `it is the account ${JSON.stringify(snapshot.username)}'s, not ${JSON.stringify(expected.username)}'s`,
    );
  // The zone fresh calendars are computed in (CALENDAR_TIME_ZONE).
  const zone = expected.timeZone;
  if (snapshot.timeZone !== zone) return refuse(`its days are in ${snapshot.timeZone}, not ${zone}`);
  const window = calendarWindow(nowMs, zone);
  if (snapshot.endDate !== window.endDate)
    return refuse(`it ends on ${snapshot.endDate}, and today is ${window.endDate} in ${zone}`);
  if (snapshot.startDate !== window.startDate)
    return refuse(`it starts on ${snapshot.startDate}, not ${window.startDate}, 364 days before its end`);
  if (snapshot.nextRefreshAt !== window.nextRefreshAt)
    return refuse(`its nextRefreshAt ${snapshot.nextRefreshAt} is not ${window.nextRefreshAt}, the next midnight`);
  if (snapshot.days.length !== window.dates.length)
    return refuse(`it has ${snapshot.days.length} days, not ${window.dates.length}`);
  const stray = snapshot.days.findIndex((d, i) => d.date !== window.dates[i]);
  if (stray >= 0)
    return refuse(`its day ${stray + 1} is ${snapshot.days[stray]!.date}, not ${window.dates[stray]} of its window`);
  const sum = snapshot.days.reduce((total, d) => total + d.count, 0);
  if (snapshot.totalContributions !== sum)
    return refuse(`its totalContributions ${snapshot.totalContributions} is not the sum of its days (${sum})`);
  const dayBeganMs = DateTime.fromISO(window.endDate, { zone }).toMillis();
  return { reusable: true, ageMs: nowMs - dayBeganMs };
}

/**
 * Why a previous site's snapshots may not stand in for this build's at all, or undefined: a demo's data
 * (simulated, status.json says so) never pass for an upstream's in a real build, nor real data for a
 * demo's under its banner (docs/data-rules.md#reusing-a-previous-snapshot). `previous` is what the
 * previous site says of its data, or why it says nothing, which is refused too: nothing else in a calendar
 * snapshot tells a demo's from GitHub's.
 */
export function provenanceFault(previous: boolean | string, simulated: boolean): string | undefined {
  if (typeof previous === 'string')
    return `its site does not say whether its data are simulated (${previous}), so it is not republished as ${simulated ? 'simulated' : 'real'} data`;
  if (previous === simulated) return undefined;
  return previous
    ? 'its data are simulated (its status.json says so: a demo build wrote it), and this build publishes real data only'
    : 'its data are real, and this build is simulated (DEMO_SIMULATED=1): a demo never shows them as its own';
}
