// The sources and the deployment of a configuration, made as a program makes them (builders/datasets/registry.ts).
import type { Config } from '../../builders/lib/config.ts';
import {
  connectSources,
  createDeployment,
  datasets,
  type Deployment,
  type Sources,
} from '../../builders/datasets/registry.ts';
import { createValidator, loadSchemas } from '../../builders/contract/schemas.ts';
import { httpOptions } from '../../builders/upstreams/http.ts';

export function sourcesOf(config: Config): Sources {
  return connectSources(datasets(config), config, httpOptions(config));
}

/** A deployment as the Node gateway makes it (gateway/server.ts), with ajv over the schema files. */
export function testDeployment(config: Config): Deployment {
  return createDeployment(config, {
    schemas: loadSchemas,
    validator: (schemas) => createValidator(schemas, { checkSchemas: false }),
    http: httpOptions(config),
  });
}
