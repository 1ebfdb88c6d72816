// What a flood of updates may cost: at most one draw per interval, of the latest value (docs/upstreams.md#the-live-feed:
// the page redraws at most 4 times a second, the CLI prints at most one line a second). No clock is read:
// the interval is a timer started by each draw, so a page's fixed test clock or a loaded machine cannot
// let two draws through in one interval.

export interface LatestWins<T> {
  /** A new value: drawn now when the last draw is an interval old, else kept (replacing any kept one). */
  push(value: T): void;
  /** Drops a kept value and the interval's timer. */
  cancel(): void;
}

/** `draw` is called at most once per `intervalMs`, always with the latest value pushed. */
export function latestWins<T>(intervalMs: number, draw: (value: T) => void): LatestWins<T> {
  let kept: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cool = () => {
    timer = setTimeout(() => {
      timer = undefined;
      if (kept === null) return;
      const { value } = kept;
      kept = null;
      cool();
      draw(value);
    }, intervalMs);
  };
  return {
    push(value) {
      if (timer !== undefined) {
        kept = { value };
        return;
      }
      cool();
      draw(value);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      kept = null;
    },
  };
}
