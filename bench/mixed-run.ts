// `npm run bench:mixed`: the mixed scenario alone (or, with BENCH_SOAK=seconds, the soak) on SQLite or BENCH_DATABASE_URL.
import { apiToken, seedSnippets, sessionLogin } from './credentials';
import { openEngine, uniqueUsername } from './engine';
import { mixedScenario, type MixedTarget } from './mixed';
import { cli, startService, stop, waitForHttp, throttledServiceEnv } from './service';
import { soak } from './soak';
import { exitWith } from './exit-with';

const PORT = Number(process.env.BENCH_PORT ?? 18703);
const SNIPPETS = 100;
const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const SOAK = Number(process.env.BENCH_SOAK ?? 0);
const READERS = Number(process.env.BENCH_MIXED_READERS ?? 16);
const WRITERS = Number(process.env.BENCH_MIXED_WRITERS ?? 16);

async function main(): Promise<number> {
  const engine = await openEngine();
  const env = throttledServiceEnv(engine.url, PORT, 'warn');
  const base = `http://127.0.0.1:${PORT}`;
  const username = uniqueUsername();
  const password = 'benchpass';
  const processes = Number(process.env.WEB_CONCURRENCY || 1);
  let service: ReturnType<typeof startService> | undefined;
  try {
    cli(env, 'migrate');
    cli(env, 'createuser', username, '--password', password);
    service = startService(env);
    await waitForHttp(`${base}/snippets/`);
    const token = await apiToken(base, username, password);
    const ids = await seedSnippets(base, token, SNIPPETS);
    const target: MixedTarget = {
      base,
      detailId: ids[SNIPPETS / 2]!,
      token,
      session: { cookie: await sessionLogin(base, username, password) },
    };
    const heading =
      `${READERS} reader + ${WRITERS} writer connections, loopback, ${engine.name}, ${processes} process${processes > 1 ? 'es' : ''}, ` +
      `THROTTLE_ANON/THROTTLE_USER 1000000/second, node ${process.version}`;
    if (SOAK > 0) {
      const { report, failed } = await soak(target, { readers: READERS, writers: WRITERS }, SOAK, {
        pid: service.pid!,
        engine,
        username,
        password,
      });
      console.log(`\nSoak, ${SOAK} s: ${heading}\n\n${report}`);
      return failed ? 1 : 0;
    }
    const { table, checks, failed } = await mixedScenario(target, {
      readers: READERS,
      writers: WRITERS,
      seconds: SECONDS,
    });
    console.log(`\nMixed load, ${SECONDS} s per phase: ${heading}\n\n${table}\n\n${checks.join('\n')}`);
    return failed ? 1 : 0;
  } finally {
    if (service) await stop(service);
    await engine.close();
  }
}

exitWith(main);
