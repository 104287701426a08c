// The route-name registry: every page builds its links by name (`framework:login`, `snippet-detail`), never by hard-coded path.
type Params = Record<string, string | number>;
type PathBuilder = (params: Params) => string;

const registry = new Map<string, PathBuilder>();

/** Registers `name` for a path template such as `/snippets/:pk/`. Re-registering replaces (apps built with another prefix). */
export function registerRoute(name: string, template: string): void {
  registry.set(name, (params) =>
    template.replace(/:(\w+)/g, (_, key: string) => {
      const value = params[key];
      if (value === undefined) throw new Error(`reverse(${name}): missing parameter ${key}`);
      return encodeURIComponent(String(value));
    }),
  );
}

/** A configured mount point (`api-auth`, `/api-auth/`…) as the path it names: one leading and one trailing slash. */
export function mountPath(configured: string): string {
  return `/${configured.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');
}

/** The path of a named route (Django's `reverse`). */
export function reverse(name: string, params: Params = {}): string {
  const build = registry.get(name);
  if (!build) throw new Error(`No route named ${name}`);
  return build(params);
}

registerRoute('api-root', '/');
registerRoute('snippet-list', '/snippets/');
registerRoute('snippet-detail', '/snippets/:pk/');
registerRoute('user-list', '/users/');
registerRoute('user-detail', '/users/:pk/');

/** The path of a named route, or undefined when it is not mounted (an optional scheme turned off). */
export function reverseIfMounted(name: string, params: Params = {}): string | undefined {
  return registry.has(name) ? reverse(name, params) : undefined;
}

registerRoute('snippet-highlight', '/snippets/:pk/highlight/');
registerRoute('snippet-raw', '/snippets/:pk/raw/');
