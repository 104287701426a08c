// The representations read straight from the tables: one query per list, owner names joined, `highlighted` never read.
import { select } from './reads';
import type { Snippet } from './schemas/snippet';
import type { User } from './schemas/user';

const SNIPPET_COLUMNS = 's.id, u.username AS owner, s.title, s.code, s.linenos, s.language, s.style';
const SNIPPET_FROM = 'FROM snippets s JOIN users u ON u.id = s.owner_id';

type SnippetRow = Omit<Snippet, 'linenos'> & { linenos: number | boolean };

/** The representation, keys in the spec's order. */
export function toSnippet(row: SnippetRow): Snippet {
  return { id: row.id, owner: row.owner, title: row.title, code: row.code, linenos: Boolean(row.linenos), language: row.language, style: row.style };
}

export async function snippetById(id: number): Promise<Snippet | undefined> {
  const [row] = await select<SnippetRow>(`SELECT ${SNIPPET_COLUMNS} ${SNIPPET_FROM} WHERE s.id = ?`, [id]);
  return row && toSnippet(row);
}

export async function allSnippets(): Promise<Snippet[]> {
  return (await select<SnippetRow>(`SELECT ${SNIPPET_COLUMNS} ${SNIPPET_FROM} ORDER BY s.created, s.id`)).map(toSnippet);
}

/** Users with the ids of their snippets: two queries whatever the number of users. */
export async function allUsers(): Promise<User[]> {
  const [users, owned] = await Promise.all([
    select<{ id: number; username: string }>('SELECT id, username FROM users ORDER BY id'),
    select<{ id: number; owner_id: number }>('SELECT id, owner_id FROM snippets ORDER BY created, id'),
  ]);
  const byOwner = new Map<number, number[]>();
  for (const s of owned) {
    const ids = byOwner.get(s.owner_id);
    if (ids) ids.push(s.id);
    else byOwner.set(s.owner_id, [s.id]);
  }
  return users.map((u) => ({ id: u.id, username: u.username, snippets: byOwner.get(u.id) ?? [] }));
}

export async function userById(id: number): Promise<User | undefined> {
  const [user] = await select<{ id: number; username: string }>('SELECT id, username FROM users WHERE id = ?', [id]);
  if (!user) return undefined;
  const owned = await select<{ id: number }>('SELECT id FROM snippets WHERE owner_id = ? ORDER BY created, id', [id]);
  return { id: user.id, username: user.username, snippets: owned.map((s) => s.id) };
}
