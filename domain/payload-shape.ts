// Shape checks of the payloads for the page script, which cannot carry ajv, before it redraws a chart
// from an API answer. They check the members the pictures draw; schemas/ stays the full contract (which
// cli.mjs checks in full: cli/schema-check.ts). Draw nothing rather than nonsense.
import type { GitHubContributions } from './contributions.ts';
import type { MarketData } from './market.ts';
import type { GitHubStreak, GitHubStreakRun } from './streak.ts';

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

/** The streak's shape as the page script redraws it (the CLI checks the whole schema). */
export function isStreak(value: unknown): value is GitHubStreak {
  const v = value as Partial<GitHubStreak> | null;
  const run = (r: unknown) => {
    const x = r as Partial<GitHubStreakRun> | null;
    return !!x && Number.isInteger(x.days) && typeof x.reachesWindowStart === 'boolean';
  };
  return (
    !!v &&
    typeof v.username === 'string' &&
    typeof v.startDate === 'string' &&
    typeof v.endDate === 'string' &&
    typeof v.timeZone === 'string' &&
    Number.isInteger(v.activeDays) &&
    Array.isArray(v.restDays) &&
    run(v.current) &&
    run(v.longest)
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
