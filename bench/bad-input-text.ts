// Building blocks of the bad-input cases: odd strings and the bodies that carry them (form, multipart, Basic).
import type { Rng } from './prng';

const EMOJI = ['😀', '🐍', '𝔘', '🏳️‍🌈', '👩🏽‍💻', '𠜎', '🀄'];

/** A user name that is long (300 to 5,000 characters), non-BMP, or both, or has characters no name has. */
export function oddName(rng: Rng, real: string): string {
  switch (rng.int(0, 6)) {
    case 0:
      return 'a'.repeat(rng.int(300, 5000));
    case 1:
      return rng.pick(EMOJI).repeat(rng.int(1, 400));
    case 2:
      return `${real}${rng.pick(EMOJI)}`;
    case 3:
      return `${'é'.repeat(rng.int(150, 400))}${rng.pick(EMOJI).repeat(rng.int(150, 400))}`;
    case 4:
      return `${real}\u0000admin`;
    case 5:
      return real.toUpperCase();
    default:
      return ` ${real} `;
  }
}

/** Text for a snippet a create stores: non-BMP characters, CRLF, tabs, separators (not NUL, which the API refuses). */
export function snippetCode(rng: Rng, tag: string): string {
  const parts = [`# ${tag}\n`];
  const n = rng.int(0, 40);
  for (let i = 0; i < n; i++) {
    parts.push(
      rng.pick([
        'def f(x):\n',
        '\treturn x\r\n',
        rng.pick(EMOJI),
        '\u0001\u001f',
        '\u2028',
        'ß∂ƒ©',
        '"\'\\',
        '<script>',
        ' '.repeat(rng.int(1, 80)),
        '\n',
      ]),
    );
  }
  return parts.join('');
}

/** A header value of printable ASCII and Latin-1 bytes, the most Node's client lets through. */
export function latin1(rng: Rng, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++)
    s += String.fromCharCode(rng.chance(0.3) ? rng.int(0xa0, 0xff) : rng.int(0x21, 0x7e));
  return s;
}

/** UTF-8 bytes passed through a header as Latin-1, as a client that does not encode would send them. */
export function rawUtf8(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

export function form(fields: Record<string, string>): { headers: Record<string, string>; body: string } {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  };
}

export function multipart(
  fields: Record<string, string>,
  boundary = 'bench-boundary-7d3f',
): { headers: Record<string, string>; body: Buffer } {
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8'),
  };
}

/** Random bytes, some of them not UTF-8. */
export function bytes(rng: Rng, length: number): Buffer {
  const b = Buffer.alloc(length);
  for (let i = 0; i < length; i++) b[i] = rng.int(0, 255);
  return b;
}
