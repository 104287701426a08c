// The REST routing table: the spec's exact paths (`<pk>` is digits), their methods and procedures.
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Route {
  /** Route name in the registry (server/urls.ts builds its paths). */
  name: string;
  /** The DRF view name, shown in OPTIONS metadata and page titles. */
  viewName: string;
  pattern: RegExp;
  /** Method -> tRPC procedure path ("snippets.get"). */
  procedures: Partial<Record<Method, string>>;
  /** DRF's IsAuthenticatedOrReadOnly: every unsafe method needs an authenticated requester. */
  authenticatedOrReadOnly: boolean;
}

export const ROUTES: readonly Route[] = [
  {
    name: 'snippet-list',
    viewName: 'Snippet List',
    pattern: /^\/snippets\/$/,
    procedures: { GET: 'snippets.list', POST: 'snippets.create' },
    authenticatedOrReadOnly: true,
  },
  {
    name: 'snippet-detail',
    viewName: 'Snippet Detail',
    pattern: /^\/snippets\/(?<pk>[0-9]+)\/$/,
    procedures: { GET: 'snippets.get', PUT: 'snippets.update', DELETE: 'snippets.delete' },
    authenticatedOrReadOnly: true,
  },
  {
    name: 'user-list',
    viewName: 'User List',
    pattern: /^\/users\/$/,
    procedures: { GET: 'users.list' },
    authenticatedOrReadOnly: false,
  },
  {
    name: 'user-detail',
    viewName: 'User Detail',
    pattern: /^\/users\/(?<pk>[0-9]+)\/$/,
    procedures: { GET: 'users.get' },
    authenticatedOrReadOnly: false,
  },
];

export function matchRoute(path: string): { route: Route; pk?: string } | undefined {
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (m) return { route, pk: m.groups?.pk };
  }
  return undefined;
}

/** The Allow header: the route's methods plus HEAD and OPTIONS, in DRF's order. */
export function allowedMethods(route: Route): string[] {
  return [...(['GET', 'POST', 'PUT', 'DELETE'] as const).filter((m) => route.procedures[m]), 'HEAD', 'OPTIONS'];
}
