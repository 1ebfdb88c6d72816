// Shape checks of the two payloads for the readers that cannot carry ajv: the page script (before it
// redraws a chart from an API answer) and the dependency-free cli.mjs (before it draws one). They check
// the members the pictures draw; schemas/ stays the full contract. Draw nothing rather than nonsense.
import type { GitHubContributions } from './contributions.ts';
import type { MarketData } from './market.ts';

export function isMarketData(value: unknown): value is MarketData {
  const v = value as Partial<MarketData> | null;
  return (
    !!v &&
    Array.isArray(v.points) &&
    v.points.length >= 2 &&
    Number.isInteger(v.windowSeconds) &&
    v.points.every((p) => p && Number.isFinite(p.time) && Number.isFinite(p.value)) &&
    [v.value, v.changePercent, v.low, v.high].every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    typeof v.asOf === 'string' &&
    typeof v.product === 'string' &&
    typeof v.currency === 'string'
  );
}

export function isContributions(value: unknown): value is GitHubContributions {
  const v = value as Partial<GitHubContributions> | null;
  return (
    !!v &&
    Array.isArray(v.days) &&
    v.days.length > 0 &&
    v.days.every((d) => d && typeof d.date === 'string' && Number.isInteger(d.count) && Number.isInteger(d.level)) &&
    Number.isInteger(v.totalContributions) &&
    typeof v.username === 'string' &&
    typeof v.startDate === 'string' &&
    typeof v.endDate === 'string' &&
    typeof v.timeZone === 'string'
  );
}
