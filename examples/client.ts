// A typed TypeScript client of the service over /trpc: create, list, search, update, read the history, write
// conditionally, diff, restore and delete a snippet (run: tsx examples/client.ts BASE USER:PASSWORD).
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
// A type-only import: the client gets every procedure's input and output types, and none of the server's code.
import type { AppRouter } from '../src/routers';

export type Snippet = inferRouterOutputs<AppRouter>['snippets']['get'];

/** Basic (username and password) or a Token key; /trpc runs the same authentication chain as the REST paths. */
export type Auth = { username: string; password: string } | { token: string };

export function authorizationHeader(auth: Auth): string {
  if ('token' in auth) return `Token ${auth.token}`;
  return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
}

export function snippetsClient(baseUrl: string, auth?: Auth) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl.replace(/\/+$/, '')}/trpc`,
        headers: auth ? { Authorization: authorizationHeader(auth) } : {},
      }),
    ],
  });
}

export interface ExampleRun {
  created: Snippet;
  /** Whether the list read after creating contains the new snippet. */
  listed: boolean;
  /** Whether a search of the owner's Python snippets for "HELLO" finds it first. */
  found: boolean;
  updated: Snippet;
  /** The revision numbers after the update, newest first. */
  revisions: number[];
  /** The error code of an update sent with the ETag of revision 1 once revision 2 exists (PRECONDITION_FAILED). */
  staleWrite: string;
  /** The unified diff from revision 1 to 2. */
  diff: string;
  /** The snippet after restoring revision 1 (as revision 3). */
  restored: Snippet;
  deletedId: number;
  /** The error code of reading the snippet after deleting it (NOT_FOUND), or FOUND if it is still there. */
  afterDelete: string;
}

/** Creates, lists, updates and deletes one snippet, logging each step; returns what each step gave. */
export async function runExample(
  baseUrl: string,
  auth: Auth,
  log: (line: string) => void = () => {},
): Promise<ExampleRun> {
  const client = snippetsClient(baseUrl, auth);

  const created = await client.snippets.create.mutate({ title: 'Hello', code: 'print("hello")', language: 'python' });
  log(`created snippet ${created.id} owned by ${created.owner}: ${JSON.stringify(created)}`);

  // The list is a page: `items`, and `next` (the cursor of the following page) when more follow; without `limit`, the
  // first 100. Newest first, the new snippet is on the first page however many there are.
  const { items } = await client.snippets.list.query({ ordering: '-created' });
  const listed = items.some((s) => s.id === created.id);
  log(`listed ${items.length} snippet(s); the new one is ${listed ? '' : 'NOT '}among them`);

  // Filters and search, combined (AND): substrings of the title or code, any case; newest first, 10 a page.
  const search = await client.snippets.list.query({
    owner: created.owner,
    language: 'python',
    search: 'HELLO',
    ordering: '-created',
    limit: 10,
  });
  const found = search.items[0]?.id === created.id;
  log(
    `searched ${created.owner}'s Python snippets for "HELLO": ${search.items.length} found, the new one ${found ? 'first' : 'NOT first'}`,
  );

  // Like PUT: `code` is required, omitted optional fields keep their stored values.
  const updated = await client.snippets.update.mutate({ id: created.id, code: 'print("hello, world")', linenos: true });
  log(`updated snippet ${updated.id}: ${JSON.stringify(updated)}`);

  // Every save is a revision, newest first; its number is the ETag a conditional write names ("2").
  const history = await client.snippets.revisions.query({ id: created.id });
  const revisions = history.items.map((r) => r.revision);
  log(`revisions: ${revisions.join(', ')}`);

  // A write that names a revision no longer current is refused, and changes nothing (If-Match on REST).
  const staleWrite = await client.snippets.update
    .mutate({ id: created.id, code: 'print("stale")', ifMatch: '"1"' })
    .then(
      () => 'SAVED',
      (err: unknown) => (err instanceof TRPCClientError ? String(err.data?.code) : Promise.reject(err)),
    );
  log(`an update naming revision 1: ${staleWrite}`);

  const diff = await client.snippets.diff.query({ id: created.id, n: 2 });
  log(`diff from revision 1 to 2:\n${diff}`);

  const restored = await client.snippets.restore.mutate({ id: created.id, n: 1, ifMatch: `"${revisions[0]}"` });
  log(`restored revision 1: ${JSON.stringify(restored)}`);

  await client.snippets.delete.mutate({ id: created.id });
  log(`deleted snippet ${created.id}`);

  const afterDelete = await client.snippets.get.query({ id: created.id }).then(
    () => 'FOUND',
    (err: unknown) => {
      if (err instanceof TRPCClientError) return String(err.data?.code);
      throw err;
    },
  );
  log(`reading it again: ${afterDelete}`);

  return { created, listed, found, updated, revisions, staleWrite, diff, restored, deletedId: created.id, afterDelete };
}

/** "CODE: message" for a failed call (the authentication chain answers /trpc in tRPC's error shape too). */
export function describeError(err: unknown): string {
  if (err instanceof TRPCClientError) return `${err.data?.code ?? 'ERROR'}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

/** `USER:PASSWORD` for Basic, `--token KEY` for Token auth. */
function parseAuth(args: string[]): Auth {
  if (args[0] === '--token' && args[1]) return { token: args[1] };
  const colon = args[0]?.indexOf(':') ?? -1;
  if (colon > 0) return { username: args[0]!.slice(0, colon), password: args[0]!.slice(colon + 1) };
  throw new Error('usage: tsx examples/client.ts BASE_URL (USER:PASSWORD | --token KEY)');
}

if (require.main === module) {
  const [baseUrl = 'http://127.0.0.1:8000', ...rest] = process.argv.slice(2);
  Promise.resolve()
    .then(() => runExample(baseUrl, parseAuth(rest), (line) => console.log(line)))
    .catch((err: unknown) => {
      console.error(describeError(err));
      process.exitCode = 1;
    });
}
