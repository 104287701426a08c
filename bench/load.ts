// One load scenario: autocannon on loopback while the target process's RSS is sampled.
import { readdirSync, readFileSync } from 'node:fs';
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

/** The process and its descendants (the workers under WEB_CONCURRENCY). */
function withDescendants(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return []; // the thread ended between the listing and the read
    }
  });
  return [pid, ...children.flatMap(withDescendants)];
}

/** CPU seconds (user + system) a process tree has used so far: /proc/PID/stat's utime and stime, in clock ticks. */
export function cpuSeconds(pid: number): number {
  return ticksOf(withDescendants(pid), (p) => `/proc/${p}/stat`) / 100; // USER_HZ, 100 on Linux
}

/**
 * CPU seconds the main threads of a process tree have used so far (/proc/PID/task/PID/stat): the JavaScript of each
 * process runs there, so where the service is busy, that thread's CPU a request bounds its rate, whatever the rest of
 * the process (libuv's pool, V8's helper threads, worker threads) uses.
 */
export function mainThreadCpuSeconds(pid: number): number {
  return ticksOf(withDescendants(pid), (p) => `/proc/${p}/task/${p}/stat`) / 100;
}

/** The utime + stime clock ticks of each process's stat file. */
function ticksOf(pids: number[], statOf: (pid: number) => string): number {
  let ticks = 0;
  for (const p of pids) {
    try {
      // The fields after the command's closing parenthesis; utime and stime are the 14th and 15th of the line.
      const fields = readFileSync(statOf(p), 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks;
}

/** Resident memory of a process tree, in MB. */
export function rssMb(pid: number): number {
  let kb = 0;
  for (const p of withDescendants(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return kb / 1024;
}

export async function runScenario(
  s: Scenario,
  pids: number[],
  opts: { connections: number; duration: number },
): Promise<Result> {
  let peak = 0;
  const sample = () =>
    (peak = Math.max(
      peak,
      pids.reduce((sum, pid) => sum + rssMb(pid), 0),
    ));
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
