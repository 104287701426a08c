// The REST routing table, derived at start-up from the procedures' `.meta`: a path, its methods and its name are
// written once, on the procedure (trpc-to-openapi's `openapi.path` and `method`, our `name`).
import type { TRPCProcedureType } from '@trpc/server';
import {
  forEachOpenApiProcedure,
  getInputOutputParsers,
  instanceofZodTypeLikeVoid,
  unwrapZodType,
  type OpenApiMeta,
  type OpenApiProcedure,
  type OpenApiRouter,
} from 'trpc-to-openapi';
import type { ZodType } from 'zod';
import type { Context } from '../../src/context';
import type { RouteMeta } from '../../src/trpc';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'DELETE'];

/** A procedure as the facade calls it: its middlewares and its input schema run, as in tRPC's own caller. */
export type ProcedureCall = (ctx: Context, input: unknown) => Promise<unknown>;

/** What the facade needs to call a procedure and write its answer. */
export interface RoutedProcedure {
  /** The procedure's path in the router ("snippets.get"): its name in the OpenAPI document and tRPC's errors. */
  path: string;
  call: ProcedureCall;
  /** The output is a page, `{ items, next }`: the body is the items, the next page a Link. */
  paged: boolean;
  /** The procedure takes no input (z.void()): the query string is not handed to it. */
  voidInput: boolean;
  /** A write for the authenticated only (`openapi.protect`). */
  protect: boolean;
  /** The success status when not the method's usual one (`.meta` status). */
  status?: number;
  /** A write that takes no fields (`.meta` bodyless). */
  bodyless: boolean;
  /** The media type of a text output (`.meta` text), answered as it is rather than as JSON. */
  text?: string;
  /** What the OpenAPI document says of it (server/openapi/paths.ts): `.meta`'s openapi entry, its input and output. */
  openapi: NonNullable<OpenApiMeta['openapi']>;
  /** The input schema without its optional or preprocess wrappers: an object of fields, or z.void(). */
  input: ZodType;
  output: ZodType;
}

export interface Route {
  /** Route name in the app's registry (links are built by it). */
  name: string;
  /** The DRF view name ("snippet-list" is "Snippet List"), shown in OPTIONS metadata and page titles. */
  viewName: string;
  /** The path as the procedures declare it: `/snippets/{id}/`. */
  template: string;
  /** The served path: exact, trailing slash included, each `{param}` one or more digits (DESIGN §4). */
  pattern: RegExp;
  procedures: Partial<Record<Method, RoutedProcedure>>;
  /** DRF's IsAuthenticatedOrReadOnly: a route with a protected write refuses every unsafe method to the anonymous. */
  authenticatedOrReadOnly: boolean;
}

const viewName = (name: string) =>
  name.replace(/(^|-)(\w)/g, (_, dash: string, c: string) => `${dash ? ' ' : ''}${c.toUpperCase()}`);
const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
const patternOf = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{(\w+)\}/)
      .map((part, i) => (i % 2 ? `(?<${part}>[0-9]+)` : escape(part)))
      .join('')}$`,
  );

/** The routes of every procedure with an `openapi` path, in the router's order. */
export function routesOf(router: OpenApiRouter): Route[] {
  const byPath = new Map<string, Route>();
  forEachOpenApiProcedure<RouteMeta>(router._def.procedures, ({ path, type, procedure, meta }) => {
    const { method, path: template, protect = false } = meta.openapi;
    const name = meta.name;
    if (!name) throw new Error(`procedure ${path}: .meta needs a route name beside its openapi path`);
    const route = byPath.get(template) ?? {
      name,
      viewName: viewName(name),
      template,
      pattern: patternOf(template),
      procedures: {},
      authenticatedOrReadOnly: false,
    };
    if (route.name !== name)
      throw new Error(`procedure ${path}: ${template} is named ${route.name} by another procedure, not ${name}`);
    if (!METHODS.includes(method as Method)) throw new Error(`procedure ${path}: method ${method} is not served`);
    const { inputParser, outputParser } = getInputOutputParsers(procedure);
    const input = unwrapZodType(inputParser, true) as ZodType;
    route.procedures[method as Method] = {
      path,
      call: callOf(path, type, procedure),
      paged: meta.paged === true,
      voidInput: instanceofZodTypeLikeVoid(input),
      protect,
      status: meta.status,
      bodyless: meta.bodyless === true,
      text: meta.text,
      openapi: meta.openapi,
      input,
      output: outputParser as ZodType,
    };
    route.authenticatedOrReadOnly ||= protect;
    byPath.set(template, route);
  });
  return [...byPath.values()];
}

/** The procedure the router holds, called directly (no lookup by its path at each request). */
function callOf(path: string, type: TRPCProcedureType, procedure: OpenApiProcedure): ProcedureCall {
  return (ctx, input) =>
    procedure({ ctx, getRawInput: () => Promise.resolve(input), path, type, signal: undefined, batchIndex: 0 });
}

/** A Django-style template of a route for the registry: `/snippets/{id}/` is `/snippets/:id/`. */
export function registryTemplate(route: Route): string {
  return route.template.replace(/\{(\w+)\}/g, ':$1');
}

export function matchRoute(
  routes: readonly Route[],
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (m) return { route, params: { ...m.groups } };
  }
  return undefined;
}

/**
 * The Allow header: the route's methods, HEAD when it has GET (HEAD is GET without the body, RFC 9110 §9.3.2; Django
 * adds `head` to a view only beside its `get`), and OPTIONS, in DRF's order.
 */
export function allowedMethods(route: Route): string[] {
  return [...METHODS.filter((m) => route.procedures[m]), ...(route.procedures.GET ? ['HEAD'] : []), 'OPTIONS'];
}
