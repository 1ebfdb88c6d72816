// axe-core in a page of Chromium: injected by the test (a context with bypassCSP, whatever the page's
// policy), run with the given options, its violations as one line per rule and impact with their nodes;
// or every result of the rules run (violations, those it could not decide and those that pass).
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

export interface AxeResults {
  /** Per outcome, one entry per rule and node: the rule, the node's target and axe's summary of it. */
  violations: AxeNode[];
  /** "Needs review": the rule could not decide (for colour contrast: no background it could read). */
  incomplete: AxeNode[];
  passes: AxeNode[];
}

export interface AxeNode {
  rule: string;
  target: string;
  summary: string;
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

/** Every node of every outcome of the rules run, as pa11y's axe runner sees them. */
export async function axeResults(page: Page, options: object = {}): Promise<AxeResults> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (runOptions) => {
    type Outcome = Array<{
      id: string;
      nodes: Array<{ target: unknown; failureSummary?: string; any: Array<{ message: string }> }>;
    }>;
    type Result = { violations: Outcome; incomplete: Outcome; passes: Outcome };
    const axe = (window as unknown as { axe: { run(o: object): Promise<Result> } }).axe;
    const result = await axe.run(runOptions);
    const flat = (outcome: Outcome) =>
      outcome.flatMap((r) =>
        r.nodes.map((n) => ({
          rule: r.id,
          target: JSON.stringify(n.target),
          summary: n.failureSummary ?? n.any.map((a) => a.message).join(' '),
        })),
      );
    return { violations: flat(result.violations), incomplete: flat(result.incomplete), passes: flat(result.passes) };
  }, options);
}
