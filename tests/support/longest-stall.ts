/**
 * How long `work` took, and the longest time the event loop went without running a timer meanwhile:
 * work done in slices leaves gaps far shorter than the whole, however busy the machine is.
 */
export async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number; totalMs: number }> {
  const started = performance.now();
  let last = started;
  let longest = 0;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const timer = setInterval(tick, 1);
  try {
    const value = await work();
    tick();
    return { value, stallMs: longest, totalMs: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}
