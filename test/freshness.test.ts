// The one rule of a snapshot's validity and age (builders/domain/freshness.ts, docs/data-rules.md#freshness) and
// the words every reader gets from it (builders/render/age.ts), on hand-made payloads at exact instants.
import { describe, expect, it } from 'vitest';
import { freshness, MARKET_REUSE_MAX_MS } from '../builders/domain/freshness.ts';
import { ageInWords, ageSentence, staleSentence, staleWarning, validityAttributes } from '../builders/render/age.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Toronto's midnight after 2026-11-23 (EST): 05:00 UTC on the 24th.
const calendar = { nextRefreshAt: '2026-11-24T00:00:00-05:00', endDate: '2026-11-23', timeZone: 'America/Toronto' };
const market = { asOf: '2026-11-23T14:59:30.123456Z' };
const NEXT_MIDNIGHT = Date.parse('2026-11-24T05:00:00Z');

describe('freshness', () => {
  it('a calendar is valid until its nextRefreshAt and its data are at most a day older', () => {
    expect(freshness(calendar, NEXT_MIDNIGHT - 1)).toEqual({
      asOfMs: NEXT_MIDNIGHT - DAY,
      validUntilMs: NEXT_MIDNIGHT,
      stale: false,
      ageMs: DAY - 1,
    });
    expect(freshness(calendar, NEXT_MIDNIGHT)!.stale).toBe(true);
    expect(freshness(calendar, NEXT_MIDNIGHT + 9 * DAY)!.ageMs).toBe(10 * DAY);
  });

  it('a market snapshot is valid for the reuse bound after its asOf', () => {
    const asOf = Date.parse(market.asOf);
    expect(MARKET_REUSE_MAX_MS).toBe(3 * HOUR);
    expect(freshness(market, asOf + 3 * HOUR - 1)!.stale).toBe(false);
    expect(freshness(market, asOf + 3 * HOUR)).toMatchObject({ stale: true, ageMs: 3 * HOUR });
    // a clock behind the provider's: no negative age
    expect(freshness(market, asOf - 1000)!.ageMs).toBe(0);
  });

  it("an asOf-only payload is valid for its dataset's window when one is given (the projects' 7 days)", () => {
    const asOf = Date.parse(market.asOf);
    expect(freshness(market, asOf + 5 * HOUR, 7 * DAY)).toMatchObject({ stale: false, validUntilMs: asOf + 7 * DAY });
    expect(freshness(market, asOf + 7 * DAY, 7 * DAY)!.stale).toBe(true);
    expect(validityAttributes(market, 7 * DAY)).toBe(
      ` data-as-of="${new Date(asOf).toISOString()}" data-valid-until="${new Date(asOf + 7 * DAY).toISOString()}"`,
    );
    // a window never moves a calendar's end: it is its nextRefreshAt
    expect(freshness(calendar, 0, 7 * DAY)!.validUntilMs).toBe(NEXT_MIDNIGHT);
  });

  it('claims nothing of a payload that says neither, or an instant that is not one', () => {
    for (const payload of [null, 1, 'x', {}, { asOf: 'yesterday' }, { nextRefreshAt: 7 }, { nextRefreshAt: 'soon' }])
      expect(freshness(payload, 0), JSON.stringify(payload)).toBeNull();
  });
});

describe('the words', () => {
  it('ages in whole units, rounded down', () => {
    expect([59_999, 60_000, HOUR - 1, HOUR, DAY - 1, DAY, 2 * DAY, 12 * DAY + 23 * HOUR].map(ageInWords)).toEqual([
      'less than a minute',
      '1 min',
      '59 min',
      '1 h',
      '23 h',
      '1 day',
      '2 days',
      '12 days',
    ]);
  });

  it('a stale snapshot: its age and that the site stopped; a valid one: its age and its end', () => {
    const later = NEXT_MIDNIGHT + 9 * DAY;
    const stale = freshness(calendar, later)!;
    expect(staleSentence(stale)).toBe(
      'These data are 10 days old: the site stopped refreshing them (they were due to be replaced at 2026-11-24 05:00 UTC).',
    );
    expect(ageSentence(calendar, later)).toBe(staleSentence(stale));
    // a calendar is a day's data: said as that day, never as hours since its midnight, whenever it was fetched
    for (const now of [NEXT_MIDNIGHT - DAY + 1000, NEXT_MIDNIGHT - 11 * HOUR, NEXT_MIDNIGHT - 1])
      expect(ageSentence(calendar, now)).toBe(
        "From today's calendar in America/Toronto (2026-11-23), valid until midnight there (2026-11-24 05:00 UTC).",
      );
    // the market: its age from its asOf; fetched a moment ago, less than a minute old
    const asOf = Date.parse(market.asOf);
    expect(ageSentence(market, asOf + 30_000)).toBe(
      'These data are less than a minute old: valid until 2026-11-23 17:59 UTC.',
    );
    expect(ageSentence(market, asOf + 2 * HOUR)).toBe('These data are 2 h old: valid until 2026-11-23 17:59 UTC.');
    expect(ageSentence({}, 0)).toBeNull();
    expect(staleWarning('Contribution calendar', calendar, later)).toEqual({
      warning: `stale contribution calendar: ${staleSentence(stale)}`,
    });
    expect(staleWarning('Contribution calendar', calendar, NEXT_MIDNIGHT - 1)).toEqual({});
  });

  it('a figure carries its validity as two instants', () => {
    expect(validityAttributes(calendar)).toBe(
      ' data-as-of="2026-11-23T05:00:00.000Z" data-valid-until="2026-11-24T05:00:00.000Z"',
    );
    expect(validityAttributes(null)).toBe('');
  });
});
