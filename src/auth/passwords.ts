// Passwords in Django's pbkdf2_sha256 format, hashed on libuv's thread pool and compared in constant time.
import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);
const ALGORITHM = 'pbkdf2_sha256';
/** Django 3.2's default; configurable through PASSWORD_ITERATIONS (src/config.ts). */
export const DEFAULT_ITERATIONS = 260000;

/** The key derivation every hash and check makes: an object's method, so a test can count the iterations each pays. */
export const kdf = {
  derive(password: string, salt: string, iterations: number): Promise<Buffer> {
    return pbkdf2Async(Buffer.from(password, 'utf8'), Buffer.from(salt, 'utf8'), iterations, 32, 'sha256');
  },
};

/** `pbkdf2_sha256$<iterations>$<salt>$<base64 hash>`, readable by Django. */
export async function hashPassword(password: string, iterations = DEFAULT_ITERATIONS): Promise<string> {
  const salt = randomBytes(16)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 22);
  const hash = await kdf.derive(password, salt, iterations);
  return `${ALGORITHM}$${iterations}$${salt}$${hash.toString('base64')}`;
}

/**
 * Whether `password` matches the stored hash. No hash (an unknown username) or an unusable one (a user made by an
 * OpenID Connect sign-in, src/auth/identities.ts) is refused after a hash at `equaliserIterations` (PASSWORD_ITERATIONS,
 * what a real user's costs), so the time of a failed check tells neither which usernames exist nor which have no
 * password; a fixed cost would, once an operator raised PASSWORD_ITERATIONS above it.
 */
export async function verifyPassword(
  password: string,
  encoded: string | null,
  equaliserIterations = DEFAULT_ITERATIONS,
): Promise<boolean> {
  const [algorithm, iterationsText, salt, expected] = (encoded ?? '').split('$');
  const iterations = Number(iterationsText);
  if (algorithm !== ALGORITHM || !salt || !expected || !Number.isSafeInteger(iterations) || iterations < 1) {
    await kdf.derive(password, 'timingequaliser', equaliserIterations);
    return false;
  }
  const actual = await kdf.derive(password, salt, iterations);
  const wanted = Buffer.from(expected, 'base64');
  return wanted.length === actual.length && timingSafeEqual(wanted, actual);
}
