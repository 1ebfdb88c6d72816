// Entry point of `npm run build`: the only place that turns the build's outcome into an exit status.
import { runMain } from '../lib/run-main.ts';
import { main } from './build.ts';

runMain('build', () => main());
