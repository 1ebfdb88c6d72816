// The payload types the code imports (builders/contract/payload-types.ts) are generated from schemas/: regenerating
// them must give the file as committed, so that a schema change without `npm run generate:types` fails
// here rather than leaving the code typed against an old contract.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { payloadTypes, TYPES_FILE } from '../builders/tools/payload-types.mjs';

describe('builders/contract/payload-types.ts', () => {
  it('is what json-schema-to-typescript makes of schemas/ now (run npm run generate:types if not)', async () => {
    expect(readFileSync(TYPES_FILE, 'utf8')).toBe(await payloadTypes());
  });

  it('declares one type per schema, named by its title', () => {
    const text = readFileSync(TYPES_FILE, 'utf8');
    for (const name of ['MarketData', 'MarketPoint', 'GitHubContributions', 'GitHubContributionDay', 'ProblemDetails'])
      expect(text).toMatch(new RegExp(`^export interface ${name} \\{`, 'm'));
  });
});
