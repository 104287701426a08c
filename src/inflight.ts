// Procedures in flight: shutdown waits for them before closing the database, even when their client has gone.
let count = 0;
const waiters = new Set<() => void>();

/** Runs `work`, counted as in flight until it settles. */
export async function tracked<T>(work: () => Promise<T>): Promise<T> {
  count++;
  try {
    return await work();
  } finally {
    if (--count === 0) for (const wake of [...waiters]) wake();
  }
}

/** Resolves once nothing is in flight, or after `timeoutMs` at the latest. */
export function settled(timeoutMs: number): Promise<void> {
  if (count === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      waiters.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, timeoutMs);
    waiters.add(wake);
  });
}
