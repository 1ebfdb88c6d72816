// GitHub's public HTML contribution calendar (no token). The markup has changed often, so anything
// this parser does not recognise is an upstream failure, never a calendar of zeros.
import { Parser } from 'htmlparser2';
import type { ContributionDay } from '../domain/contributions.ts';
import { accountNotFound, UpstreamError } from '../lib/errors.ts';
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
        throw new UpstreamError('github-html', accountNotFound(account, error), { cause: error, status: 404 });
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

/** GitHub's cells are about 200 characters long; a start tag far longer is not a calendar cell. */
const MAX_TAG_LENGTH = 4096;

/**
 * GitHub's fragment nests about a dozen elements deep. htmlparser2 keeps its open elements in an array it
 * grows at the front (`unshift`), so a page of elements that never close costs time quadratic in their
 * number: 2 MB of unclosed `<span>`s took 3 to 35 s of synchronous CPU. Far past any calendar's depth,
 * the page is refused and the parser stopped.
 */
const MAX_OPEN_ELEMENTS = 256;

/** The text of one open <tool-tip>, collected until its end tag. */
interface OpenTooltip {
  target: string | undefined;
  text: string[];
  /** <tool-tip>s opened inside it and not yet closed. */
  depth: number;
}

/**
 * The calendar's days from the page, read with htmlparser2 (a streaming tokenizer: linear in the page,
 * whatever it holds). Its text and attribute values arrive with entities decoded, so "&lt;" in a tooltip
 * is "<" here. Anything unexpected fails: a tag far longer than a cell, a <tool-tip> that is never
 * closed, a cell without a date, id or level, a cell without its tooltip, a tooltip in other words.
 */
export function parseCalendarHtml(html: string): ContributionDay[] {
  const tooltips = new Map<string, string>();
  const cells: Array<Record<string, string>> = [];
  let tooltip: OpenTooltip | undefined;
  let failure: UpstreamError | undefined;
  /** Elements open now (htmlparser2 reports an implied or void element's close too). */
  let open = 0;
  // The first failure is the answer: nothing after it is read (pause() stops the tokenizer's loop).
  const fail = (message: string) => {
    failure ??= new UpstreamError('github-html', message);
    parser.pause();
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (parser.endIndex - parser.startIndex > MAX_TAG_LENGTH) {
          return fail(`a <${name.slice(0, 20)}> tag longer than ${MAX_TAG_LENGTH} characters (markup changed?)`);
        }
        if (++open > MAX_OPEN_ELEMENTS) {
          return fail(`elements nested more than ${MAX_OPEN_ELEMENTS} deep (markup changed?)`);
        }
        // Markup inside a tooltip is the tooltip's text, not the calendar's cells.
        if (tooltip !== undefined) {
          if (name === 'tool-tip') tooltip.depth++;
        } else if (name === 'td') {
          cells.push(attributes);
        } else if (name === 'tool-tip') {
          tooltip = { target: attributes['for'], text: [], depth: 0 };
        }
      },
      ontext(text) {
        tooltip?.text.push(text);
      },
      onclosetag(name, isImplied) {
        open--;
        if (tooltip === undefined || name !== 'tool-tip') return;
        // Closed by the end of the page or by its parent's end tag: nothing after it can be trusted.
        if (isImplied) return fail('a <tool-tip> is never closed (markup changed?)');
        if (tooltip.depth-- > 0) return;
        if (tooltip.target) tooltips.set(tooltip.target, tooltip.text.join(''));
        tooltip = undefined;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  if (failure !== undefined) throw failure;

  const days: ContributionDay[] = [];
  const counts = new Map<string, number | undefined>();
  // Only <td> cells with data-date are days: padding cells and the legend's divs are not.
  for (const attrs of cells) {
    const date = attrs['data-date'];
    if (date === undefined) continue;
    const id = attrs['id'];
    const levelText = attrs['data-level'];
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !id || levelText === undefined || !/^\d$/.test(levelText)) {
      throw new UpstreamError(
        'github-html',
        `unrecognised calendar cell for ${JSON.stringify(date.slice(0, 40))} (markup changed?)`,
      );
    }
    const text = tooltips.get(id);
    if (text === undefined)
      throw new UpstreamError('github-html', `no tooltip for the cell of ${date} (markup changed?)`);
    // Many cells may name one tooltip (ids need not be unique): each tooltip's text is read once.
    let count = counts.get(id);
    if (!counts.has(id)) counts.set(id, (count = parseTooltipCount(text)));
    if (count === undefined) {
      throw new UpstreamError(
        'github-html',
        `unrecognised tooltip ${JSON.stringify(text.slice(0, 200).trim().slice(0, 60))} for ${date}`,
      );
    }
    days.push({ date, count, level: Number(levelText) });
  }
  if (days.length === 0)
    throw new UpstreamError('github-html', 'no calendar cells with data-date found (markup changed?)');
  return days;
}
