// Entry point of the OpenAPI half of `npm run lint`: lints the generated contract (the gateway's and the
// static host's), prints one line per problem and exits 1 when there is any.
import { runMain } from '../lib/run-main.ts';
import { describeProblems, generatedOpenApi, lintOpenApi, OPENAPI_HOSTS } from './lint-openapi.ts';

runMain('lint-openapi', async () => {
  let failed = false;
  for (const host of OPENAPI_HOSTS) {
    const name = `openapi.json (${host})`;
    const problems = await lintOpenApi(generatedOpenApi(host), name);
    for (const line of describeProblems(problems)) process.stderr.write(`${name}: ${line}\n`);
    if (problems.length > 0) failed = true;
    else process.stdout.write(`${name}: lint-clean (Redocly recommended ruleset)\n`);
  }
  return failed ? 1 : 0;
});
