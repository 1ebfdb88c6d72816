// The calendar parser's work is linear in the page, whatever it holds (issue #12). Measured in CPU time on
// this machine, so part of `npm run bench`, not of a test suite (docs/testing.md); the parser's answers to
// the same pages are tested in test/hostile-upstreams.test.ts and test/github-sources.test.ts.
import { describe, expect, it } from 'vitest';
import { parseCalendarHtml } from '../../builders/upstreams/github-html.ts';
import { HOSTILE_PAGE_SHAPES } from '../fakes/hostile-pages.ts';

/** Milliseconds of CPU spent by `work` (the process's own user+system time, not the wall clock). */
function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

const parse = (html: string) => {
  try {
    parseCalendarHtml(html);
  } catch {
    // most shapes are refused; what is measured is the work done to get there
  }
};

describe('the calendar parser is linear in the page, whatever it holds', () => {
  // Sixty-four parses of a 64 KB page against eight of a 512 KB page: the same number of bytes, so linear
  // work makes the ratio about 1, quadratic work about 8. The bound (3) is generous for noise and garbage
  // collection. (Larger pages prove nothing more and would take the old parser minutes: 1 MB took 109 s.)
  it.each(Object.keys(HOSTILE_PAGE_SHAPES))(
    '%s: a page 8 times larger costs 8 times as much',
    (shape) => {
      const make = HOSTILE_PAGE_SHAPES[shape]!;
      const small = make(64 * 1024);
      const large = make(512 * 1024);
      parse(small); // warm up the JIT
      const smallPages = cpuMs(() => {
        for (let i = 0; i < 64; i++) parse(small);
      });
      const largePages = cpuMs(() => {
        for (let i = 0; i < 8; i++) parse(large);
      });
      expect(largePages / Math.max(smallPages, 1)).toBeLessThan(3);
    },
    60_000,
  );
});
