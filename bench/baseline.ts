// The baseline of `npm run bench`: a bare Express route serving the same snippet row from the same SQLite file,
// in as many processes as the service has (WEB_CONCURRENCY), so the two are compared like for like.
import cluster from 'node:cluster';
import express from 'express';
import sqlite3 from 'sqlite3';

const [file, port] = [process.argv[2], Number(process.argv[3])];
if (!file || !port) throw new Error('usage: baseline.ts <sqlite file> <port>');
const processes = Number(process.env.WEB_CONCURRENCY || 1);

if (cluster.isPrimary && processes > 1) {
  for (let i = 0; i < processes; i++) cluster.fork();
} else {
  serve(file, port);
}

function serve(file: string, port: number): void {
  const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
  const byId = db.prepare(
    'SELECT s.id, u.username AS owner, s.title, s.code, s.linenos, s.language, s.style FROM snippets s JOIN users u ON u.id = s.owner_id WHERE s.id = ?',
  );

  const app = express();
  app.get('/snippets/:pk/', (req, res) => {
    byId.get(Number(req.params.pk), (err: Error | null, row?: Record<string, unknown>) => {
      if (err) return res.status(500).json({ detail: 'error' });
      if (!row) return res.status(404).json({ detail: 'Not found.' });
      res.json({ ...row, linenos: Boolean(row.linenos) });
    });
  });
  app.listen(port, '127.0.0.1', () => process.send?.('ready'));
}
