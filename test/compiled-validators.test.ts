// The validators the Worker's bundle carries (builders/contract/schemas.ts standaloneValidators, ajv's standalone
// code): compiled at build time into plain code that generates none at run time, and giving every payload
// the verdict and the message of the validators the Node programs compile at start.
import * as esbuild from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { createValidator, loadSchemas, standaloneValidators } from '../builders/contract/schemas.ts';
import { compiledValidator, type CompiledCheck, type Validator } from '../builders/contract/validation.ts';
import { DEFAULT_SERVICE, serviceTables } from '../builders/datasets/registry.ts';
import { sharedSite } from './helpers/site-dist.ts';
import { ROOT } from './helpers/run.ts';

/** The module as the Worker's bundle gets it: its requires of ajv's helpers bundled in, nothing else. */
async function compiled(source: string): Promise<{ code: string; checks: Record<string, CompiledCheck> }> {
  const built = await esbuild.build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'error',
  });
  const code = built.outputFiles[0]!.text;
  const checks = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as Record<
    string,
    CompiledCheck
  >;
  return { code, checks };
}

const verdict = (validator: Validator, name: Parameters<Validator['validate']>[0], data: unknown) => {
  try {
    validator.validate(name, data);
    return 'valid';
  } catch (error) {
    return (error as Error).message;
  }
};

let code: string;
let precompiled: Validator;
const atStart = createValidator();

beforeAll(async () => {
  const module = await compiled(standaloneValidators(loadSchemas()));
  code = module.code;
  precompiled = compiledValidator(module.checks);
});

describe('validators compiled at build time', () => {
  it('generate no code when they run: no Function constructor, no eval, no ajv compiler', () => {
    expect(code).not.toMatch(/\bnew Function\b|\bFunction\(|\beval\(/);
    expect(code).not.toMatch(/ajv\/dist\/(core|ajv|2020)/);
    expect(code.length).toBeGreaterThan(10_000);
  });

  it("give every published snapshot the start-time validators' verdict: valid", async () => {
    const site = sharedSite();
    const checked: string[] = [];
    for (const resource of DEFAULT_SERVICE.resources) {
      for (const file of resource.snapshotFiles) {
        const payload = await site.json(file).catch(() => undefined);
        if (payload === undefined) continue;
        expect(verdict(precompiled, resource.schema, payload), file).toBe('valid');
        expect(verdict(atStart, resource.schema, payload), file).toBe('valid');
        checked.push(resource.id);
      }
    }
    // Every dataset, each under its v1 path and its alias.
    expect(new Set(checked).size).toBe(DEFAULT_SERVICE.resources.length);
  });

  it("refuse broken payloads with the start-time validators' message", async () => {
    const site = sharedSite();
    for (const resource of DEFAULT_SERVICE.resources) {
      const payload = await site.json(resource.snapshotFiles[0]!).catch(() => undefined);
      if (payload === undefined) continue;
      const [first, second] = Object.keys(payload);
      const broken = [
        { ...payload, [first!]: null },
        { ...payload, [second!]: [1, 'two'] },
        { ...payload, unexpected: true },
        Object.fromEntries(Object.entries(payload).slice(1)),
        [],
        'a string',
      ];
      for (const data of broken) {
        const message = verdict(precompiled, resource.schema, data);
        expect(message, JSON.stringify(data).slice(0, 80)).toMatch(
          new RegExp(`^${resource.schema} does not validate: `),
        );
        expect(message).toBe(verdict(atStart, resource.schema, data));
      }
    }
  });

  it("carry a deployment's own product and zone in their consts (MARKET_PRODUCT, CALENDAR_TIME_ZONE)", async () => {
    const service = serviceTables({ marketProduct: 'BTC-USD', calendarTimeZone: 'Europe/Berlin' });
    const { checks } = await compiled(standaloneValidators(loadSchemas(service)));
    const market = service.resources.find((r) => r.cache === 'per-request')!;
    const mon = await sharedSite().json(
      DEFAULT_SERVICE.resources.find((r) => r.cache === 'per-request')!.snapshotFiles[0]!,
    );
    // A MON-USD payload is not a BTC-USD deployment's: its product const says so.
    expect(verdict(compiledValidator(checks), market.schema, mon)).toMatch(/does not validate/);
  });
});
