// The MarketData rules of docs/data-rules.md, on plain values: no network.
import { describe, expect, it } from 'vitest';
import { marketBodyHtml } from '../builders/datasets/market/view.ts';
import { drawnPoints, MAX_DRAWN_POINTS } from '../builders/render/charts/sparkline.ts';
import { UpstreamError } from '../builders/lib/errors.ts';
import { buildMarketData, marketWindow, type Candle, type MarketData, type Ticker } from '../builders/domain/market.ts';
import { parseCandles, parseTicker } from '../builders/upstreams/coinbase.ts';
import { createValidator } from '../builders/contract/schemas.ts';

const NOW = Date.parse('2026-11-22T14:05:00Z');
const NOW_S = NOW / 1000;
const HOUR = 3600;
const lastHour = Math.floor(NOW_S / HOUR) * HOUR; // 14:00
const ticker = (price: number, time = '2026-11-22T14:03:07.512345Z'): Ticker => ({
  price,
  time,
  timeMs: Date.parse(time),
});
const validator = createValidator();

describe('buildMarketData', () => {
  it('sorts unsorted candles ascending and appends a newer ticker point', () => {
    const candles: Candle[] = [
      { time: lastHour - 2 * HOUR, close: 0.02 },
      { time: lastHour, close: 0.04 },
      { time: lastHour - HOUR, close: 0.03 },
    ];
    const data = buildMarketData(
      ticker(0.05, '2026-11-22T14:03:07.512345Z'),
      candles,
      NOW,
      'Coinbase Exchange',
      'MON-USD',
    );
    expect(data.points).toEqual([
      { time: lastHour - 2 * HOUR, value: 0.02 },
      { time: lastHour - HOUR, value: 0.03 },
      { time: lastHour, value: 0.04 },
      { time: Math.floor(Date.parse('2026-11-22T14:03:07.512345Z') / 1000), value: 0.05 },
    ]);
    expect(data.value).toBe(0.05);
    expect(data.changePercent).toBeCloseTo(150, 10);
    expect(data.changePercent).toBe(((0.05 - 0.02) / 0.02) * 100); // unrounded
    expect(data.low).toBe(0.02);
    expect(data.high).toBe(0.05);
    expect(data.asOf).toBe('2026-11-22T14:03:07.512345Z');
    expect(data.windowSeconds).toBe(604800);
    expect(data.product).toBe('MON-USD');
    expect(data.currency).toBe('USD');
    expect(data.source).toBe('Coinbase Exchange');
    validator.validate('MarketData', data);
  });

  it('drops duplicated candle times, keeping one point per start time', () => {
    const data = buildMarketData(
      ticker(0.03),
      [
        { time: lastHour - HOUR, close: 0.01 },
        { time: lastHour - HOUR, close: 0.01 },
        { time: lastHour, close: 0.02 },
      ],
      NOW,
      'X',
      'MON-USD',
    );
    expect(data.points.map((p) => p.time)).toEqual([
      lastHour - HOUR,
      lastHour,
      Math.floor(Date.parse('2026-11-22T14:03:07.512345Z') / 1000),
    ]);
  });

  it('keeps gaps as they are: quiet hours are absent, never filled', () => {
    const data = buildMarketData(
      ticker(0.03),
      [
        { time: lastHour - 10 * HOUR, close: 0.01 },
        { time: lastHour, close: 0.02 },
      ],
      NOW,
      'X',
      'MON-USD',
    );
    expect(data.points).toHaveLength(3);
    expect(data.points[1]!.time - data.points[0]!.time).toBe(10 * HOUR);
  });

  it('drops candles outside [now - 604800 s, now]', () => {
    const { startSeconds, endSeconds } = marketWindow(NOW);
    expect(endSeconds - startSeconds).toBe(604800);
    const data = buildMarketData(
      ticker(0.03),
      [
        { time: startSeconds - HOUR, close: 9 }, // the row before start that the provider may add
        { time: startSeconds, close: 0.01 },
        { time: lastHour, close: 0.02 },
        { time: endSeconds + 300, close: 7 }, // after now, within the provider's 5 min of clock skew
      ],
      NOW,
      'X',
      'MON-USD',
    );
    expect(data.points.map((p) => p.value)).toEqual([0.01, 0.02, 0.03]);
    expect(data.high).toBe(0.03);
  });

  it.each([
    ['a ticker in 2999', ticker(0.03, '2999-12-31T23:59:59Z'), []],
    ['a ticker in 9999', ticker(0.03, '9999-12-31T23:59:59.999999Z'), []],
    ['a ticker 5 min and 1 ms after now', ticker(0.03, new Date(NOW + 300_001).toISOString()), []],
    ['a candle 5 min and 1 s after now', ticker(0.03), [{ time: NOW_S + 301, close: 0.02 }]],
    ['a candle in 2999', ticker(0.03), [{ time: Date.parse('2999-12-31T00:00:00Z') / 1000, close: 0.02 }]],
  ])('%s makes the upstream unusable (later than now plus 5 min)', (_name, t, late) => {
    const candles = [{ time: lastHour - HOUR, close: 0.02 }, { time: lastHour, close: 0.04 }, ...late];
    expect(() => buildMarketData(t, candles, NOW, 'X', 'MON-USD')).toThrow(/later than now plus 5 minutes/);
  });

  it('a ticker exactly 5 min after now is still usable', () => {
    const t = ticker(0.03, new Date(NOW + 300_000).toISOString());
    expect(buildMarketData(t, [{ time: lastHour, close: 0.02 }], NOW, 'X', 'MON-USD').asOf).toBe(t.time);
  });

  it('does not append a ticker that is not newer than the last candle, but still uses its price for value, low and high', () => {
    const older = ticker(0.001, '2026-11-22T13:59:59.000001Z');
    const data = buildMarketData(
      older,
      [
        { time: lastHour - HOUR, close: 0.02 },
        { time: lastHour, close: 0.04 },
      ],
      NOW,
      'X',
      'MON-USD',
    );
    expect(data.points).toEqual([
      { time: lastHour - HOUR, value: 0.02 },
      { time: lastHour, value: 0.04 },
    ]);
    expect(data.value).toBe(0.001);
    expect(data.low).toBe(0.001);
    expect(data.changePercent).toBe(((0.001 - 0.02) / 0.02) * 100);
  });

  it('a ticker at exactly the last candle time is not appended', () => {
    const same = ticker(0.05, new Date(lastHour * 1000).toISOString());
    const data = buildMarketData(
      same,
      [
        { time: lastHour - HOUR, close: 0.02 },
        { time: lastHour, close: 0.04 },
      ],
      NOW,
      'X',
      'MON-USD',
    );
    expect(data.points).toHaveLength(2);
  });

  it.each([
    ['no candles at all (only the ticker point)', [] as Candle[], ticker(0.03)],
    ['a zero price', [{ time: lastHour, close: 0.02 }], ticker(0)],
    ['a negative price', [{ time: lastHour, close: 0.02 }], ticker(-1)],
    ['a non-finite price', [{ time: lastHour, close: 0.02 }], ticker(Number.POSITIVE_INFINITY)],
    ['an unparsable time', [{ time: lastHour, close: 0.02 }], { price: 0.03, time: 'soon', timeMs: Number.NaN }],
    [
      'a zero close',
      [
        { time: lastHour - HOUR, close: 0 },
        { time: lastHour, close: 0.02 },
      ],
      ticker(0.03),
    ],
    [
      'only one point when the ticker is older',
      [{ time: lastHour, close: 0.02 }],
      ticker(0.03, '2026-11-22T13:00:00Z'),
    ],
  ])('%s is an unusable upstream', (_name, candles, t) => {
    expect(() => buildMarketData(t, candles, NOW, 'X', 'MON-USD')).toThrow(UpstreamError);
  });
});

