// "3 minutes ago": how long ago an ISO 8601 time was, in the largest whole unit, for a list row's age (the exact time
// in the <time> element's datetime and title). Intl.RelativeTimeFormat words it.
import { html, type Html } from './html';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];
const WORDS = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** `iso` as words relative to `now` (ms since the epoch): "just now" under a minute. */
export function ageWords(iso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  for (const [unit, size] of UNITS) if (seconds >= size) return WORDS.format(-Math.floor(seconds / size), unit);
  return 'just now';
}

/** A <time> element: the age in words, the exact UTC time in its datetime and title. */
export const age = (iso: string, now: number): Html =>
  html`<time datetime="${iso}" title="${iso.slice(0, 16).replace('T', ' ')} UTC">${ageWords(iso, now)}</time>`;
