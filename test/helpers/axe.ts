// axe-core in a page of Chromium: injected by the test (a context with bypassCSP, whatever the page's
// policy), run with the given options, its violations as one line per rule and impact with their nodes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string;
  /** Each node's target and axe's summary of why it fails. */
  nodes: string[];
}

export async function axeViolations(page: Page, options: object = {}): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (runOptions) => {
    type Result = {
      violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown; failureSummary?: string }> }>;
    };
    const axe = (window as unknown as { axe: { run(o: object): Promise<Result> } }).axe;
    const result = await axe.run({ ...runOptions, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => `${JSON.stringify(n.target)}${n.failureSummary ? ` ${n.failureSummary}` : ''}`),
    }));
  }, options);
}
