// rehighlight: re-renders every stored snippet (after a catalogue or theme change), in batches, with a progress bar.
import { migrate as applyMigrations } from '../../src/store/migrate';
import { countSnippetsAfter, rehighlightSnippet, snippetsAfter } from '../../src/store/snippets/writes';
import { batchRange, walkSnippets } from './snippet-batches';
import { command } from './types';

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
    const { store } = ctx.runtime;
    const range = batchRange(options, 200);
    await applyMigrations(store);
    // Keyset batches by id: each snippet is saved on its own, so an interrupted run loses nothing and
    // `--from-id` (printed on the bar) resumes where it stopped; rerunning from 0 is always safe.
    const total = await countSnippetsAfter(store, range.lastId);
    const done = await walkSnippets(ctx, 'rehighlight', range, total, async (afterId, size) => {
      const batch = await snippetsAfter(store, afterId, size);
      // Render a batch concurrently: the worker pool bounds the parallelism.
      await Promise.all(batch.map(rehighlightSnippet));
      return { count: batch.length, lastId: batch[batch.length - 1]?.id };
    });
    ctx.out(`Re-rendered ${done} snippet${done === 1 ? '' : 's'}.`);
    return 0;
  },
});
