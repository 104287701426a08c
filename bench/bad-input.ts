// `npm run bench:bad-input`: seeded bad requests, 8 at a time, every throttle on; no 5xx, no timeout, every create accounted for.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { account, storedSnippets } from './accounting';
import { makeCase, TARGET, type Case, type CaseContext } from './bad-input-cases';
import { apiToken, seedSnippets } from './credentials';
import { openEngine, uniqueUsername } from './engine';
import { rngFor } from './prng';
import { sendRaw, type Outcome } from './raw-request';
import { cli, startService, stop, waitForHttp, throttledServiceEnv } from './service';
import { markdownTable } from './table';
import { exitWith } from './exit-with';
import { startProvider, type TestProvider } from '../test/support/oidc';

/** BENCH_PORT: another port, for a run beside another bench (docs/benchmarks.md). */
const PORT = Number(process.env.BENCH_PORT ?? 18704);
const COUNT = Number(process.env.BENCH_BAD_REQUESTS ?? 10000);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const CONCURRENCY = 8;
const TIMEOUT_MS = 10000;

interface Failure {
  index: number;
  category: string;
  label: string;
  what: string;
}

/** The login page's csrftoken cookie and its token (the cookie's value), for the login form cases. */
async function loginPageSession(base: string): Promise<{ loginCookie: string; csrf: string }> {
  const res = await fetch(`${base}/api-auth/login/`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  await res.arrayBuffer();
  const loginCookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('csrftoken='));
  if (!loginCookie) throw new Error(`login page: ${res.status}, no csrftoken cookie`);
  return { loginCookie, csrf: loginCookie.slice('csrftoken='.length) };
}

