// GitHub's public HTML contribution calendar (no token). The markup has changed often, so anything
// this parser does not recognise is an upstream failure, never a calendar of zeros.
import type { ContributionDay } from '../domain/contributions.ts';
import { UpstreamError } from '../lib/errors.ts';
import { upstreamClient, type HttpOptions } from './http.ts';

/** The real fragment is about 300 KB; a page many times that size is not the calendar. */
export const MAX_CALENDAR_HTML_BYTES = 8 * 1024 * 1024;

export function githubHtmlClient(webUrl: string, account: string, http: HttpOptions) {
  const base = `${webUrl}/users/${encodeURIComponent(account)}/contributions`;
  const get = upstreamClient('github-html', {
    ...http,
    // Since 2024 the fragment is only served to requests that look like the profile page's own XHR.
    headers: {
      accept: 'text/html',
      'x-requested-with': 'XMLHttpRequest',
      referer: `${webUrl}/${encodeURIComponent(account)}`,
    },
  });
  const fetchView = async (url: string): Promise<ContributionDay[]> => {
    let html: unknown;
    try {
      html = await get(url, { as: 'text', maxBytes: MAX_CALENDAR_HTML_BYTES });
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 404) {
        throw new UpstreamError('github-html', `account "${account}" not found (404)`, { cause: error, status: 404 });
      }
      throw error;
    }
    return parseCalendarHtml(html as string);
  };
  /**
   * The default view ends on GitHub's UTC today and starts on a Sunday about a year back, by a rule nobody
   * outside GitHub knows (one year, or 52 whole weeks): on some hours it lacks the window's first date, and it
   * never holds a window dated in the past. The year views fill what it lacks (docs/upstreams.md): at most three
   * requests, since 365 dates span at most two calendar years.
   */
  return async function contributionDays(dates: readonly string[]): Promise<ContributionDay[]> {
    const days = await fetchView(base);
    const years = calendarYearsMissing(dates, days);
    if (years.length === 0) return days;
    const yearViews = await Promise.all(years.map((year) => fetchView(yearViewUrl(base, year))));
    return fillMissingDays(days, yearViews.flat());
  };
}

/** GitHub's year view answers the whole calendar year that holds `from`. */
export function yearViewUrl(base: string, year: number): string {
  return `${base}?from=${year}-01-01&to=${year}-12-31`;
}

/** The calendar years (ascending) that hold window dates absent from `days`. */
export function calendarYearsMissing(dates: readonly string[], days: readonly ContributionDay[]): number[] {
  const have = new Set(days.map((d) => d.date));
  const years = new Set<number>();
  for (const date of dates) if (!have.has(date)) years.add(Number(date.slice(0, 4)));
  return [...years].sort((a, b) => a - b);
}

/**
 * `days` plus the dates of `extra` that `days` lacks. Only missing dates are filled: a date both answers hold
 * keeps the default view's value, so a contribution made between the two requests cannot make them disagree.
 */
export function fillMissingDays(
  days: readonly ContributionDay[],
  extra: readonly ContributionDay[],
): ContributionDay[] {
  const have = new Set(days.map((d) => d.date));
  return [...days, ...extra.filter((d) => !have.has(d.date))];
}

/**
 * "No contributions on …" → 0, "1 contribution on …" → 1, "1,204 contributions on …" → 1204.
 * Only the start of the text is read (one anchored match, no copy of the text): the text may be a
 * whole page's worth, and the caller may ask about it once per cell.
 */
export function parseTooltipCount(text: string): number | undefined {
  TOOLTIP_COUNT.lastIndex = 0;
  const m = TOOLTIP_COUNT.exec(text);
  if (m === null) return undefined;
  return m[1] === undefined ? 0 : Number(m[1].replaceAll(',', ''));
}

// Sticky, so it is tried at the start only; every quantifier is followed by something it cannot match,
// so a failed match backtracks over each character at most once (linear in the text's length).
const TOOLTIP_COUNT = /\s*(?:No|(\d{1,3}(?:,\d{3})*|\d+))\s+contributions?\s+on\b/iy;

