// The flags `npm start` gives node (package.json's start script asks this module for them): AsyncLocalStorage
// on AsyncContextFrame where this Node has it only as a flag (22, 23; on by default from 24, which has no such flag).
// The store's reads find their request's stop in an AsyncLocalStorage (src/store/cancellation.ts); without the frame,
// Node runs promise hooks on every promise of the process once one is used: on 2026-11-27 the detail read served 13%
// more requests a second with the flag (12% less CPU a request), the list 9% (docs/operations.md).
// https://nodejs.org/docs/latest-v22.x/api/cli.html#--experimental-async-context-frame
export const ASYNC_CONTEXT_FRAME = '--experimental-async-context-frame';

/** The flags to start the service's node with, on this Node. */
export const startFlags = (): string[] =>
  process.allowedNodeEnvironmentFlags.has(ASYNC_CONTEXT_FRAME) ? [ASYNC_CONTEXT_FRAME] : [];

/** The start flags this process was started without (a service run as `node dist/server/main.js`). */
export const missingStartFlags = (): string[] => startFlags().filter((f) => !process.execArgv.includes(f));
