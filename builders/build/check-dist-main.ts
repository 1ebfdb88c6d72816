// Entry point of `npm run check:dist` (builders/build/dist-check/main.ts): the only place that turns the check's
// outcome into an exit status.
import { processIo, runMain } from '../lib/run-main.ts';
import { main } from './dist-check/main.ts';

runMain('check:dist', () => main(process.argv.slice(2), processIo()));
