// A WEB_CONCURRENCY=2 service seen from its clients: requests each on a connection of its own, so that the cluster's
// primary hands them to its workers in turn, and a start that returns once both workers have answered.
import http from 'node:http';
import { runCli, startService, workersListening, type ServiceProcess } from './process';

export const ALICE = `Basic ${Buffer.from('alice:alicepass').toString('base64')}`;

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on a connection of its own (no keep-alive agent); a body is sent as JSON. */
export function freshRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method, agent: false, headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The service of `env` (WEB_CONCURRENCY=2) with the user alice (password alicepass, ALICE), returned once both its
 * workers listen and each has answered a /healthz of its own; throws when 300 requests met only one.
 */
export async function startTwoWorkers(env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  await runCli(env, 'createuser', 'alice', '--password', 'alicepass');
  const service = await startService(env);
  await workersListening(service, 2);
  const workers = new Set<number>();
  for (let i = 0; i < 300 && workers.size < 2; i++)
    workers.add((JSON.parse((await freshRequest(service.base, 'GET', '/healthz')).body) as { worker: number }).worker);
  if (workers.size < 2) throw new Error(`300 requests met ${workers.size} worker of the service's two`);
  return service;
}
