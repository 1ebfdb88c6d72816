// GitHub's two wire formats (docs/upstreams.md): the GraphQL calendar and the public HTML calendar.
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../builders/lib/errors.ts';
import { parseGraphqlCalendar } from '../builders/upstreams/github-graphql.ts';
import { parseCalendarHtml, parseTooltipCount } from '../builders/upstreams/github-html.ts';
import { renderCalendarHtml } from './fakes/upstreams.ts';

const DOCUMENTED_SAMPLE = `<h2 class="f4 text-normal mb-2">
      1,449
      contributions
        in the last year
    </h2>
<table class="ContributionCalendar-grid js-calendar-graph-table">
<tr><td class="ContributionCalendar-label"><span class="sr-only">Sunday</span></td>
<td tabindex="0" data-ix="1" style="width: 10px" data-date="2026-01-04" id="contribution-day-component-0-1" data-level="2" role="gridcell" class="ContributionCalendar-day"></td>
<td></td>
</tr>
<tr><td tabindex="0" data-ix="1" data-date="2026-01-05" id="contribution-day-component-1-1" data-level="4" role="gridcell" class="ContributionCalendar-day"></td>
<td tabindex="0" data-ix="2" data-date="2026-01-06" id="contribution-day-component-2-1" data-level="0" role="gridcell" class="ContributionCalendar-day"></td>
<td tabindex="0" data-ix="3" data-date="2026-01-07" id="contribution-day-component-3-1" data-level="1" role="gridcell" class="ContributionCalendar-day"></td></tr>
</table>
<div>Less <div class="ContributionCalendar-day" data-level="0"></div><div class="ContributionCalendar-day" data-level="4"></div> More</div>
<tool-tip id="tooltip-15c5" for="contribution-day-component-0-1" popover="manual" class="sr-only position-absolute">5 contributions on January 4th.</tool-tip>
<tool-tip id="tooltip-15c6" for="contribution-day-component-1-1" popover="manual" class="sr-only position-absolute">1,204 contributions on January 5th.</tool-tip>
<tool-tip id="tooltip-15c7" for="contribution-day-component-2-1" popover="manual" class="sr-only position-absolute">No contributions on January 6th.</tool-tip>
<tool-tip id="tooltip-15c8" for="contribution-day-component-3-1" popover="manual" class="sr-only position-absolute">1 contribution on January 7th.</tool-tip>`;

