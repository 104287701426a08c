// rehighlight: re-renders every stored snippet (after a catalogue or theme change), in batches, with a progress bar.
import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { openDatabase } from '../../src/store/database';
import { migrate as applyMigrations } from '../../src/store/migrate';
import { configureHighlighter } from '../../src/highlight';
import { countSnippetsAfter, rehighlightSnippet, snippetsAfter } from '../../src/store/snippet-writes';
import { CommandError, type Command } from './types';

export const rehighlight: Command = {
  name: 'rehighlight',
  usage: 'rehighlight [--batch-size N] [--from-id ID]',
  async run(args, { config, out }) {
    const { values } = parseArgs({ args, options: { 'batch-size': { type: 'string', default: '200' }, 'from-id': { type: 'string', default: '0' } } });
    const batchSize = Number(values['batch-size']);
    let lastId = Number(values['from-id']);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new CommandError('--batch-size must be a positive integer');
    if (!Number.isInteger(lastId) || lastId < 0) throw new CommandError('--from-id must be a non-negative integer');
    openDatabase(config);
    await applyMigrations();
    configureHighlighter({ workers: config.HIGHLIGHT_WORKERS, timeoutMs: config.HIGHLIGHT_TIMEOUT_MS });

    const total = await countSnippetsAfter(lastId);
    const bar = new SingleBar({ format: 'rehighlight [{bar}] {value}/{total} snippets, {eta_formatted} left, last id {lastId}', stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2000 }, Presets.shades_classic);
    bar.start(total, 0, { lastId });
    let done = 0;
    // Keyset batches by id: each snippet is saved on its own, so an interrupted run loses nothing and
    // `--from-id` (printed on the bar) resumes where it stopped; rerunning from 0 is always safe.
    for (;;) {
      const batch = await snippetsAfter(lastId, batchSize);
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
};
