// Under npm (`npm start`, `npx snippets serve`) the service runs below a `sh -c` that npm starts: npm passes SIGTERM
// to that shell, which dies of it without passing it on, and the service would serve on, orphaned, holding the port.
// Its parent changing is then the signal: it stops as on SIGTERM.

/** How often the parent is checked; an orphan serves at most this long after its shell died. */
const CHECK_MS = 500;

/** Calls `stop` once, when the process that started this one has exited; only when started by npm. */
export function stopWhenOrphaned(stop: () => void, env: NodeJS.ProcessEnv = process.env): void {
  // Anywhere else (a supervisor, a shell's `&` and `nohup`) a new parent is no reason to stop.
  if (!env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, CHECK_MS);
  timer.unref();
}
