// Which storage errors are the service's momentary trouble (503), and which a full disk (507), as SQLite, MariaDB and
// Galera word them through Sequelize.
import { expect } from 'chai';
import { DatabaseError } from 'sequelize';
import { TRPCError } from '@trpc/server';
import { refusalOf } from '../../../src/refusal';
import { clientGone } from '../../../src/store/cancellation';
import {
  CLIENT_GONE,
  DISK_FULL,
  isConflict,
  isDiskFull,
  STORE_BUSY,
  unavailableDetail,
  WriteConflict,
} from '../../../src/store/errors';

const DOWN = 'The service is unavailable at the moment; try again shortly.';
/** A mysql2 error as the driver makes it, wrapped by Sequelize as a failed query is. */
const fromServer = (message: string, code: string, errno: number) =>
  new DatabaseError(Object.assign(new Error(message), { code, errno, sql: 'SELECT 1', parameters: [] }) as never);

describe('unavailableDetail', () => {
  it('a Galera node not in the primary component (1047) is unavailable, not a fault', () => {
    expect(
      unavailableDetail(
        fromServer('WSREP has not yet prepared node for application use', 'ER_UNKNOWN_COM_ERROR', 1047),
      ),
    ).to.equal(DOWN);
  });

  it('a commit the node cannot replicate is unavailable, whatever code carries it', () => {
    expect(
      unavailableDetail(
        fromServer('Got error 6 "No such device or address" during COMMIT', 'ER_ERROR_DURING_COMMIT', 1180),
      ),
    ).to.equal(DOWN);
    const fragment =
      'Error while appending streaming replication fragment(provider status: Not connected to Primary Component)';
    expect(unavailableDetail(fromServer(fragment, 'ER_UNKNOWN_ERROR', 1105))).to.equal(DOWN);
  });

  it('a server that cannot be reached by a plain mysql2 connect (the writer thread’s, the read pools’, no Sequelize wrapper) is unavailable: refused, a name not resolved', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT'])
      expect(unavailableDetail(Object.assign(new Error(`connect ${code}`), { code })), code).to.equal(DOWN);
  });

  it('a lost connection is unavailable; a deadlock lost after its retries is busy', () => {
    expect(
      unavailableDetail(
        fromServer('Connection lost: The server closed the connection.', 'PROTOCOL_CONNECTION_LOST', 0),
      ),
    ).to.equal(DOWN);
    expect(
      unavailableDetail(
        fromServer('Deadlock found when trying to get lock; try restarting transaction', 'ER_LOCK_DEADLOCK', 1213),
      ),
    ).to.equal('The database is busy at the moment; try again shortly.');
  });

  it('a statement stopped in the engine at its deadline is unavailable: MariaDB max_statement_time (1969, no name in mysql2), a KILL, a SQLite interrupt', () => {
    expect(
      unavailableDetail(
        fromServer('Query execution was interrupted (max_statement_time exceeded)', undefined as never, 1969),
      ),
    ).to.equal(DOWN);
    expect(unavailableDetail(fromServer('Query execution was interrupted', 'ER_QUERY_INTERRUPTED', 1317))).to.equal(
      DOWN,
    );
    expect(
      unavailableDetail(
        Object.assign(new Error('SQLITE_INTERRUPT: interrupted'), { code: 'SQLITE_INTERRUPT', errno: 9 }),
      ),
    ).to.equal(DOWN);
  });

  it('a read cancelled because its client went away is not a fault', () => {
    expect(unavailableDetail(clientGone())).to.equal(CLIENT_GONE);
  });

  it('anything else is a fault (undefined: the answer is a 500 that hides it)', () => {
    expect(unavailableDetail(fromServer("Table 'snippets.snippets' doesn't exist", 'ER_NO_SUCH_TABLE', 1146))).to.equal(
      undefined,
    );
    expect(unavailableDetail(new Error('boom'))).to.equal(undefined);
  });
});

describe('a WriteConflict (a save crowded out by others)', () => {
  it('is a conflict, retried as a lost deadlock, and then a busy store', () => {
    const err = new WriteConflict('crowded');
    expect(isConflict(err)).to.equal(true);
    expect(unavailableDetail(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: err }))).to.equal(STORE_BUSY);
  });
});

describe('a full disk', () => {
  const FULL = { detail: DISK_FULL };
  it("is a 507 with its detail on either engine, never a 503 to retry nor a 500: SQLite's SQLITE_FULL, MariaDB's table or disk full, ENOSPC", () => {
    for (const err of [
      Object.assign(new Error('SQLITE_FULL: database or disk is full'), { code: 'SQLITE_FULL', errno: 13 }),
      fromServer("The table 'snippet_revisions' is full", 'ER_RECORD_FILE_FULL', 1114),
      fromServer('Disk full (/var/tmp/#sql_1.MAI); waiting for someone to free some space...', 'ER_DISK_FULL', 1021),
      fromServer(
        'Error writing file \'./ib_logfile0\' (errno: 28 "No space left on device")',
        'ER_ERROR_ON_WRITE',
        1026,
      ),
    ]) {
      expect(isDiskFull(err), err.message).to.equal(true);
      expect(unavailableDetail(err), err.message).to.equal(undefined);
      const refusal = refusalOf(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: err }), undefined);
      expect([refusal.status, refusal.body, refusal.headers], err.message).to.deep.equal([507, FULL, {}]);
    }
  });

  it('another error is not', () => {
    expect(isDiskFull(fromServer("Table 'snippets.snippets' doesn't exist", 'ER_NO_SUCH_TABLE', 1146))).to.equal(false);
  });
});
