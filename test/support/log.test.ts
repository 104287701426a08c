// The suite's credential-leak check (support/log.ts, run by test/setup.ts after each test): a credential is found in
// the log whether it was logged after it was noted, or before.
import { expect } from 'chai';
import { newLeaks, noteKeysIn, suiteLogger } from './log';

const key = (c: string) => `snp_${c.repeat(43)}`;

describe("the suite's credential-leak check (test/support/log.ts)", () => {
  it('names a credential logged after it was noted, and one noted after it was logged, each once', () => {
    newLeaks(); // what the tests before logged is theirs
    noteKeysIn(key('a'));
    suiteLogger.info({ logged: key('a') }, 'a noted key, then logged');
    expect(newLeaks()).to.deep.equal([key('a')]);
    suiteLogger.info({ logged: key('b') }, 'a key logged before anyone noted it');
    expect(newLeaks(), 'not a credential yet').to.deep.equal([]);
    noteKeysIn(key('b'));
    expect(newLeaks(), 'noted now: found in the earlier line').to.deep.equal([key('b')]);
    expect(newLeaks(), 'each leak reported once').to.deep.equal([]);
  });
});
