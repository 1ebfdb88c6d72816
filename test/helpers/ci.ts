// Whether the tests run under CI: there a missing tool (Chromium, redis-server) fails its tests
// instead of skipping them, so a CI job can never pass by testing less.
/** CI=true/1/anything but "false" and "0", as GitHub Actions and most CI services set it. */
export const IS_CI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
