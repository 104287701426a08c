// SQLite statements prepared once per connection and kept for its life: the ORM would re-plan every query. Each user
// (the readers' SELECTs, the writer's transactions) keeps its own cache, so no statement is shared between them.
import type { Database, Statement } from 'sqlite3';

export class StatementCache {
  private readonly byConnection = new WeakMap<Database, Map<string, Statement>>();

  /** The statement for `sql` on `db`, prepared on first use. */
  async get(db: Database, sql: string): Promise<Statement> {
    let cache = this.byConnection.get(db);
    if (!cache) this.byConnection.set(db, (cache = new Map()));
    const kept = cache.get(sql);
    if (kept) return kept;
    // With a callback a failed prepare is an error here, not an 'error' event that would end the process; only a
    // prepared statement is kept.
    const stmt = await new Promise<Statement>((resolve, reject) => {
      const prepared: Statement = db.prepare(sql, (err: Error | null) => (err ? reject(err) : resolve(prepared)));
    });
    cache.set(sql, stmt);
    return stmt;
  }

  /** Finalizes the statements kept for `db`: SQLite refuses to close a connection with statements still prepared on it. */
  async finalize(db: Database): Promise<void> {
    const statements = [...(this.byConnection.get(db)?.values() ?? [])];
    this.byConnection.delete(db);
    await Promise.all(statements.map((stmt) => new Promise((resolve) => stmt.finalize(resolve))));
  }
}
