// /healthz (the process answers) and /readyz (the database answers) for load balancers; no auth, no throttling.
import cluster from 'node:cluster';
import { Router } from 'express';
import { ping } from '../src/store/database';

export function healthRoutes(): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    // Which worker answered (0 without WEB_CONCURRENCY): lets an operator see the balancing.
    res.json({ status: 'ok', worker: cluster.worker?.id ?? 0 });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      await ping();
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ detail: 'The database is not answering.' });
    }
  });
  return router;
}