/** The value of the `oidc_flow` cookie a start of the OpenID Connect sign-in sets: a real flow for the callback cases. */
async function oidcFlow(base: string): Promise<string> {
  const res = await fetch(`${base}/api-auth/oidc/login/?next=/snippets/`, {
    redirect: 'manual',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  await res.arrayBuffer();
  const flow = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('oidc_flow='));
  if (res.status !== 302 || !flow) throw new Error(`OpenID Connect login: ${res.status}, no oidc_flow cookie`);
  return flow.slice('oidc_flow='.length);
}

/** The snippet a success created, if the request was a create: the REST answer, or tRPC's `result.data`. */
function created(c: Case, o: Outcome): { id: number; code: string } | undefined {
  if (!('status' in o) || c.req.method !== 'POST') return undefined;
  const rest = o.status === 201 && c.req.path === '/snippets/';
  const trpc = o.status === 200 && c.req.path.startsWith('/trpc/snippets.create');
  if (!rest && !trpc) return undefined;
  const parsed = JSON.parse(o.body.toString('utf8')) as { id: number; code: string } & {
    result: { data: { id: number; code: string } };
  };
  return rest ? parsed : parsed.result.data;
}

async function main(): Promise<number> {
  const engine = await openEngine();
  const base = `http://127.0.0.1:${PORT}`;
  // A real OpenID Connect provider (the tests' oidc-provider) in this process, so the sign-in's paths are live.
  const provider: TestProvider = await startProvider([`${base}/api-auth/oidc/callback/`]);
  const env = { ...throttledServiceEnv(engine.url, PORT, 'error'), ...provider.env };
  const username = uniqueUsername();
  const password = 'benchpass';
  const clientId = uniqueUsername('bench-client');
  const clientSecret = 'bench-secret';
  let service: ReturnType<typeof startService> | undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    cli(env, 'migrate');
    cli(env, 'createuser', username, '--password', password);
    cli(env, 'createclient', clientId, '--client-id', clientId, '--client-secret', clientSecret);
    const personalKey = cli(env, 'createtoken', username, '--name', 'bench read', '--scope', 'read');
    service = startService(env);
    await waitForHttp(`${base}/snippets/`);
    const ctx: CaseContext = {
      username,
      password,
      token: await apiToken(base, username, password),
      clientId,
      clientSecret,
      ...(await loginPageSession(base)),
      personalKey,
      oidcFlow: await oidcFlow(base),
    };
    const [targetId] = await seedSnippets(base, ctx.token, 1);

    const answers = new Map<string, Map<string, number>>();
    const failures: Failure[] = [];
    const acknowledged = new Map<number, string>();
    const madeBy = new Map<number, string>();
    // The cases without the run's credentials: equal for equal seeds, whatever the machine or the timing.
    const digest = createHash('sha256');
    const labels: string[] = new Array<string>(COUNT);
    let next = 0;
    const started = Date.now();
    const worker = async () => {
      for (let i = next++; i < COUNT; i = next++) {
        const c = makeCase(rngFor(SEED, i), ctx, `${SEED}/${i}`);
        labels[i] = `${c.category}\t${c.label}\t${c.req.method} ${c.req.path}`;
        const o = await sendRaw(
          agent,
          PORT,
          { ...c.req, path: c.req.path.replace(TARGET, `/snippets/${targetId}/`) },
          TIMEOUT_MS,
        );
        const key = 'status' in o ? String(o.status) : o.failure;
        const byStatus = answers.get(c.category) ?? new Map<string, number>();
        answers.set(c.category, byStatus.set(key, (byStatus.get(key) ?? 0) + 1));
        const fail = (what: string) => failures.push({ index: i, category: c.category, label: c.label, what });
        if (!('status' in o)) fail(`${o.failure}: ${o.message}`);
        else if (o.status >= 500) fail(`${o.status} ${o.body.toString('utf8').slice(0, 200)}`);
        // A valid create may be throttled, never refused: a refusal is the case's mistake or the service's.
        else if (c.code !== undefined && o.status >= 300 && o.status !== 429)
          fail(`valid create answered ${o.status} ${o.body.toString('utf8').slice(0, 200)}`);
        try {
          const s = created(c, o);
          if (s) {
            acknowledged.set(s.id, c.code ?? s.code);
            madeBy.set(s.id, `#${i} ${c.label}`);
            if (c.code !== undefined && s.code !== c.code)
              fail(`snippet ${s.id} answered with other code than was sent`);
          }
        } catch (err) {
          fail(`a success without a readable snippet: ${String(err)}`);
        }
        if ((i + 1) % 1000 === 0) process.stderr.write(`bench: bad input ${i + 1}/${COUNT}…\n`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (Date.now() - started) / 1000;
    for (const l of labels) digest.update(`${l}\n`);

    process.stderr.write('bench: accounting for the creates…\n');
    const stored = await storedSnippets(base, username);
    stored.delete(targetId!);
    const accounts = account(acknowledged, stored);
    const shown = (text: string | undefined) =>
      text === undefined ? 'nothing' : JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
    for (const [what, ids] of Object.entries(accounts)) {
      for (const id of ids as number[]) {
        failures.push({
          index: -1,
          category: 'accounting',
          label: `${what} snippet ${id}`,
          what: `made by ${madeBy.get(id) ?? 'no acknowledged request'}: sent ${shown(acknowledged.get(id))}, stored ${shown(stored.get(id))}`,
        });
      }
    }
    const ready = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(TIMEOUT_MS) }).then(
      (r) => r.status,
      (err: unknown) => String(err),
    );
    if (ready !== 200) failures.push({ index: -1, category: 'after the run', label: '/readyz', what: String(ready) });

    const rows = [['category', 'requests', 'answers', 'failures']];
    for (const [category, byStatus] of [...answers].sort(([a], [b]) => a.localeCompare(b))) {
      const n = [...byStatus.values()].reduce((a, b) => a + b, 0);
      const statuses = [...byStatus]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k} ×${v}`)
        .join(', ');
      rows.push([category, String(n), statuses, String(failures.filter((f) => f.category === category).length)]);
    }
    console.log(
      `\nBad input: ${COUNT} requests, seed ${SEED} (cases digest ${digest.digest('hex').slice(0, 16)}), ${CONCURRENCY} at a time, ${TIMEOUT_MS / 1000} s timeout, ` +
        `${engine.name}, ${Number(process.env.WEB_CONCURRENCY || 1)} process(es), THROTTLE_ANON/THROTTLE_USER 1000000/second, THROTTLE_LOGIN default; ${seconds.toFixed(0)} s\n`,
    );
    console.log(markdownTable(rows));
    console.log(
      `\n${acknowledged.size} snippets created and acknowledged: ${accounts.missing.length} missing, ${accounts.changed.length} with other code, ${accounts.unacknowledged.length} stored but not acknowledged`,
    );
    if (failures.length) {
      console.log(`\n${failures.length} failures${failures.length > 30 ? ' (the first 30)' : ''}:`);
      for (const f of failures.slice(0, 30)) console.log(`  #${f.index} ${f.category}: ${f.label}: ${f.what}`);
      return 1;
    }
    console.log('\nno 5xx, no timeout, no socket error; every create accounted for');
    return 0;
  } finally {
    agent.destroy();
    if (service) await stop(service);
    await provider.close();
    await engine.close();
  }
}

exitWith(main);