export function parseCalendarHtml(html: string): ContributionDay[] {
  const tooltips = new Map<string, string>();
  const cells: Array<Map<string, string>> = [];
  for (const tag of startTags(html)) {
    if (tag.name === 'td') {
      cells.push(tag.attributes);
      continue;
    }
    // <tool-tip>: its text runs to the closing tag, which must come (else nothing after it can be trusted).
    CLOSE_TOOLTIP.lastIndex = tag.end;
    const close = CLOSE_TOOLTIP.exec(html);
    if (close === null) throw new UpstreamError('github-html', 'a <tool-tip> is never closed (markup changed?)');
    const target = tag.attributes.get('for');
    // `<[^<>]*>` rather than `<[^>]*>`: a run of "<" without ">" is then scanned once, not once per "<".
    if (target) tooltips.set(target, html.slice(tag.end, close.index).replace(/<[^<>]*>/g, ''));
    tag.resume(CLOSE_TOOLTIP.lastIndex);
  }
  const days: ContributionDay[] = [];
  const counts = new Map<string, number | undefined>();
  // Only <td> cells with data-date are days: padding cells and the legend's divs are not.
  for (const attrs of cells) {
    const date = attrs.get('data-date');
    if (date === undefined) continue;
    const id = attrs.get('id');
    const levelText = attrs.get('data-level');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !id || levelText === undefined || !/^\d$/.test(levelText)) {
      throw new UpstreamError(
        'github-html',
        `unrecognised calendar cell for ${JSON.stringify(date.slice(0, 40))} (markup changed?)`,
      );
    }
    const tooltip = tooltips.get(id);
    if (tooltip === undefined)
      throw new UpstreamError('github-html', `no tooltip for the cell of ${date} (markup changed?)`);
    // Many cells may name one tooltip (ids need not be unique): each tooltip's text is read once.
    let count = counts.get(id);
    if (!counts.has(id)) counts.set(id, (count = parseTooltipCount(tooltip)));
    if (count === undefined) {
      throw new UpstreamError(
        'github-html',
        `unrecognised tooltip ${JSON.stringify(tooltip.slice(0, 200).trim().slice(0, 60))} for ${date}`,
      );
    }
    days.push({ date, count, level: Number(levelText) });
  }
  if (days.length === 0)
    throw new UpstreamError('github-html', 'no calendar cells with data-date found (markup changed?)');
  return days;
}

// The scan below is linear in the length of the page whatever it holds: every character is looked at a
// bounded number of times, and a start tag that does not end within MAX_TAG_LENGTH is a failure rather
// than a reason to search further. (Regular expressions such as /<td\b([^>]*)>/ rescan the rest of the
// page from every "<td" when no ">" follows: quadratic time, seconds of frozen event loop per megabyte.)

/** The start tags read: a name is only these letters when no other name character follows. */
const WANTED_TAG = /<(td|tool-tip)(?![A-Za-z0-9-])/gi;
const CLOSE_TOOLTIP = /<\/tool-tip\s*>/gi;
/** GitHub's cells are about 200 characters long; anything far longer is not a calendar cell. */
const MAX_TAG_LENGTH = 4096;

interface StartTag {
  name: string;
  attributes: Map<string, string>;
  /** Index just after the tag's ">". */
  end: number;
  /** Continues the scan at `index` (after content the caller consumed). */
  resume(index: number): void;
}

/** The start tags `<td` and `<tool-tip`, in document order, with their attributes. */
function* startTags(html: string): Generator<StartTag> {
  let position = 0;
  for (;;) {
    // One regular-expression search rather than a step per "<": a page of nothing but "<" is scanned
    // at the regex engine's speed, and each attempt reads at most the length of the longest name.
    WANTED_TAG.lastIndex = position;
    const found = WANTED_TAG.exec(html);
    if (found === null) return;
    const name = found[1]!.toLowerCase();
    position = WANTED_TAG.lastIndex;
    const end = tagEnd(html, position);
    if (end < 0)
      throw new UpstreamError(
        'github-html',
        `a <${name}> tag does not end within ${MAX_TAG_LENGTH} characters (markup changed?)`,
      );
    const attributes = parseAttributes(html.slice(position, end - 1));
    position = end;
    yield { name, attributes, end, resume: (index) => void (position = index) };
  }
}

/** Index after the ">" that ends a start tag whose attributes begin at `from` (quotes respected), or -1. */
function tagEnd(html: string, from: number): number {
  const limit = Math.min(html.length, from + MAX_TAG_LENGTH);
  let quote = '';
  for (let i = from; i < limit; i++) {
    const c = html[i]!;
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return i + 1;
    }
  }
  return -1;
}

/** HTML attributes (name, name=value, name="value", name='value'); names lowercased, first one wins. */
function parseAttributes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const n = text.length;
  const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
  let i = 0;
  while (i < n) {
    // Between attributes, whitespace and the "/" of a self-closing tag mean nothing.
    while (i < n && (isSpace(text[i]) || text[i] === '/')) i++;
    const nameStart = i;
    while (i < n && !isSpace(text[i]) && text[i] !== '/' && text[i] !== '=') i++;
    const name = text.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(text[i])) i++;
    let value = '';
    if (text[i] === '=') {
      i++;
      while (i < n && isSpace(text[i])) i++;
      const quote = text[i];
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, i + 1);
        const stop = close < 0 ? n : close;
        value = text.slice(i + 1, stop);
        i = stop + 1;
      } else {
        const valueStart = i;
        while (i < n && !isSpace(text[i])) i++;
        value = text.slice(valueStart, i);
      }
    }
    if (name !== '' && !found.has(name)) found.set(name, value);
  }
  return found;
}
