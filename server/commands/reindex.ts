// reindex: rebuilds the search index of every stored snippet where the engine keeps one of its own (MySQL/MariaDB's,
// docs/search.md), in batches of one transaction each, with a progress bar.
import { SingleBar, Presets } from 'cli-progress';
import { migrate as applyMigrations } from '../../src/store/migrate';
import { countSnippetsAfter } from '../../src/snippets/writes';
import { command, terminalOf, UsageError } from './types';

export const reindex = command({
  name: 'reindex',
  summary: 'rebuild the search index of every stored snippet (MySQL/MariaDB), with a progress bar',
  details:
    'Each batch is one transaction, so an interrupted run loses nothing: --from-id with the last id on the bar resumes it. Needed after innodb_ft_min_token_size changes, or after snippets were written by other means than the service. SQLite keeps its FTS5 index by triggers: nothing to do there.',
  args: [],
  options: {
    'batch-size': { type: 'string', value: 'N', help: 'snippets read and indexed at a time (default: 500)' },
    'from-id': { type: 'string', value: 'ID', help: 'start after this snippet id (default: 0, every snippet)' },
  },
  async run({ options }, ctx) {
    const {
      runtime: { store },
      out,
    } = ctx;
    const batchSize = wholeNumber(options['batch-size'] ?? '500');
    let lastId = wholeNumber(options['from-id'] ?? '0');
    if (batchSize < 1) throw new UsageError('--batch-size must be a positive integer');
    if (lastId < 0) throw new UsageError('--from-id must be a non-negative integer');
    await applyMigrations(store);
    const { engine } = store;
    if (!engine.reindexBatch) {
      out('This database keeps its search index itself: nothing to rebuild.');
      return 0;
    }
    const bar = new SingleBar(
      {
        format: 'reindex [{bar}] {value}/{total} snippets, {eta_formatted} left, last id {lastId}',
        stream: terminalOf(ctx).error,
        noTTYOutput: true,
        notTTYSchedule: 2000,
      },
      Presets.shades_classic,
    );
    bar.start(await countSnippetsAfter(store, lastId), 0, { lastId });
    let done = 0;
    for (;;) {
      const batch = await engine.reindexBatch(lastId, batchSize);
      if (!batch.count) break;
      lastId = batch.lastId!;
      done += batch.count;
      bar.update(done, { lastId });
    }
    bar.stop();
    out(`Indexed ${done} snippet${done === 1 ? '' : 's'} for search.`);
    return 0;
  },
});

/** The number a string of digits spells, else -1. */
function wholeNumber(s: string): number {
  return /^\d+$/.test(s) && Number.isSafeInteger(Number(s)) ? Number(s) : -1;
}
