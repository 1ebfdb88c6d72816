// The heatmap's month labels whole on any day of the year: a build on each day of a year (an injected
// clock, the calendar's own window) lays out every month label inside the picture and clear of the others,
// on the card and the wide page (one band) and on the phone (two bands, larger labels). Before the fix, a
// year ending early in a month (built on 1 December) cut its last label to "De".
import { describe, expect, it } from 'vitest';
import { calendarWindow } from '../builders/domain/calendar.ts';
import type { GitHubContributions } from '../builders/domain/contributions.ts';
import { HEATMAP, heatmapLayout, NARROW_LABEL_SIZE } from '../builders/render/charts/heatmap.ts';
import { LIGHT } from '../builders/render/charts/theme.ts';
import { textWidth } from '../builders/render/text-width.ts';
import { contributionsCard } from '../builders/datasets/contributions/card.ts';
import { startTags } from './helpers/svg-card.ts';

const ZONE = 'America/Toronto';
const MONTHS = /^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)$/;
/** Noon in Toronto on each day of 2026 and of the leap year 2028. */
const BUILD_DAYS = [2026, 2028].flatMap((year) => {
  const days = year % 4 === 0 ? 366 : 365;
  return Array.from({ length: days }, (_, i) => Date.UTC(year, 0, 1 + i, 17));
});

const calendarAt = (nowMs: number): GitHubContributions => {
  const window = calendarWindow(nowMs, ZONE);
  return {
    username: 'octocat',
    totalContributions: 0,
    startDate: window.startDate,
    endDate: window.endDate,
    days: window.dates.map((date) => ({ date, count: 0, level: 0 })),
    timeZone: ZONE,
    nextRefreshAt: window.nextRefreshAt,
  };
};

/** What is wrong with the month labels of one layout: a label cut at an edge, or two labels overlapping. */
function labelFaults(days: GitHubContributions['days'], bands: number, size: number): string[] {
  const layout = heatmapLayout(days, bands, size);
  const months = layout.labels.filter((l) => MONTHS.test(l.text));
  const faults: string[] = [];
  for (const l of months) {
    const right = l.x + textWidth(l.text, size);
    if (l.x < HEATMAP.left || right > layout.width + 1e-9)
      faults.push(`${l.text} at ${l.x.toFixed(1)}..${right.toFixed(1)} of ${layout.width}`);
  }
  for (const y of new Set(months.map((l) => l.y))) {
    const row = months.filter((l) => l.y === y).sort((a, b) => a.x - b.x);
    for (let i = 1; i < row.length; i++)
      if (row[i - 1]!.x + textWidth(row[i - 1]!.text, size) > row[i]!.x)
        faults.push(`${row[i - 1]!.text} overlaps ${row[i]!.text}`);
  }
  return faults;
}

describe('the heatmap shows every month label whole on any day of the year', () => {
  it.each([
    ['the card and the wide page (one band)', 1, HEATMAP.fontSize],
    ['the phone (two bands)', 2, NARROW_LABEL_SIZE],
  ])('%s: every build day of 2026 and 2028, no label cut or overlapping', (_, bands, size) => {
    const faults = BUILD_DAYS.flatMap((ms) =>
      labelFaults(calendarAt(ms).days, bands, size).map((f) => `${new Date(ms).toISOString().slice(0, 10)}: ${f}`),
    );
    expect(faults).toEqual([]);
  });

  it('the card built on 1 December labels December whole, over its last column', () => {
    const builtMs = Date.UTC(2026, 11, 1, 17);
    const calendar = calendarAt(builtMs);
    expect(calendar.endDate).toBe('2026-12-01');
    const svg = contributionsCard(calendar, LIGHT, builtMs, false);
    const grid = startTags(svg).find((t) => t.name === 'svg' && t.attributes.get('class') === 'heatmap')!;
    const width = Number(grid.attributes.get('width'));
    const dec = [...svg.matchAll(/<text class="heatmap-label" x="([\d.]+)" y="[\d.]+">Dec<\/text>/g)];
    expect(dec).toHaveLength(1);
    const x = Number(dec[0]![1]);
    expect(x + textWidth('Dec', HEATMAP.fontSize)).toBeLessThanOrEqual(width);
    // Still over the column of 1 December: its label ends past that column's left edge.
    const lastColumn = heatmapLayout(calendar.days).cells.at(-1)!.x;
    expect(x + textWidth('Dec', HEATMAP.fontSize)).toBeGreaterThan(lastColumn);
  });
});
