// Passwords in Django's pbkdf2_sha256 format, hashed on libuv's thread pool and compared in constant time.
import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);
const ALGORITHM = 'pbkdf2_sha256';
/** Django 3.2's default; configurable through PASSWORD_ITERATIONS for new hashes only. */
export const DEFAULT_ITERATIONS = 260000;

async function derive(password: string, salt: string, iterations: number): Promise<Buffer> {
  return pbkdf2Async(Buffer.from(password, 'utf8'), Buffer.from(salt, 'utf8'), iterations, 32, 'sha256');
}

/** `pbkdf2_sha256$<iterations>$<salt>$<base64 hash>`, readable by Django. */
export async function hashPassword(password: string, iterations = DEFAULT_ITERATIONS): Promise<string> {
  const salt = randomBytes(16)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 22);
  const hash = await derive(password, salt, iterations);
  return `${ALGORITHM}$${iterations}$${salt}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const [algorithm, iterationsText, salt, expected] = encoded.split('$');
  const iterations = Number(iterationsText);
  if (algorithm !== ALGORITHM || !salt || !expected || !Number.isSafeInteger(iterations) || iterations < 1) {
    // An unusable password (a user made by an OpenID Connect sign-in, src/auth/identities.ts) costs what a wrong one
    // costs, so the time of a failed check does not tell which users have no password.
    await derive(password, 'timingequaliser', DEFAULT_ITERATIONS);
    return false;
  }
  const actual = await derive(password, salt, iterations);
  const wanted = Buffer.from(expected, 'base64');
  return wanted.length === actual.length && timingSafeEqual(wanted, actual);
}

/** A hash that no password matches, checked against when the user does not exist so timing does not reveal it. */
export const UNUSABLE_HASH_FOR_TIMING = `${ALGORITHM}$${DEFAULT_ITERATIONS}$timingequaliser$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;
