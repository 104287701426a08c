// /healthz (the process answers) and /readyz (the database, and Redis with REDIS_URL, answer) for load balancers; no
// auth, no throttling.
import cluster from 'node:cluster';
import { Router } from 'express';
import type { Runtime } from '../src/runtime';
import { RETRY_AFTER_SECONDS } from '../src/store/errors';
import { databaseReadiness, writesRefusedBecause } from '../src/store/readiness';

export function healthRoutes(runtime: Runtime): Router {
  const router = Router();
  const database = databaseReadiness(runtime.config, runtime.store);
  runtime.onClose(() => database.close());
  // The runtime's connection, made by the session store or a throttle already, unless neither uses it.
  const redisAnswers = async () => runtime.redis()?.ping();
  router.get('/healthz', (_req, res) => {
    // Which worker answered (0 without WEB_CONCURRENCY): lets an operator see the balancing.
    res.json({ status: 'ok', worker: cluster.worker?.id ?? 0 });
  });
  router.get('/readyz', async (req, res) => {
    // Each check has its deadline (DATABASE_TIMEOUT_MS, REDIS_TIMEOUT_MS): a hung server is a 503, not a probe that hangs.
    const [db, redis] = await Promise.allSettled([database.check(), redisAnswers()]);
    if (db.status === 'fulfilled' && redis.status === 'fulfilled') {
      // A database that cannot take writes still serves reads, sign-ins and deletes: 200, so that a load balancer keeps
      // the instance (every instance shares the disk: taking them all out would lock everyone out). `?writes` asks
      // for writes too: a monitor's probe then gets 503 (docs/operations.md "A full disk").
      const refused = await writesRefusedBecause(runtime.store).catch(() => undefined);
      if (!refused) return void res.json({ status: 'ready' });
      if (req.query.writes === undefined) return void res.json({ status: 'read-only', detail: refused });
      return void res
        .status(503)
        .set('Retry-After', String(RETRY_AFTER_SECONDS))
        .json({ status: 'read-only', detail: refused });
    }
    const down = [db.status === 'rejected' && 'The database', redis.status === 'rejected' && 'Redis']
      .filter(Boolean)
      .join(' and ');
    res
      .status(503)
      .set('Retry-After', String(RETRY_AFTER_SECONDS))
      .json({ detail: `${down} ${down.includes(' and ') ? 'are' : 'is'} not answering.` });
  });
  return router;
}
