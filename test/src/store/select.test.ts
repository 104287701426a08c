// select(testStore()): a statement the database refuses to prepare is a rejected promise, never an 'error' event that ends the process.
import { expect } from 'chai';
import { select } from '../../../src/store/select';
import { testStore } from '../../support/runtime';

describe('select', () => {
  it('rejects a statement that cannot be prepared (no such table), and the same statement again', async () => {
    for (let i = 0; i < 2; i++) {
      const err = await select(testStore(), 'SELECT id FROM no_such_table WHERE id = ?', [1]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(Error);
      expect(String((err as Error).message)).to.match(/no such table|doesn't exist/); // SQLite's words, MariaDB's
    }
  });
});
