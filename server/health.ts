// /healthz (the process answers) and /readyz (the database, and Redis with REDIS_URL, answer) for load balancers; no
// auth, no throttling.
import cluster from 'node:cluster';
import { Router } from 'express';
import type { Config } from '../src/config';
import { RETRY_AFTER_SECONDS } from '../src/store/errors';
import { ping } from '../src/store/database';
import { pingRedis, redisClient } from '../src/store/redis';

export function healthRoutes(config: Pick<Config, 'REDIS_URL' | 'REDIS_TIMEOUT_MS' | 'LOG_LEVEL'>): Router {
  const router = Router();
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
    const [database, redis] = await Promise.allSettled([ping(), redisAnswers()]);
    if (database.status === 'fulfilled' && redis.status === 'fulfilled') return void res.json({ status: 'ready' });
    const down = [database.status === 'rejected' && 'The database', redis.status === 'rejected' && 'Redis'].filter(Boolean).join(' and ');
    res.status(503).set('Retry-After', String(RETRY_AFTER_SECONDS)).json({ detail: `${down} ${down.includes(' and ') ? 'are' : 'is'} not answering.` });
  });
  return router;
}
