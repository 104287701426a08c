// MySQL/MariaDB: ends a connection whose statement was stopped (past its deadline, or its client gone), so that the
// server stops the statement too: a client that only closes its socket leaves it running to its end, holding a thread,
// its locks and a slot of max_connections. KILL needs no privilege for a connection of the same user.
import { createConnection, type Connection, type ConnectionOptions } from 'mysql2';

/** The server's error for a connection already gone: the statement ended by itself meanwhile. */
const NO_SUCH_THREAD = 'ER_NO_SUCH_THREAD';

export class Killer {
  private connection?: Connection;
  private closed = false;

  /** `options`: the server's address and the store's own credentials; `timeoutMs`: the deadline of the connect and of each KILL. */
  constructor(
    private readonly options: ConnectionOptions,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Sends `KILL CONNECTION threadId` from a connection of its own, made on first use and kept (a server out of
   * connections still takes a KILL on it). The server ends the statement and the connection: the caller never hands
   * that connection out again. Nothing waits for it: a KILL that fails leaves the statement to the server's own bound.
   */
  kill(threadId: number | null | undefined): void {
    if (!threadId || this.closed) return;
    const connection = (this.connection ??= this.open());
    connection.query({ sql: `KILL CONNECTION ${Number(threadId)}`, timeout: this.timeoutMs }, (err) => {
      if (err && err.code !== NO_SUCH_THREAD) this.drop(connection);
    });
  }

  close(): void {
    this.closed = true;
    if (this.connection) this.drop(this.connection);
  }

  private open(): Connection {
    const connection = createConnection({ ...this.options, connectTimeout: this.timeoutMs });
    return connection.on('error', () => this.drop(connection));
  }

  /** A connection that failed (lost, timed out) is closed, and the next KILL makes another. */
  private drop(connection: Connection): void {
    if (this.connection === connection) this.connection = undefined;
    connection.destroy();
  }
}
