// When a previous snapshot may be republished (builders/domain/reuse.ts, docs/data-rules.md#reusing-a-previous-snapshot):
// the calendar swept across Toronto's midnights in both seasons and on both daylight-saving days, against the
// date Intl gives in the zone (not luxon, which the rule itself uses); the market's three hours, to the millisecond.
import { describe, expect, it } from 'vitest';
import { calendarWindow } from '../builders/domain/calendar.ts';
import { buildContributions, type GitHubContributions } from '../builders/domain/contributions.ts';
import { buildMarketData, type MarketData } from '../builders/domain/market.ts';
import { calendarReuse, MARKET_REUSE_MAX_MS, marketFault, marketReuse } from '../builders/domain/reuse.ts';
import { candleRows, contributionOn } from './fakes/data.ts';

const HOUR = 3_600_000;
const STEP = 30 * 60_000;
const OWNER = { username: 'octocat', timeZone: 'America/Toronto' };

/** The date in Toronto at `ms`, as Intl reads the zone database. */
const torontoDate = (ms: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Toronto', year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(ms)
    .slice(0, 10);

/** The calendar a build at `nowMs` writes. */
const calendarAt = (nowMs: number): GitHubContributions =>
  buildContributions(
    'github-html',
    'octocat',
    calendarWindow(nowMs, 'America/Toronto').dates.map(contributionOn),
    nowMs,
    'America/Toronto',
  );

describe('the calendar: valid for the rest of its day in America/Toronto', () => {
  it.each([
    ['winter (EST)', '2026-01-15', 24],
    ['summer (EDT)', '2026-07-15', 24],
    ['spring forward, a 23-hour day', '2026-03-08', 23],
    ['fall back, a 25-hour day', '2026-11-01', 25],
    ['the last day of the year', '2026-12-31', 24],
  ])('%s: built on %s, reusable exactly while it is that date in Toronto', (_season, date, hours) => {
    const built = Date.parse(`${date}T17:00:00Z`); // noon or 13:00 in Toronto
    expect(torontoDate(built)).toBe(date);
    const snapshot = calendarAt(built);
    let dayBegan: number | undefined;
    let lastValid = 0;
    // From the evening before to the evening after, every half hour (Toronto's midnights fall on this grid).
    for (let t = Date.parse(`${date}T00:00:00Z`); t <= Date.parse(`${date}T00:00:00Z`) + 48 * HOUR; t += STEP) {
      const expected = torontoDate(t) === date;
      const reuse = calendarReuse(snapshot, t, OWNER);
      expect(reuse.reusable, new Date(t).toISOString()).toBe(expected);
      if (!expected) continue;
      dayBegan ??= t;
      lastValid = t;
      expect(reuse).toEqual({ reusable: true, ageMs: t - dayBegan });
    }
    expect(lastValid + STEP - dayBegan!).toBe(hours * HOUR);
  });

  it.each([
    ['EST', '2026-11-23T17:00:00Z', '2026-11-24T04:59:59.999Z', '2026-11-24T05:00:00.000Z'],
    ['EDT', '2026-07-15T17:00:00Z', '2026-07-16T03:59:59.999Z', '2026-07-16T04:00:00.000Z'],
  ])(
    'late evening in Toronto (%s), UTC already the next day: still valid until Toronto midnight',
    (_zone, built, lastMoment, midnight) => {
      const snapshot = calendarAt(Date.parse(built));
      expect(calendarReuse(snapshot, Date.parse(lastMoment), OWNER).reusable).toBe(true);
      expect(calendarReuse(snapshot, Date.parse(midnight), OWNER)).toEqual({
        reusable: false,
        reason: `it ends on ${snapshot.endDate}, and today is ${torontoDate(Date.parse(midnight))} in America/Toronto`,
      });
    },
  );

  it("refuses another account's, another zone's, and one whose days or total do not add up", () => {
    const now = Date.parse('2026-11-23T15:00:00Z');
    const snapshot = calendarAt(now);
    expect(calendarReuse(snapshot, now, OWNER).reusable).toBe(true);
    expect(calendarReuse(snapshot, now, { ...OWNER, username: 'Octocat' }).reusable).toBe(false);
    expect(
      calendarReuse({ ...snapshot, timeZone: 'Europe/Paris' } as unknown as GitHubContributions, now, OWNER),
    ).toEqual({
      reusable: false,
      reason: 'its days are in Europe/Paris, not America/Toronto',
    });
    expect(
      calendarReuse({ ...snapshot, totalContributions: snapshot.totalContributions + 1 }, now, OWNER).reusable,
    ).toBe(false);
    expect(calendarReuse({ ...snapshot, days: snapshot.days.slice(1) }, now, OWNER).reusable).toBe(false);
  });

  it('names the rule a calendar breaks: its start, its refresh time, a date of its window, its total', () => {
    const now = Date.parse('2026-11-23T15:00:00Z');
    const snapshot = calendarAt(now);
    const reason = (changed: Partial<GitHubContributions>) =>
      (calendarReuse({ ...snapshot, ...changed }, now, OWNER) as { reason: string }).reason;
    expect(reason({ startDate: '2025-11-23' })).toBe(
      'it starts on 2025-11-23, not 2025-11-24, 364 days before its end',
    );
    expect(reason({ nextRefreshAt: '2026-11-24T00:00:00.000Z' })).toBe(
      'its nextRefreshAt 2026-11-24T00:00:00.000Z is not 2026-11-24T00:00:00.000-05:00, the next midnight',
    );
    const days = snapshot.days.map((d, i) => (i === 99 ? { ...d, date: '2031-01-01' } : d));
    expect(reason({ days })).toBe(`its day 100 is 2031-01-01, not ${snapshot.days[99]!.date} of its window`);
    expect(reason({ totalContributions: snapshot.totalContributions + 1 })).toBe(
      `its totalContributions ${snapshot.totalContributions + 1} is not the sum of its days (${snapshot.totalContributions})`,
    );
  });
});

describe('the market: valid for three hours after its asOf', () => {
  // Built a moment after its ticker's trade: its newest point is the ticker point, not later than asOf.
  const built = Date.parse('2026-11-23T14:59:59.900Z');
  const end = Math.floor(built / 1000);
  const candles = candleRows(end - 604_800, end).map(([time, , , , close]) => ({ time: time!, close: close! }));
  const asOf = '2026-11-23T14:59:59.500123Z';
  const snapshot = buildMarketData(
    { price: 0.0301, time: asOf, timeMs: Date.parse(asOf) },
    candles,
    built,
    'Coinbase Exchange',
    'MON-USD',
  );
  const source = { source: 'Coinbase Exchange', product: 'MON-USD' };
  const asOfMs = Date.parse(asOf);

  it('is three hours, measured from asOf, both ends included; never from the future', () => {
    expect(MARKET_REUSE_MAX_MS).toBe(3 * HOUR);
    expect(marketReuse(snapshot, asOfMs, source)).toEqual({ reusable: true, ageMs: 0 });
    expect(marketReuse(snapshot, asOfMs + HOUR, source)).toEqual({ reusable: true, ageMs: HOUR });
    expect(marketReuse(snapshot, asOfMs + 3 * HOUR, source)).toEqual({ reusable: true, ageMs: 3 * HOUR });
    expect(marketReuse(snapshot, asOfMs + 3 * HOUR + 1, source)).toEqual({
      reusable: false,
      reason: `its asOf ${asOf} is more than 3 h old`,
    });
    expect(marketReuse(snapshot, asOfMs - 1, source)).toEqual({
      reusable: false,
      reason: `its asOf ${asOf} is later than now`,
    });
  });

  it("refuses another source's, and one whose figures do not follow from its points", () => {
    expect(marketReuse(snapshot, asOfMs, { ...source, source: 'Simulated Exchange' }).reusable).toBe(false);
    expect(marketReuse(snapshot, asOfMs, { ...source, product: 'BTC-USD' }).reusable).toBe(false);
    expect(marketReuse({ ...snapshot, high: snapshot.high + 1 }, asOfMs, source).reusable).toBe(false);
    expect(marketReuse({ ...snapshot, changePercent: 0 }, asOfMs, source).reusable).toBe(false);
    expect(marketReuse({ ...snapshot, points: [...snapshot.points].reverse() }, asOfMs, source).reusable).toBe(false);
  });
});

describe('the market: only what the fresh rules could have written before now', () => {
  const source = { source: 'Coinbase Exchange', product: 'MON-USD' };
  /** What a build at `builtAt` writes when the provider's last trade is at `asOf`. */
  const marketAt = (builtAt: string, asOf: string): MarketData => {
    const end = Math.floor(Date.parse(builtAt) / 1000);
    const candles = candleRows(end - 604_800, end).map(([time, , , , close]) => ({ time: time!, close: close! }));
    return buildMarketData(
      { price: 0.0301, time: asOf, timeMs: Date.parse(asOf) },
      candles,
      Date.parse(builtAt),
      'Coinbase Exchange',
      'MON-USD',
    );
  };
  /** An hour after the mid-hour snapshot's build, as the next hourly run. */
  const NOW = Date.parse('2026-11-23T16:20:00Z');
  const fault = (snapshot: MarketData, nowMs = NOW) => marketFault(snapshot, Date.parse(snapshot.asOf), nowMs);
  /** `snapshot` with its points replaced, its figures following them as the rules compute them. */
  const withPoints = (snapshot: MarketData, points: MarketData['points']): MarketData => {
    const values = [...points.map((p) => p.value), snapshot.value];
    return {
      ...snapshot,
      points,
      changePercent: ((snapshot.value - points[0]!.value) / points[0]!.value) * 100,
      low: Math.min(...values),
      high: Math.max(...values),
    };
  };
  // Mid-hour: 168 candles, then the ticker point, off the hour.
  const midHour = marketAt('2026-11-23T15:20:00Z', '2026-11-23T15:19:58.500123Z');
  // On the hour: the provider already lists the candle that starts a moment after its ticker's trade.
  const onHour = marketAt('2026-11-23T15:00:00Z', '2026-11-23T14:59:58.500123Z');

  it('accepts what a build writes: the ticker point last, or a candle starting a moment after asOf', () => {
    expect(midHour.points).toHaveLength(169);
    expect(midHour.points.at(-1)).toEqual({ time: Date.parse('2026-11-23T15:19:58Z') / 1000, value: 0.0301 });
    expect(fault(midHour)).toBeUndefined();
    expect(onHour.points).toHaveLength(169);
    expect(onHour.points.at(-1)!.time).toBe(Date.parse('2026-11-23T15:00:00Z') / 1000);
    expect(fault(onHour)).toBeUndefined();
    expect(marketReuse(onHour, Date.parse('2026-11-23T16:00:00Z'), source).reusable).toBe(true);
  });

  it('refuses a point later than now, far or near; a candle newer than asOf is no fault', () => {
    const last = midHour.points.length - 1;
    const at = (time: number) => withPoints(midHour, [...midHour.points.slice(0, last), { time, value: 0.0301 }]);
    // A candle after asOf, as a provider whose ticker lags its candles lists it: what a build at 16:00 writes.
    const sixteen = Date.parse('2026-11-23T16:00:00Z') / 1000;
    expect(fault(at(sixteen))).toBeUndefined();
    expect(fault(at(sixteen), sixteen * 1000 - 1)).toBe(
      `its point 169 of 169 (time ${sixteen}) is later than now, 2026-11-23T15:59:59Z`,
    );
    for (const time of [sixteen + 3600, Date.parse('3000-01-01T00:00:00Z') / 1000, 1e300])
      expect(fault(at(time))).toBe(`its point 169 of 169 (time ${time}) is later than now, 2026-11-23T16:20:00Z`);
  });

  it('refuses points that do not ascend, are off the hour, or reach back past the seven days', () => {
    const swapped = [...midHour.points];
    [swapped[10], swapped[11]] = [swapped[11]!, swapped[10]!];
    expect(fault(withPoints(midHour, swapped))).toBe(
      `its point 12 of 169 (time ${swapped[11]!.time}) does not come after the one before it`,
    );
    const twice = [...midHour.points.slice(0, 11), midHour.points[10]!, ...midHour.points.slice(12)];
    expect(fault(withPoints(midHour, twice))).toMatch(/^its point 12 of 169 \(time \d+\) does not come after/);
    const offHour = midHour.points.map((p, i) => (i === 20 ? { ...p, time: p.time + 1 } : p));
    expect(fault(withPoints(midHour, offHour))).toBe(
      `its point 21 of 169 (time ${offHour[20]!.time}) is neither a candle's start on the hour nor its ticker point (floor of asOf, at value)`,
    );
    // The ticker point's time with another value than `value` is no ticker point.
    const notTicker = midHour.points.map((p, i) => (i === 168 ? { ...p, value: 0.0302 } : p));
    expect(fault(withPoints(midHour, notTicker))).toMatch(/^its point 169 of 169 .* is neither a candle's start/);
    const older = [{ time: midHour.points[0]!.time - 3600, value: 0.03 }, ...midHour.points.slice(1)];
    expect(fault(withPoints(midHour, older))).toBe(
      `its first point (time ${older[0]!.time}) is before 2026-11-16T15:19:58Z, outside its seven-day window`,
    );
  });

  it('refuses points that lack the ticker point the rules append, and figures that do not follow', () => {
    expect(fault(withPoints(midHour, midHour.points.slice(0, -1)))).toBe(
      'its points are not what the market rules make of them and its asOf (169 points)',
    );
    expect(fault({ ...midHour, low: midHour.low / 2 })).toBe(
      `its low ${midHour.low / 2} is not what its points and value give (${midHour.low})`,
    );
    // The schema refuses a price of 0 first; the market rules refuse it too, as they would a candle's close.
    const zero = midHour.points.map((p, i) => (i === 7 ? { ...p, value: 0 } : p));
    expect(fault(withPoints(midHour, zero))).toBe(
      `the market rules refuse it as they would the upstream's answer: coinbase: candle at ${zero[7]!.time} has close 0, not a positive number`,
    );
    expect(fault({ ...midHour, changePercent: midHour.changePercent + 1e-12 })).toMatch(
      /^its changePercent \S+ is not what its points and value give/,
    );
  });
});
