// The OpenAPI half of `npm run lint` (docs/testing.md): Redocly's maintained lint engine, its `recommended`
// ruleset, on both documents served as /openapi.json: the one the build writes for a static host and the
// one the gateway generates at start. Both are generated here from the same generator (no prior build, no
// network), so a fresh clone can lint; tests lint the built file and the gateway's answer.
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { datasets, describedDatasets, tablesOf } from '../datasets/registry.ts';
import { loadConfig } from '../lib/config.ts';
import { loadSchemas } from '../contract/schemas.ts';
import { openApiDocument, type OpenApiHost } from '../contract/openapi.ts';

/**
 * Redocly's `recommended` ruleset at its default severities; a warning fails the lint too. One rule is
 * off: `no-server-example.com` flags localhost, and `servers` is SITE_URL (docs/configuration.md#variables), whose default
 * is the local gateway; a deployment's own SITE_URL is what its document carries.
 */
const RULESET = { extends: ['recommended'], rules: { 'no-server-example.com': 'off' } } as const;

/** Every problem the linter finds in `document` (an empty list when it is lint-clean). */
export async function lintOpenApi(document: unknown, name = 'openapi.json'): Promise<NormalizedProblem[]> {
  const config = await createConfig(RULESET as unknown as Parameters<typeof createConfig>[0]);
  return lintFromString({ source: JSON.stringify(document, null, 2), absoluteRef: name, config });
}

/** One line per problem: `severity rule at pointer: message`. */
export function describeProblems(problems: readonly NormalizedProblem[]): string[] {
  return problems.map((p) => {
    const where = p.location[0]?.pointer ?? '';
    return `${p.severity} ${p.ruleId}${where ? ` at ${where}` : ''}: ${p.message}`;
  });
}

export const OPENAPI_HOSTS: readonly OpenApiHost[] = ['gateway', 'static'];

/** The OpenAPI document of the committed site configuration for `host`, without build snapshots (no network). */
export function generatedOpenApi(host: OpenApiHost): Record<string, unknown> {
  const config = loadConfig({});
  const list = datasets(config);
  return openApiDocument(
    config,
    loadSchemas(),
    describedDatasets({ config, datasets: list, service: tablesOf(list) }, new Map()),
    host,
  );
}
