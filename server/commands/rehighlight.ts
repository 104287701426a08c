// rehighlight: re-renders every stored snippet (after a catalogue or theme change), in batches, with a progress bar.
import { SingleBar, Presets } from 'cli-progress';
import { migrate as applyMigrations } from '../../src/store/migrate';
import { countSnippetsAfter, rehighlightSnippet, snippetsAfter } from '../../src/snippets/writes';
import { command, terminalOf, UsageError } from './types';

export const rehighlight = command({
  name: 'rehighlight',
  summary: 're-render every stored snippet (after a language or theme change), with a progress bar',
  details:
    'Each snippet is saved on its own, so an interrupted run loses nothing: --from-id with the last id on the bar resumes it.',
  args: [],
  options: {
    'batch-size': { type: 'string', value: 'N', help: 'snippets read and rendered at a time (default: 200)' },
    'from-id': { type: 'string', value: 'ID', help: 'start after this snippet id (default: 0, every snippet)' },
  },
  async run({ options }, ctx) {
    const {
      runtime: { store },
      out,
    } = ctx;
    const batchSize = wholeNumber(options['batch-size'] ?? '200');
    let lastId = wholeNumber(options['from-id'] ?? '0');
    if (batchSize < 1) throw new UsageError('--batch-size must be a positive integer');
    if (lastId < 0) throw new UsageError('--from-id must be a non-negative integer');
    await applyMigrations(store);

    const total = await countSnippetsAfter(store, lastId);
    const bar = new SingleBar(
      {
        format: 'rehighlight [{bar}] {value}/{total} snippets, {eta_formatted} left, last id {lastId}',
        stream: terminalOf(ctx).error,
        noTTYOutput: true,
        notTTYSchedule: 2000,
      },
      Presets.shades_classic,
    );
    bar.start(total, 0, { lastId });
    let done = 0;
    // Keyset batches by id: each snippet is saved on its own, so an interrupted run loses nothing and
    // `--from-id` (printed on the bar) resumes where it stopped; rerunning from 0 is always safe.
    for (;;) {
      const batch = await snippetsAfter(store, lastId, batchSize);
      if (!batch.length) break;
      // Render a batch concurrently: the worker pool bounds the parallelism.
      await Promise.all(batch.map(rehighlightSnippet));
      lastId = batch[batch.length - 1]!.id;
      done += batch.length;
      bar.update(done, { lastId });
    }
    bar.stop();
    out(`Re-rendered ${done} snippet${done === 1 ? '' : 's'}.`);
    return 0;
  },
});

/** The number a string of digits spells, else -1. */
function wholeNumber(s: string): number {
  return /^\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : -1;
}
