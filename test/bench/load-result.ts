// What one load round measured, whichever generator ran it (wrk or autocannon).
export interface LoadResult {
  /** 2xx responses per second over the round. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
}
