// After a run: every snippet a client was told was created is stored with the code it sent, and nothing else of the owner's is.
const PAGE = 1000;

/** Every snippet of `owner`, id → code, read page by page through the list's `Link: rel="next"`. */
export async function storedSnippets(base: string, owner: string): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  let url: string | undefined = `${base}/snippets/?limit=${PAGE}`;
  while (url) {
    const res: Response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(60000),
    });
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
    for (const s of (await res.json()) as { id: number; owner: string; code: string }[])
      if (s.owner === owner) found.set(s.id, s.code);
    url = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  return found;
}

export interface Accounts {
  /** Acknowledged, not stored. */
  missing: number[];
  /** Stored with other code than was acknowledged. */
  changed: number[];
  /** Stored, never acknowledged (a create whose answer was lost or was not a success). */
  unacknowledged: number[];
}

export function account(acknowledged: Map<number, string>, stored: Map<number, string>): Accounts {
  const a: Accounts = { missing: [], changed: [], unacknowledged: [] };
  for (const [id, code] of acknowledged) {
    if (!stored.has(id)) a.missing.push(id);
    else if (stored.get(id) !== code) a.changed.push(id);
  }
  for (const id of stored.keys()) if (!acknowledged.has(id)) a.unacknowledged.push(id);
  return a;
}
