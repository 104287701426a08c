// A deadline on work that has none of its own (a probe of the database).

/**
 * Settles as `work` does, or rejects with ETIMEDOUT (a 503 with Retry-After, src/store/errors.ts) after `ms`; `work`
 * goes on, under its own deadlines, and whatever it settles to is dropped.
 */
export async function deadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer from the database within ${ms} ms`), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  work.catch(() => {});
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
