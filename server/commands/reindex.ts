// reindex: rebuilds the search index of every stored snippet where the engine keeps one of its own (MySQL/MariaDB's,
// docs/search.md), in batches of one transaction each, with a progress bar.
import { migrate as applyMigrations } from '../../src/store/migrate';
import { countSnippetsAfter } from '../../src/store/snippets/writes';
import { batchRange, walkSnippets } from './snippet-batches';
import { command } from './types';

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
    const { store } = ctx.runtime;
    const range = batchRange(options, 500);
    await applyMigrations(store);
    const { engine } = store;
    const reindexBatch = engine.reindexBatch?.bind(engine);
    if (!reindexBatch) {
      ctx.out('This database keeps its search index itself: nothing to rebuild.');
      return 0;
    }
    const total = await countSnippetsAfter(store, range.lastId);
    const done = await walkSnippets(ctx, 'reindex', range, total, reindexBatch);
    ctx.out(`Indexed ${done} snippet${done === 1 ? '' : 's'} for search.`);
    return 0;
  },
});
