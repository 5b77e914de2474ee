/**
 * How long the lane rests after each slice, as a multiple of the slice's own time: 5 means reads of
 * whole accounts take at most a sixth of the event loop, however many run at once.
 */
const restPerWork = 5;

// One lane per process, because the event loop it protects is one per process.
let tail: Promise<void> = Promise.resolve();

/**
 * Runs one slice of a read of a whole account (a search, the full list, the data export) in the
 * process's one lane for them: a slice at a time, whoever asks, in the order asked, and the lane rests
 * after each in proportion to it. Pages and the API keep most of the event loop however many such
 * reads run; the reads themselves slow down instead.
 */
export async function inBulkLane<T>(slice: () => Promise<T> | T): Promise<T> {
  const turn = tail;
  const { promise, resolve: release } = Promise.withResolvers<void>();
  tail = promise;
  await turn;
  const started = performance.now();
  try {
    return await slice();
  } finally {
    setTimeout(release, Math.max(1, (performance.now() - started) * restPerWork));
  }
}
