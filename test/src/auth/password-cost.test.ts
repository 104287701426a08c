// What a failed password check costs, counted in PBKDF2 iterations (src/auth/passwords.ts's kdf, watched): an unknown
// username and a user without a password pay the hash a real user's would, at PASSWORD_ITERATIONS, whatever it is.
import { expect } from 'chai';
import { signInIdentity } from '../../../src/auth/identities';
import { kdf } from '../../../src/auth/passwords';
import { checkCredentials, createUser } from '../../../src/auth/users';
import { resetDatabase } from '../../support/db';
import { runtimeWith, testStore } from '../../support/runtime';

/** The iterations of each derivation made while `check` runs. */
async function derivations(check: () => Promise<unknown>): Promise<number[]> {
  const derive = kdf.derive;
  const seen: number[] = [];
  kdf.derive = (password, salt, iterations) => {
    seen.push(iterations);
    return derive(password, salt, iterations);
  };
  try {
    await check();
  } finally {
    kdf.derive = derive;
  }
  return seen;
}

describe('a failed password check', () => {
  beforeEach(resetDatabase);

  for (const iterations of ['1000', '300000']) {
    it(`with PASSWORD_ITERATIONS=${iterations}, an unknown username costs one hash at ${iterations} iterations`, async () => {
      const runtime = runtimeWith({ PASSWORD_ITERATIONS: iterations });
      expect(await derivations(() => checkCredentials(runtime, 'nobody', 'guess'))).to.deep.equal([Number(iterations)]);
    });
  }

  it('a user without a password (made by an OpenID Connect sign-in) costs one hash at PASSWORD_ITERATIONS', async () => {
    await signInIdentity(testStore(), { issuer: 'https://id.example.com', subject: 's1', username: 'dana' });
    const runtime = runtimeWith({ PASSWORD_ITERATIONS: '2000' });
    expect(await derivations(() => checkCredentials(runtime, 'dana', 'guess'))).to.deep.equal([2000]);
  });

  it("a wrong password costs one hash at the user's own stored iterations, whatever PASSWORD_ITERATIONS says", async () => {
    await createUser(testStore(), 'erin', 'erinpass', { iterations: 1500 });
    const runtime = runtimeWith({ PASSWORD_ITERATIONS: '3000' });
    expect(await derivations(() => checkCredentials(runtime, 'erin', 'wrong'))).to.deep.equal([1500]);
  });
});
