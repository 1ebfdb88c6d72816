// When a previous snapshot may be republished (domain/reuse.ts, docs/data-rules.md#reusing-a-previous-snapshot):
// the calendar swept across Toronto's midnights in both seasons and on both daylight-saving days, against the
// date Intl gives in the zone (not luxon, which the rule itself uses); the market's three hours, to the millisecond.
import { describe, expect, it } from 'vitest';
import { calendarWindow } from '../domain/calendar.ts';
import { buildContributions, type GitHubContributions } from '../domain/contributions.ts';
import { buildMarketData } from '../domain/market.ts';
import { calendarReuse, MARKET_REUSE_MAX_MS, marketReuse } from '../domain/reuse.ts';
import { candleRows, contributionOn } from '../fakes/data.ts';

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
});

describe('the market: valid for three hours after its asOf', () => {
  const built = Date.parse('2026-11-23T15:00:00Z');
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
