// What the CLI reads is untrusted (issue #12): its JSON bound, schema check and plain-text layout take
// linear time on any text. Measured in CPU time on this machine, so part of `npm run bench`, not of a test
// suite (docs/testing.md).
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../builders/cli/json-body.ts';
import { schemaError } from '../../builders/cli/schema-check.ts';
import { renderText, terminal } from '../../builders/cli/terminal.ts';
import { cliSchemas } from '../../builders/build/cli-artifact.ts';

const TERM = terminal(true, 80);

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
  'a run of digits': (n) => '1'.repeat(n),
  'a run of "\\""': (n) => '\\"'.repeat(n / 2),
  'a run of "{\"a\":"': (n) => '{"a":'.repeat(n / 5),
};

const SCHEMAS = cliSchemas();

const USES: Record<string, (text: string) => void> = {
  renderText: (text) => renderText(TERM, text),
  'a line of a list': (text) => renderText(TERM, `1. ${text}`),
  'JSON parsing': (text) => parseJson(text, 'x'),
  'a member checked as a uri': (text) => schemaError(SCHEMAS, 'Skills', { url: `https://${text}`, groups: [] }),
  'a string member checked against its format': (text) =>
    schemaError(SCHEMAS, 'MarketData', { ...{ product: 'MON-USD', currency: 'USD' }, source: 's', asOf: text }),
};

describe('the CLI reads hostile text in linear time', () => {
  // Eight texts of 16 K characters against one of 128 K: linear work gives a ratio near 1, quadratic
  // near 8. (The old link pattern took 3.2 s on 80 K "[" characters.)
  for (const [use, run] of Object.entries(USES)) {
    it.each(Object.keys(SHAPES))(`${use}: %s`, (shape) => {
      const small = SHAPES[shape]!(16 * 1024);
      const large = SHAPES[shape]!(128 * 1024);
      // Both sizes run once first: V8 grows a regular expression's backtracking stack the first time an
      // input needs it (a one-off cost of several ms at 128 K), which is not the work being measured.
      attempt(() => run(small))();
      attempt(() => run(large))();
      const eightSmall = cpuMs(() => {
        for (let i = 0; i < 8; i++) attempt(() => run(small))();
      });
      const oneLarge = cpuMs(attempt(() => run(large)));
      expect(oneLarge / Math.max(eightSmall, 2)).toBeLessThan(3);
    });
  }
});
