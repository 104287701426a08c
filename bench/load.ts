// One load scenario: autocannon on loopback while the target process's RSS is sampled.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** Body per request (for PUTs that must differ, etc.). */
  requests?: autocannon.Request[];
}

export interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  peakRssMb: number;
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export async function runScenario(s: Scenario, pids: number[], opts: { connections: number; duration: number }): Promise<Result> {
  let peak = 0;
  const sample = () => (peak = Math.max(peak, pids.reduce((sum, pid) => sum + rssMb(pid), 0)));
  sample();
  const timer = setInterval(sample, 100);
  const result = await autocannon({
    url: s.url,
    method: s.method ?? 'GET',
    headers: s.headers,
    body: s.body,
    requests: s.requests,
    connections: opts.connections,
    duration: opts.duration,
  });
  clearInterval(timer);
  sample();
  return {
    name: s.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    peakRssMb: peak,
  };
}
