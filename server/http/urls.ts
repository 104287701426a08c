// The route-name registry (Django's `reverse`): every page builds its links by name (`framework:login`,
// `snippet-detail`), never by hard-coded path. Each app owns one; the routes register into it as they are mounted.
import type { Request } from 'express';

type Params = Record<string, string | number>;
type PathBuilder = (params: Params) => string;

export class Urls {
  private readonly builders = new Map<string, PathBuilder>();

  /** Registers `name` for a path template such as `/snippets/:pk/`. */
  register(name: string, template: string): void {
    if (this.builders.has(name)) throw new Error(`route ${name} is registered twice`);
    this.builders.set(name, (params) =>
      template.replace(/:(\w+)/g, (_, key: string) => {
        const value = params[key];
        if (value === undefined) throw new Error(`reverse(${name}): missing parameter ${key}`);
        return encodeURIComponent(String(value));
      }),
    );
  }

  /** The path of a named route. */
  reverse(name: string, params: Params = {}): string {
    const build = this.builders.get(name);
    if (!build) throw new Error(`No route named ${name}`);
    return build(params);
  }

  /** The path of a named route, or undefined when it is not mounted (an optional scheme turned off). */
  reverseIfMounted(name: string, params: Params = {}): string | undefined {
    return this.builders.has(name) ? this.reverse(name, params) : undefined;
  }
}

/** The registry of the app serving this request. */
export function urls(req: Request): Urls {
  return req.app.locals.urls;
}

/** A configured mount point (`api-auth`, `/api-auth/`…) as the path it names: one leading and one trailing slash. */
export function mountPath(configured: string): string {
  return `/${configured.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');
}
