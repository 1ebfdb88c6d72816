// Whether a previously published snapshot may be published again unchanged, when its upstream gives no
// usable data now (`npm run build -- --previous <dir>`, docs/data-rules.md#reusing-a-previous-snapshot).
// Pure: (schema-valid payload, what the configuration expects, now) → reusable with its age, or why not.
import { DateTime } from 'luxon';
import { calendarWindow } from './calendar.ts';
import type { GitHubContributions } from './contributions.ts';
import type { MarketData } from './market.ts';
import { MARKET_REUSE_MAX_MS } from './freshness.ts';

// The market's bound is its validity too (freshness.ts): one number for both rules.
export { MARKET_REUSE_MAX_MS };

export type Reuse =
  /** `ageMs`: how old the data are at most, at the build's "now". */
  { reusable: true; ageMs: number } | { reusable: false; reason: string };

const refuse = (reason: string): Reuse => ({ reusable: false, reason });

/**
 * A market snapshot is reusable while it describes the configured product and source, is internally what
 * the rules of docs/data-rules.md make of its own points, and its `asOf` (the provider's time of the value
 * it shows) is neither in the future nor more than MARKET_REUSE_MAX_MS before `nowMs`. Its age is measured
 * from the payload, never from when a file was copied: a reused snapshot reused again keeps ageing.
 */
export function marketReuse(snapshot: MarketData, nowMs: number, expected: { source: string; product: string }): Reuse {
  if (snapshot.product !== expected.product) return refuse(`it is for ${snapshot.product}, not ${expected.product}`);
  if (snapshot.source !== expected.source)
    return refuse(`its source is ${JSON.stringify(snapshot.source)}, not ${JSON.stringify(expected.source)}`);
  const values = [...snapshot.points.map((p) => p.value), snapshot.value];
  const first = snapshot.points[0]!.value;
  if (
    snapshot.low !== Math.min(...values) ||
    snapshot.high !== Math.max(...values) ||
    snapshot.changePercent !== ((snapshot.value - first) / first) * 100 ||
    snapshot.points.some((p, i) => i > 0 && p.time <= snapshot.points[i - 1]!.time)
  )
    return refuse('its low, high, change or point order do not follow from its points');
  const asOfMs = Date.parse(snapshot.asOf);
  if (!Number.isFinite(asOfMs)) return refuse(`its asOf ${JSON.stringify(snapshot.asOf)} is not an instant`);
  const ageMs = nowMs - asOfMs;
  if (ageMs < 0) return refuse(`its asOf ${snapshot.asOf} is later than now`);
  if (ageMs > MARKET_REUSE_MAX_MS)
    return refuse(`its asOf ${snapshot.asOf} is more than ${MARKET_REUSE_MAX_MS / 3_600_000} h old`);
  return { reusable: true, ageMs };
}

/**
 * A calendar snapshot is reusable while it is the configured account's, in the configured zone, and its
 * window is exactly the one a build would compute now (docs/data-rules.md#contribution-calendar): the same
 * `endDate`, today in the zone, so it stays valid until the zone's next midnight. Its counts were read at
 * some moment of that day, so its age is at most the time since that day began.
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
  if (
    snapshot.startDate !== window.startDate ||
    snapshot.nextRefreshAt !== window.nextRefreshAt ||
    snapshot.days.length !== window.dates.length ||
    snapshot.days.some((d, i) => d.date !== window.dates[i]) ||
    snapshot.totalContributions !== snapshot.days.reduce((sum, d) => sum + d.count, 0)
  )
    return refuse(`its window, refresh time or total are not what ${window.endDate} gives`);
  const dayBeganMs = DateTime.fromISO(window.endDate, { zone }).toMillis();
  return { reusable: true, ageMs: nowMs - dayBeganMs };
}
