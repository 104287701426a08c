// usage: the users whose snippets hold the most bytes (docs/operations.md "Storage per user").
import { migrate as applyMigrations } from '../../src/store/migrate';
import { biggestUsers } from '../../src/store/snippets/usage';
import { command, UsageError } from './types';

export const storageUsage = command({
  name: 'usage',
  summary: 'list the users whose snippets take the most storage: username, snippets, revisions, bytes (tab-separated)',
  details: 'bytes are those counted against USER_QUOTA_BYTES: the UTF-8 title and code of every revision kept.',
  args: [],
  options: {
    limit: { type: 'string', value: 'N', help: 'how many users, biggest first (default: 20)' },
  },
  async run({ options }, { runtime: { store }, out }) {
    const text = options.limit ?? '20';
    const limit = /^\d{1,6}$/.test(text) ? Number(text) : 0;
    if (limit < 1) throw new UsageError('--limit must be an integer from 1 to 999999');
    await applyMigrations(store);
    out(['username', 'snippets', 'revisions', 'bytes'].join('\t'));
    for (const u of await biggestUsers(store, limit)) out([u.username, u.snippets, u.revisions, u.bytes].join('\t'));
    return 0;
  },
});
