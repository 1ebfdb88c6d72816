// Runs in every test file (vitest setupFiles): after the file's own hooks, kills any gateway process a
// failed test left running, so a failure never leaves a server behind the suite.
import { afterAll } from 'vitest';
import { killLeftoverGateways } from './helpers/gateway.ts';

afterAll(async () => {
  await killLeftoverGateways();
});