describe('public HTML calendar', () => {
  it('reads counts from the tooltips and levels from data-level, skipping padding cells and the legend', () => {
    expect(parseCalendarHtml(DOCUMENTED_SAMPLE)).toEqual([
      { date: '2026-01-04', count: 5, level: 2 },
      { date: '2026-01-05', count: 1204, level: 4 },
      { date: '2026-01-06', count: 0, level: 0 },
      { date: '2026-01-07', count: 1, level: 1 },
    ]);
  });

  it('finds tooltips placed anywhere in the document, before or after the table', () => {
    const [table, tips] = [
      DOCUMENTED_SAMPLE.slice(0, DOCUMENTED_SAMPLE.indexOf('<tool-tip')),
      DOCUMENTED_SAMPLE.slice(DOCUMENTED_SAMPLE.indexOf('<tool-tip')),
    ];
    expect(parseCalendarHtml(tips + table)).toEqual(parseCalendarHtml(DOCUMENTED_SAMPLE));
  });

  it.each([
    ['No contributions on January 6th.', 0],
    ['1 contribution on January 7th.', 1],
    ['5 contributions on January 4th.', 5],
    ['1,204 contributions on January 5th.', 1204],
    ['  12\n contributions on May 1st. ', 12],
    ['Five contributions on May 1st.', undefined],
    ['contributions: 5', undefined],
  ])('tooltip %j counts %s', (text, count) => {
    expect(parseTooltipCount(text)).toBe(count);
  });

  it.each([
    ['no cells at all (a page of another shape)', '<html><body>Sign in</body></html>'],
    ['cells renamed (data-day instead of data-date)', DOCUMENTED_SAMPLE.replaceAll('data-date=', 'data-day=')],
    [
      'a cell without its tooltip',
      DOCUMENTED_SAMPLE.replace(/<tool-tip[^>]*for="contribution-day-component-2-1"[^>]*>[^<]*<\/tool-tip>/, ''),
    ],
    ['a tooltip in another wording', DOCUMENTED_SAMPLE.replace('5 contributions on', 'Contributions: 5 on')],
    ['a cell without data-level', DOCUMENTED_SAMPLE.replace(' data-level="2"', '')],
    ['a cell without an id', DOCUMENTED_SAMPLE.replace(' id="contribution-day-component-0-1"', '')],
  ])('markup drift fails loudly, never zeros: %s', (_name, html) => {
    expect(() => parseCalendarHtml(html)).toThrow(UpstreamError);
  });

  it('decodes character references in attributes and tooltip text (an id with &amp;, a &nbsp; in the text)', () => {
    const html = `<td data-date="2026-01-04" id="cell&amp;1" data-level="3"></td><tool-tip for="cell&#38;1">&#50;&nbsp;contributions on January 4th.</tool-tip>`;
    expect(parseCalendarHtml(html)).toEqual([{ date: '2026-01-04', count: 2, level: 3 }]);
  });

  it('a cell tag far longer than any calendar cell is markup drift', () => {
    const html = `<td data-date="2026-01-04" id="c" data-level="3" class="${'x'.repeat(5000)}"></td><tool-tip for="c">2 contributions on January 4th.</tool-tip>`;
    expect(() => parseCalendarHtml(html)).toThrow(/longer than 4096 characters \(markup changed\?\)/);
  });

  it('reads attributes in any quoting, with ">" inside a quoted value', () => {
    const html = `<td title="a > b" data-date='2026-01-04' id=cell-1 data-level="3"></td><tool-tip for="cell-1"><span>2</span> contributions on January 4th.</tool-tip>`;
    expect(parseCalendarHtml(html)).toEqual([{ date: '2026-01-04', count: 2, level: 3 }]);
  });

  // Each is about 2 MB. A regular-expression scan of them takes seconds to minutes of synchronous CPU
  // (it rescans the rest of the page from every "<td"); the linear scan rejects them at once. Were the
  // scan quadratic again, these would run into vitest's timeout: that is the intended failure mode.
  const TWO_MB = 2 * 1024 * 1024;
  const repeatTo = (unit: string) => unit.repeat(Math.ceil(TWO_MB / unit.length));
  it.each([
    ['cells that never close', repeatTo('<td data-date="2026-01-01" ')],
    ['tooltips that never close their start tag', repeatTo('<tool-tip for="contribution-day-component-0-1" ')],
    [
      'a tooltip whose closing tag never comes',
      `${DOCUMENTED_SAMPLE.replace(/<\/tool-tip>/g, '')}${repeatTo('<span>1 contribution on')}`,
    ],
    ['a quote that never closes inside a cell', `<td data-date="2026-01-01" id="${repeatTo('<td x')}`],
  ])('a hostile page (%s) is an upstream error', (_name, html) => {
    expect(html.length).toBeGreaterThanOrEqual(TWO_MB);
    // Parsed once: a 2 MB page is seconds of work on some of these shapes.
    const error = (() => {
      try {
        parseCalendarHtml(html);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toMatch(/markup changed\?/);
  });

  it('a page nested more than 256 elements deep is refused at once; a calendar inside 200 still parses', () => {
    // htmlparser2's stack of open elements grows at its front: unbounded nesting is quadratic time.
    expect(() => parseCalendarHtml('<span>'.repeat(300) + DOCUMENTED_SAMPLE)).toThrow(
      /elements nested more than 256 deep \(markup changed\?\)/,
    );
    const wrapped = `${'<div>'.repeat(200)}${DOCUMENTED_SAMPLE}${'</div>'.repeat(200)}`;
    expect(parseCalendarHtml(wrapped)).toEqual(parseCalendarHtml(DOCUMENTED_SAMPLE));
  });

  it('a real calendar followed by 2 MB of stray "<" still parses', () => {
    expect(parseCalendarHtml(DOCUMENTED_SAMPLE + repeatTo('<<'))).toEqual(parseCalendarHtml(DOCUMENTED_SAMPLE));
  });

  it('parses the fake upstream rendering of a week', () => {
    const weeks = [
      [
        { date: '2026-11-15', count: 0, level: 0 },
        { date: '2026-11-16', count: 1204, level: 4 },
      ],
    ];
    expect(parseCalendarHtml(renderCalendarHtml(weeks))).toEqual(weeks[0]);
  });
});

describe('GraphQL calendar', () => {
  const data = {
    user: {
      contributionsCollection: {
        contributionCalendar: {
          totalContributions: 812,
          weeks: [
            {
              firstDay: '2025-11-23',
              contributionDays: [
                {
                  date: '2025-11-23',
                  contributionCount: 3,
                  contributionLevel: 'FIRST_QUARTILE',
                  weekday: 0,
                  color: '#9be9a8',
                },
                { date: '2025-11-24', contributionCount: 0, contributionLevel: 'NONE', weekday: 1, color: '#ebedf0' },
                {
                  date: '2025-11-25',
                  contributionCount: 9,
                  contributionLevel: 'FOURTH_QUARTILE',
                  weekday: 2,
                  color: '#216e39',
                },
                {
                  date: '2025-11-26',
                  contributionCount: 6,
                  contributionLevel: 'THIRD_QUARTILE',
                  weekday: 3,
                  color: '#30a14e',
                },
                {
                  date: '2025-11-27',
                  contributionCount: 4,
                  contributionLevel: 'SECOND_QUARTILE',
                  weekday: 4,
                  color: '#40c463',
                },
              ],
            },
          ],
        },
      },
    },
  };

  it('maps NONE..FOURTH_QUARTILE to levels 0..4', () => {
    expect(parseGraphqlCalendar(data).map((d) => d.level)).toEqual([1, 0, 4, 3, 2]);
    expect(parseGraphqlCalendar(data)[0]).toEqual({ date: '2025-11-23', count: 3, level: 1 });
  });

  it.each([
    ['a null user', { user: null }],
    ['no weeks', { user: { contributionsCollection: { contributionCalendar: {} } } }],
    ['an unknown level', JSON.parse(JSON.stringify(data).replace('NONE', 'ZERO'))],
    ['a count as text', JSON.parse(JSON.stringify(data).replace('"contributionCount":3', '"contributionCount":"3"'))],
  ])('rejects %s', (_name, value) => {
    expect(() => parseGraphqlCalendar(value)).toThrow(UpstreamError);
  });
});
