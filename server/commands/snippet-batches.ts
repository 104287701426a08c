// The commands that walk every stored snippet in keyset batches by id (rehighlight, reindex): their --batch-size and
// --from-id values, and the walk itself, with a progress bar on stderr whose last id --from-id resumes from.
import { SingleBar, Presets } from 'cli-progress';
import { terminalOf, UsageError, type CommandContext } from './types';

/** Where a walk starts and how many snippets each batch takes. */
export interface BatchRange {
  batchSize: number;
  lastId: number;
}

/** `--batch-size` (default `defaultSize`) and `--from-id` (default 0), checked: a UsageError otherwise. */
export function batchRange(options: { 'batch-size'?: string; 'from-id'?: string }, defaultSize: number): BatchRange {
  const batchSize = wholeNumber(options['batch-size'] ?? String(defaultSize));
  const lastId = wholeNumber(options['from-id'] ?? '0');
  if (batchSize < 1) throw new UsageError('--batch-size must be a positive integer');
  if (lastId < 0) throw new UsageError('--from-id must be a non-negative integer');
  return { batchSize, lastId };
}

/**
 * Runs `batch` from `range.lastId` on until it handles nothing, each call given the last id handled so far, with a
 * progress bar named `name` out of `total`; answers how many snippets were handled.
 */
export async function walkSnippets(
  ctx: CommandContext,
  name: string,
  range: BatchRange,
  total: number,
  batch: (afterId: number, size: number) => Promise<{ count: number; lastId?: number }>,
): Promise<number> {
  const bar = new SingleBar(
    {
      format: `${name} [{bar}] {value}/{total} snippets, {eta_formatted} left, last id {lastId}`,
      stream: terminalOf(ctx).error,
      noTTYOutput: true,
      notTTYSchedule: 2000,
    },
    Presets.shades_classic,
  );
  let { lastId } = range;
  bar.start(total, 0, { lastId });
  let done = 0;
  for (;;) {
    const { count, lastId: last } = await batch(lastId, range.batchSize);
    if (!count) break;
    lastId = last!;
    done += count;
    bar.update(done, { lastId });
  }
  bar.stop();
  return done;
}

/** The number a string of digits spells, else -1. */
function wholeNumber(s: string): number {
  return /^\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : -1;
}
