// The bad-input run's list filters: hostile search text, owners, languages, dates and orderings on GET /snippets/
// (REST, alone and combined, paged and streamed) and on /trpc/snippets.list (values of the wrong JSON type too).
import { latin1 } from './bad-input-text';
import type { Rng } from './prng';
import type { RawRequest } from './raw-request';

const SEARCHES = (rng: Rng) => [
  '"',
  '""',
  '"unclosed phrase',
  'a" OR "b',
  '* OR * NOT x',
  'NEAR(a b, 2)',
  'title:abc',
  '{title code}: x',
  '^abc',
  '-abc -',
  '%_%\\',
  "'; DROP TABLE snippets; --",
  '\\"\\\\',
  '😀🐍 日本語 Ω',
  ' \t ',
  'a',
  'ab',
  Array.from({ length: 20 }, (_, i) => `t${i}`).join(' '),
  Array.from({ length: 21 }, (_, i) => `t${i}`).join(' '),
  Array.from({ length: 500 }, () => 'a').join(' '),
  'x'.repeat(1000),
  'x'.repeat(1001),
  'é'.repeat(rng.int(990, 1010)),
  latin1(rng, rng.int(1, 40)),
];
const OWNERS = (rng: Rng) => [
  'alice',
  '',
  'nobody',
  "o'brien",
  '%',
  '_',
  'a'.repeat(151),
  'a'.repeat(5000),
  '😀',
  latin1(rng, 12),
];
const LANGUAGES = ['python', 'rust', 'nope', 'PYTHON', '', '%', 'python\u0000', 'a'.repeat(300)];
const DATES = [
  '2026-11-24',
  '2026-11-24T12:00:00Z',
  '2026-11-24T12:00:00.123456+05:30',
  '0000-01-01',
  '9999-12-31T23:59:59Z',
  '2026-02-30',
  '2026-13-01',
  'yesterday',
  '1e999',
  '-1',
  '2026-11-24T24:00',
  '+275760-09-13',
  '',
];
const ORDERINGS = ['created', '-created', 'id', '-id', 'created,id', '', '?', 'title'];

/** A query-string value as a client might send it, percent-encoded; now and then raw bytes that are not UTF-8. */
function encoded(rng: Rng, value: string): string {
  return rng.chance(0.1) ? `${encodeURIComponent(value)}%ff%fe%00` : encodeURIComponent(value);
}

function restQuery(rng: Rng): string {
  const params: [string, string][] = [];
  if (rng.chance(0.6)) params.push(['search', rng.pick(SEARCHES(rng))]);
  if (rng.chance(0.3)) params.push(['owner', rng.pick(OWNERS(rng))]);
  if (rng.chance(0.3)) params.push(['language', rng.pick(LANGUAGES)]);
  if (rng.chance(0.25)) params.push(['created_after', rng.pick(DATES)]);
  if (rng.chance(0.25)) params.push(['created_before', rng.pick(DATES)]);
  if (rng.chance(0.3)) params.push(['ordering', rng.pick(ORDERINGS)]);
  if (rng.chance(0.5)) params.push(['limit', rng.pick(['1', '100', '1000', '100', '20', '0', 'x'])]);
  // A cursor of another list (made for the plain list, or forged with a filter key) replayed with these filters.
  if (rng.chance(0.1))
    params.push([
      'cursor',
      Buffer.from(
        JSON.stringify(['2026-01-01 00:00:00.000 +00:00', 1, rng.pick(['x', 'AAAAAAAAAAAAAAAA', 7])]),
      ).toString('base64url'),
    ]);
  if (rng.chance(0.1)) params.push(['search', 'duplicate key, the last one counts']);
  return params.map(([k, v]) => `${k}=${encoded(rng, v)}`).join('&');
}

/** /trpc input: the same values, and values of the wrong JSON type. */
function trpcInput(rng: Rng): string {
  const odd = [null, 1, -1.5, true, [], ['a'], {}, { $gt: '' }, '\ud800', 'x'.repeat(2000)];
  const input: Record<string, unknown> = {};
  for (const key of ['search', 'owner', 'language', 'created_after', 'created_before', 'ordering']) {
    if (rng.chance(0.4))
      input[key] = rng.chance(0.5) ? rng.pick(odd) : rng.pick([...SEARCHES(rng), ...DATES, ...ORDERINGS]);
  }
  if (rng.chance(0.5)) input.limit = rng.pick([1, 100, 0, '5', null]);
  return encodeURIComponent(JSON.stringify(input));
}

export function listFilters(rng: Rng): { label: string; req: RawRequest } {
  const path = rng.chance(0.75) ? `/snippets/?${restQuery(rng)}` : `/trpc/snippets.list?input=${trpcInput(rng)}`;
  const headers: Record<string, string> = rng.chance(0.2) ? { accept: 'text/html' } : {};
  return {
    label: path.length > 80 ? `${path.slice(0, 60)}… (${path.length})` : path,
    req: { method: rng.pick(['GET', 'GET', 'HEAD']), path, headers },
  };
}