describe('Coinbase wire format', () => {
  const body = {
    ask: '0.03012',
    bid: '0.03010',
    volume: '1203.5',
    trade_id: 86345,
    price: '0.030113',
    size: '120',
    time: '2026-11-22T14:03:07.512345Z',
  };

  it('reads the price as a full-precision decimal, with trade_id as a number or a string', () => {
    expect(parseTicker(body)).toEqual({ price: 0.030113, time: body.time, timeMs: Date.parse(body.time) });
    expect(parseTicker({ ...body, trade_id: '86345', rfq_volume: '0' }).price).toBe(0.030113);
  });

  it('keeps microseconds in asOf and floors the point time to whole seconds', () => {
    const t = parseTicker(body);
    expect(Math.floor(t.timeMs / 1000)).toBe(Date.UTC(2026, 10, 22, 14, 3, 7) / 1000);
    expect(t.time).toBe('2026-11-22T14:03:07.512345Z');
  });

  it.each([
    ['an array', []],
    ['a missing price', { time: body.time }],
    ['a non-decimal price', { ...body, price: '1e5' }],
    ['a price of null', { ...body, price: null }],
    ['a date without time', { ...body, time: '2026-11-22' }],
    ['an unparsable time', { ...body, time: 'Sun Nov 22' }],
  ])('rejects a ticker with %s', (_name, value) => {
    expect(() => parseTicker(value)).toThrow(UpstreamError);
  });

  it('reads candle rows [time, low, high, open, close, volume]', () => {
    expect(parseCandles([[1763820000, 0.02991, 0.03022, 0.03001, 0.03013, 5210.3]])).toEqual([
      { time: 1763820000, close: 0.03013 },
    ]);
  });

  it.each([
    ['an object', { message: 'ok' }],
    ['a short row', [[1, 2, 3]]],
    ['a string in a row', [[1763820000, '0.1', 0.2, 0.3, 0.4, 5]]],
    ['a fractional time', [[1763820000.5, 0.1, 0.2, 0.3, 0.4, 5]]],
  ])('rejects candles that are %s', (_name, value) => {
    expect(() => parseCandles(value)).toThrow(UpstreamError);
  });
});

