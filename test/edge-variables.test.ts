// What the Worker's bundle carries of the environment (gateway/worker/deployment.ts): the service's variables
// and a dataset's own (docs/architecture.md#add-a-dataset), never a secret, which the Worker reads from its
// bindings instead. The datasets here are the registry's first with an upstream that declares what each test says.
import { describe, expect, it } from 'vitest';
import { bakedEnv, workerSecrets } from '../gateway/worker/deployment.ts';
import { datasets, DEFAULT_SERVICE_OPTIONS, ownVariables } from '../builders/datasets/registry.ts';
import type { Dataset, DatasetUpstream } from '../builders/datasets/dataset.ts';

const stock = datasets(DEFAULT_SERVICE_OPTIONS);
const [first] = stock as [Dataset];

/** A dataset of the registry's first, but read from an upstream declaring variables and a secret of its own. */
const withOwn = (upstream: Omit<DatasetUpstream<unknown>, 'connect'>): Dataset =>
  ({
    ...first,
    resource: { ...first.resource, id: 'downloads' },
    origin: { upstream: { ...upstream, connect: () => ({ fetch: () => Promise.reject(new Error('not asked')) }) } },
  }) as unknown as Dataset;

const ENV = {
  SITE_URL: 'https://example.com',
  GITHUB_TOKEN: 'ghp-secret',
  DIST_DIR: '/srv/dist',
  BUILD_CACHE_DIR: '/home/ada/.cache/build',
  DOWNLOADS_API_URL: 'http://127.0.0.1:9',
  DOWNLOADS_TOKEN: 'npm-secret',
  UNRELATED: 'left out',
};

describe("the Worker's bundle and a dataset's own variables", () => {
  it('carries a dataset’s declared variables beside the service’s, and no secret or undeclared name', () => {
    const list = [
      ...stock,
      withOwn({ variables: ['DOWNLOADS_API_URL', 'DOWNLOADS_PACKAGE'], secrets: ['DOWNLOADS_TOKEN'] }),
    ];
    expect(bakedEnv(list, ENV)).toEqual({ SITE_URL: 'https://example.com', DOWNLOADS_API_URL: 'http://127.0.0.1:9' });
    expect(workerSecrets(list)).toEqual(['GITHUB_TOKEN', 'DOWNLOADS_TOKEN']);
  });

  it('names a dataset’s origin variable for the fakes to point at theirs', () => {
    const list = [withOwn({ variables: ['DOWNLOADS_API_URL'], originVariable: 'DOWNLOADS_API_URL' })];
    expect(ownVariables(list).origins).toEqual(['DOWNLOADS_API_URL']);
  });

  it('leaves a variable a dataset declares twice, as a variable and a secret, out of the bundle', () => {
    const list = [...stock, withOwn({ variables: ['DOWNLOADS_TOKEN'], secrets: ['DOWNLOADS_TOKEN'] })];
    expect(bakedEnv(list, ENV)).not.toHaveProperty('DOWNLOADS_TOKEN');
  });

  it('datasets that declare none: the service’s variables alone, GITHUB_TOKEN the one secret', () => {
    const list = [withOwn({}), withOwn({ variables: [] })];
    expect(ownVariables(list)).toEqual({ variables: [], secrets: [], origins: [] });
    expect(bakedEnv(list, ENV)).toEqual({ SITE_URL: 'https://example.com' });
    expect(workerSecrets(list)).toEqual(['GITHUB_TOKEN']);
  });
});
