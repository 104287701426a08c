// /healthz (the process answers) and /readyz (the database, and Redis with REDIS_URL, answer) for load balancers; no
// auth, no throttling.
import cluster from 'node:cluster';
import { Router } from 'express';
import type { Config } from '../src/config';
import { RETRY_AFTER_SECONDS } from '../src/store/errors';
import { databaseReadiness } from '../src/store/readiness';
import { pingRedis, redisClient } from '../src/store/redis';

export function healthRoutes(config: Pick<Config, 'DATABASE_URL' | 'DATABASE_TIMEOUT_MS' | 'REDIS_URL' | 'REDIS_TIMEOUT_MS' | 'LOG_LEVEL'>): Router {
  const router = Router();
  const database = databaseReadiness(config);
  const redisAnswers = async () => {
    if (!config.REDIS_URL) return;
    redisClient(config); // made by the session store or a throttle already, unless neither uses it
    await pingRedis();
  };
  router.get('/healthz', (_req, res) => {
    // Which worker answered (0 without WEB_CONCURRENCY): lets an operator see the balancing.
    res.json({ status: 'ok', worker: cluster.worker?.id ?? 0 });
  });
  router.get('/readyz', async (_req, res) => {
    // Each check has its deadline (DATABASE_TIMEOUT_MS, REDIS_TIMEOUT_MS): a hung server is a 503, not a probe that hangs.
    const [db, redis] = await Promise.allSettled([database.check(), redisAnswers()]);
    if (db.status === 'fulfilled' && redis.status === 'fulfilled') return void res.json({ status: 'ready' });
    const down = [db.status === 'rejected' && 'The database', redis.status === 'rejected' && 'Redis'].filter(Boolean).join(' and ');
    res.status(503).set('Retry-After', String(RETRY_AFTER_SECONDS)).json({ detail: `${down} ${down.includes(' and ') ? 'are' : 'is'} not answering.` });
  });
  return router;
}