describe('the market chart of a hostile payload', () => {
  // What the page script may be handed (an answer, a tick): points from 1970 to 9999, 33,000 of them, out of
  // order, values from 1e-300 to 1e300. The build refuses such data; the chart still draws it in a bounded size.
  const hostile = (count: number): MarketData => {
    const points = Array.from({ length: count }, (_, i) => ({
      time: i === count - 1 ? 253402300799 : Math.floor((i * 7919) % count) * 7200,
      value: i % 2 ? 1e300 : 1e-300,
    }));
    return {
      product: 'MON-USD',
      currency: 'USD',
      source: 'X',
      windowSeconds: 604800,
      points,
      value: 1e300,
      changePercent: 1e300,
      low: 1e-300,
      high: 1e300,
      asOf: '9999-12-31T23:59:59Z',
    };
  };

  it('draws every axis within the seven-day window: at most 8 day lines, 400 points and 8 table rows, whatever the data', () => {
    const sizes = [100, 33_000].map((count) => {
      const html = marketBodyHtml(hostile(count));
      expect(html.match(/<line x1="[\d.]+" y1="0"/g)?.length ?? 0).toBeLessThanOrEqual(8);
      expect(html.match(/<tr><th scope="row">/g)?.length ?? 0).toBeLessThanOrEqual(8);
      const series = /data-series="([^"]*)"/.exec(html)![1]!.split(' ');
      expect(series.length).toBeLessThanOrEqual(MAX_DRAWN_POINTS);
      const times = series.map((p) => Number(p.split(',')[0]));
      expect(Math.max(...times) - Math.min(...times)).toBeLessThanOrEqual(604_800);
      return html.length;
    });
    // Constant size: 330 times the points, the same bound.
    expect(sizes[1]!).toBeLessThan(200_000);
    expect(sizes[0]!).toBeLessThan(200_000);
  });

  it('a real week is drawn as it is', () => {
    const week = Array.from({ length: 169 }, (_, i) => ({
      time: 1_795_000_000 - (168 - i) * 3600,
      value: 0.03 + i / 1e4,
    }));
    expect(drawnPoints(week)).toBe(week);
  });
});
