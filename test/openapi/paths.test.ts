// The write bodies of the document (server/openapi/paths.ts): each documented once, and only while it stays true.
import { expect } from 'chai';
import { z } from 'zod';
import { bodySchemas } from '../../server/openapi/paths';
import { routesOf, type Route, type RoutedProcedure } from '../../server/rest/routes';
import { appRouter } from '../../src/routers';

/** The routing table with one procedure of one route changed. */
function withProcedure(
  route: string,
  method: 'POST' | 'PUT',
  change: (p: RoutedProcedure) => RoutedProcedure,
): Route[] {
  return routesOf(appRouter).map((r) =>
    r.name === route ? { ...r, procedures: { ...r.procedures, [method]: change(r.procedures[method]!) } } : r,
  );
}

describe('the OpenAPI write bodies', () => {
  it('are one component per body shape: the snippet writes share SnippetInput, without the id or If-Match', () => {
    const bodies = bodySchemas(routesOf(appRouter));
    expect(Object.keys(bodies)).to.deep.equal(['SnippetInput', 'PersonalTokenInput']);
    expect(Object.keys(bodies.SnippetInput!.properties!)).to.deep.equal([
      'title',
      'code',
      'linenos',
      'language',
      'style',
    ]);
  });

  it('refuse to document PUT under SnippetInput once it takes a field POST does not', () => {
    const routes = withProcedure('snippet-detail', 'PUT', (put) => ({
      ...put,
      input: (put.input as z.ZodObject).extend({ note: z.string().optional() }),
    }));
    expect(() => bodySchemas(routes)).to.throw('the writes documented as SnippetInput no longer take the same fields');
  });

  it('refuse a write whose body has no component named for it', () => {
    const routes = withProcedure('snippet-list', 'POST', (post) => ({ ...post, path: 'snippets.fork' }));
    expect(() => bodySchemas(routes)).to.throw('name the body component of snippets.fork');
  });
});
