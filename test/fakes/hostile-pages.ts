// Calendar pages crafted to make a parser do more than linear work, each of about `bytes` characters:
// the shapes a hostile or broken upstream can send within the 8 MiB cap (docs/upstreams.md's markup, abused).

const DAY_MS = 86_400_000;

/**
 * One tooltip of about `bytes` characters shared by `cells` cells (ids need not be unique in HTML): a
 * parser that reads the tooltip once per cell does `cells × bytes` work. The counts parse; the dates
 * are `cells` days ending on `endDate`, so a 365-day window lacks days and the upstream is unusable.
 */
export function sharedTooltipPage(bytes: number, cells = 500, endDate = '2026-11-22'): string {
  const end = Date.parse(`${endDate}T00:00:00Z`);
  const tds = Array.from(
    { length: cells },
    (_, i) =>
      `<td tabindex="0" data-date="${new Date(end - i * DAY_MS).toISOString().slice(0, 10)}" id="shared" data-level="1" class="ContributionCalendar-day"></td>`,
  ).join('\n');
  const padding = Math.max(0, bytes - tds.length);
  return `<table>${tds}</table><tool-tip for="shared">3 contributions on January 4th.${' \n'.repeat(padding / 2)}</tool-tip>`;
}

/** How many cells fill half of a page of `bytes` characters (a cell is about 130 characters). */
export const denseCells = (bytes: number) => Math.floor(bytes / 2 / 130);

/** Every other shape, by name: runs of "<", unclosed tags, whitespace and digit runs where a count is read. */
export const HOSTILE_PAGE_SHAPES: Record<string, (bytes: number) => string> = {
  // Half the page is cells naming one tooltip, half is that tooltip: reading it per cell is quadratic.
  'one tooltip shared by cells filling half the page': (bytes) => sharedTooltipPage(bytes, denseCells(bytes)),
  'a run of "<"': (bytes) => '<'.repeat(bytes),
  'a run of "<" inside a tooltip': (bytes) =>
    `<td data-date="2026-01-01" id="x" data-level="1"></td><tool-tip for="x">${'<'.repeat(bytes)}</tool-tip>`,
  // Each "<td" opens a tag that the next thousand do not end: the ">" comes 4 KB later.
  'unclosed <td tags': (bytes) => `${'<td '.repeat(1000)}>`.repeat(bytes / 4001),
  'unclosed tags inside a tooltip': (bytes) =>
    `<td data-date="2026-01-01" id="x" data-level="1"></td><tool-tip for="x">${'<a title="'.repeat(bytes / 10)}</tool-tip>`,
  'a tooltip never closed': (bytes) =>
    `<td data-date="2026-01-01" id="x" data-level="1"></td><tool-tip for="x">1 contribution on${' </tool-tip'.repeat(bytes / 11)}`,
  'whitespace before a shared count': (bytes) =>
    sharedTooltipPage(0).replace('3 contributions', `${' '.repeat(bytes)}3 contributions`),
  'digit groups in a shared count': (bytes) =>
    sharedTooltipPage(0).replace('3 contributions', `1${',234'.repeat(bytes / 4)}x`),
  'many small tooltips': (bytes) =>
    `<td data-date="2026-01-01" id="x" data-level="1"></td>${'<tool-tip for="x">a</tool-tip>'.repeat(bytes / 30)}`,
};
