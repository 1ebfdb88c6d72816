// What the CLI reads is untrusted (issue #12): its Markdown and twin parsers take linear time on any
// text, and --json writes the invisible bidi characters as \u escapes.
import { describe, expect, it } from 'vitest';
import { jsonText } from '../cli/safe-text.ts';
import { inline, renderMarkdown, type Terminal } from '../cli/terminal.ts';
import { parseProfile, parseWritings } from '../cli/twin.ts';

const TERM: Terminal = { color: true, width: 80 };

/** Milliseconds of CPU spent by `work` (the process's own time, not the wall clock). */
function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

const attempt = (f: () => unknown) => () => {
  try {
    f();
  } catch {
    // refused input is fine; the time taken to refuse it is what is measured
  }
};

const SHAPES: Record<string, (n: number) => string> = {
  'a run of "["': (n) => '['.repeat(n),
  'a run of "[a]("': (n) => '[a]('.repeat(n / 4),
  'a run of "![x"': (n) => '![x'.repeat(n / 3),
  'a run of "](x"': (n) => '](x'.repeat(n / 3),
  'a run of "*a"': (n) => ' *a'.repeat(n / 3),
  'a run of "`"': (n) => '`'.repeat(n),
};

const USES: Record<string, (text: string) => void> = {
  inline: (text) => inline(TERM, text),
  renderMarkdown: (text) => renderMarkdown(TERM, text),
  'a profile link': (text) => parseProfile(`# Ada\n\n## Links\n\n- [${text}](https://x.test)\n`, 'https://x.test/'),
  'a writings line': (text) => parseWritings(`# Writings\n\n- [${text}\n`, 'https://x.test/writings'),
};

describe('the CLI reads hostile text in linear time', () => {
  // Eight texts of 16 K characters against one of 128 K: linear work gives a ratio near 1, quadratic
  // near 8. (The old link pattern took 3.2 s on 80 K "[" characters.)
  for (const [use, run] of Object.entries(USES)) {
    it.each(Object.keys(SHAPES))(`${use}: %s`, (shape) => {
      const small = SHAPES[shape]!(16 * 1024);
      const large = SHAPES[shape]!(128 * 1024);
      attempt(() => run(small))();
      const eightSmall = cpuMs(() => {
        for (let i = 0; i < 8; i++) attempt(() => run(small))();
      });
      const oneLarge = cpuMs(attempt(() => run(large)));
      expect(oneLarge / Math.max(eightSmall, 2)).toBeLessThan(3);
    });
  }

  it('still renders links', () => {
    expect(inline({ color: false, width: 80 }, 'see [the docs](https://x.test/d) and [[x]](https://x.test/y)')).toBe(
      'see the docs <https://x.test/d> and [[x]](https://x.test/y)',
    );
  });
});

describe('--json output', () => {
  it('writes bidi controls, zero-width spaces and line separators as \\u escapes: the same value, safe on a terminal', () => {
    const value = { title: 'a\u202Eb\u2066c\u200Bd\u2028e\u061Cf', price: 1 };
    const text = jsonText(value);
    expect(text).toContain('a\\u202eb\\u2066c\\u200bd\\u2028e\\u061cf');
    expect(text).not.toMatch(/[\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
