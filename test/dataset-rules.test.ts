// Every registered dataset, as a rule (docs/architecture.md#add-a-dataset): the suite iterates the registry,
// so a new dataset is checked here without a line of this file changing, and one it forgets (a card, an
// operation, its home section) fails by its id. test/dataset-modules.test.ts pins the list itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createValidator } from '../builders/contract/schemas.ts';
import { dataTools } from '../builders/contract/mcp-tools.ts';
import { commands } from '../builders/cli/commands.ts';
import { DEFAULT_SERVICE, DEFAULT_SERVICE_OPTIONS, datasets } from '../builders/datasets/registry.ts';
import { generatedOpenApi } from '../builders/build/lint-openapi.ts';
import { runCli } from './helpers/cli-run.ts';
import { startServeHandler, type StaticServer } from './helpers/site-serve.ts';
import { sharedSite, TEST_SITE_CLOCK, type SiteFiles } from './helpers/site-dist.ts';

const validator = createValidator();
const REGISTERED = datasets(DEFAULT_SERVICE_OPTIONS);

let site: SiteFiles;
let server: StaticServer;
beforeAll(async () => {
  site = sharedSite();
  server = await startServeHandler(site.dir);
});
afterAll(async () => {
  await server?.close();
});

type Operations = Record<string, Record<string, { operationId?: string }>>;

describe.each(REGISTERED.map((d) => [d.resource.id, d] as const))('the %s dataset', (id, dataset) => {
  const { resource } = dataset;
  it('has a v1 path and its unversioned alias, each a snapshot file', () => {
    expect(resource.id).toBe(id);
    expect(resource.v1.path).toMatch(/^\/api\/v1\/[a-z0-9-]+$/);
    expect(resource.alias.path).toBe(resource.v1.path.replace('/api/v1/', '/api/'));
    expect([resource.v1.alias, resource.alias.alias]).toEqual([false, true]);
    expect(resource.snapshotFiles).toEqual([resource.v1.path.slice(1), resource.alias.path.slice(1)]);
    expect(DEFAULT_SERVICE.paths.get(resource.v1.path)?.id).toBe(id);
    expect(DEFAULT_SERVICE.paths.get(resource.alias.path)?.id).toBe(id);
  });

  it('publishes one snapshot, valid against its schema, the same bytes at both paths', async () => {
    const [v1, alias] = await Promise.all(resource.snapshotFiles.map((file) => site.read(file)));
    expect(alias).toBe(v1);
    expect(() => validator.validate(resource.schema, JSON.parse(v1!))).not.toThrow();
  });

  it('has its two operations in the static and the gateway OpenAPI documents', async () => {
    const documents = [
      (await site.json<{ paths: Operations }>('openapi.json')).paths,
      (generatedOpenApi('gateway') as { paths: Operations }).paths,
    ];
    for (const paths of documents)
      for (const op of [resource.v1, resource.alias])
        expect(paths[op.path]?.get?.operationId, op.path).toBe(op.operationId);
  });

  it('has an MCP tool per operation, named in the API index', async () => {
    const names = [resource.v1.operationId, resource.alias.operationId];
    expect(
      dataTools(DEFAULT_SERVICE)
        .filter((t) => t.resource.id === id)
        .map((t) => t.name),
    ).toEqual(names);
    const index = await site.json<{ mcp: { tools: string[] } }>('api/index.json');
    expect(index.mcp.tools).toEqual(expect.arrayContaining(names));
  });

  it('has a CLI command whose --json prints the snapshot', async () => {
    expect(commands(DEFAULT_SERVICE).map((c) => c.name)).toContain(resource.command.name);
    const r = await runCli([resource.command.name, '--json', '--base-url', server.url], {}, { now: TEST_SITE_CLOCK });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(await site.read(resource.snapshotFiles[0]!)));
  });

  it('has its light and dark cards, written', async () => {
    const cards = DEFAULT_SERVICE.cards.filter((c) => c.resource === id);
    expect(cards.map((c) => c.file).sort()).toEqual([`cards/${resource.card}-dark.svg`, `cards/${resource.card}.svg`]);
    const files = new Set(await site.files());
    for (const card of cards) expect(files.has(card.file), card.file).toBe(true);
  });

  it("has its home section, refreshed from its v1 path unless it is the owner's work", async () => {
    const home = await site.read('index.html');
    const figure = new RegExp(`<figure [^>]*data-preview="${id}"[^>]*>`).exec(home)?.[0];
    expect(figure, `no home section of ${id}`).toBeDefined();
    // The owner's work (home.work: the projects) is the build's snapshot, which the page script does not
    // refetch; it still carries its validity for the script to judge (docs/site.md).
    if (dataset.home.work) {
      expect(figure).not.toContain('data-source=');
      expect(figure).toMatch(/ data-as-of="[^"]+" data-valid-until="[^"]+"/);
    } else expect(figure).toContain(`data-source="${resource.v1.path}"`);
  });
});
