// Entry point of the OpenAPI half of `npm run lint`: lints the generated contract, prints one line per
// problem and exits 1 when there is any.
import { runMain } from '../lib/run-main.ts';
import { describeProblems, generatedOpenApi, lintOpenApi } from './lint-openapi.ts';

runMain('lint-openapi', async () => {
  const problems = await lintOpenApi(generatedOpenApi());
  for (const line of describeProblems(problems)) process.stderr.write(`openapi.json: ${line}\n`);
  if (problems.length > 0) return 1;
  process.stdout.write('openapi.json: lint-clean (Redocly recommended ruleset)\n');
  return 0;
});
