// createApp(runtime): the Express application, assembled in processing order; it never listens.
import express, { type Express } from 'express';
import type { Runtime } from '../src/runtime';
import { accessLog, requestLoggers } from './access-log';
import { authenticationChain } from './auth/chain';
import { buildSchemes } from './auth/schemes';
import { oauth2Routes } from './auth/oauth2/routes';
import { sessionMiddleware } from './auth/session';
import { createThrottle } from './auth/throttle';
import { tokenIssueRoutes } from './auth/token-issue';
import { csrfProtection } from './auth/csrf';
import { appRouter } from '../src/routers';
import { arrived } from '../src/store/arrival';
import { apiRoot } from './rest/api-root';
import { healthRoutes } from './health';
import { errorHandler, notFoundHandler } from './http/errors';
import './http/locals';
import { negotiation } from './http/negotiate';
import { Urls } from './http/urls';
import { restFacade } from './rest/facade';
import { registryTemplate, routesOf } from './rest/routes';
import { openapiRouter } from './openapi/routes';
import { securityHeaders } from './security-headers';
import { trpcEndpoint } from './trpc-endpoint';
import { loginFirst } from './web/login-first';
import { pastePages } from './web/paste-pages';
import { renderPage } from './web/render-page';
import { loginPages } from './web/login';
import { favicon, staticAssets, themeSheets } from './web/pages';
import { snippetViews } from './web/snippet-views';

/** An app of the runtime: its database, highlighter, logger, clock and configuration; closing the runtime is the caller's. */
export function createApp(runtime: Runtime): Express {
  const { config, log } = runtime;
  const app = express();
  app.locals.runtime = runtime;
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  const trustProxy = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  // Each request in its place of arrival, for the readers' line to serve requests' lookups in (src/store/arrival.ts).
  app.use((_req, _res, next) => arrived(next));
  requestLoggers(app, log);
  app.use(accessLog(log, (req) => trustProxy(req.socket.remoteAddress ?? '', 0)));
  // The app's own route-name registry; the REST routes come from the procedures' .meta.
  const urls = (app.locals.urls = new Urls());
  const routes = routesOf(appRouter);
  urls.register('api-root', '/');
  for (const route of routes) urls.register(route.name, registryTemplate(route));
  app.locals.renderPage = renderPage;
  app.use(securityHeaders);
  // Probes answer before authentication and throttling: a load balancer sends no credentials.
  app.use(healthRoutes(runtime));
  app.use('/static', staticAssets);
  app.get('/favicon.ico', favicon);
  app.use('/themes', themeSheets);
  app.use(negotiation);
  const throttle = createThrottle(runtime);
  // The token endpoint authenticates OAuth clients, not users: Basic there carries a client's credentials.
  app.use(oauth2Routes(urls, runtime, throttle));
  if (config.AUTH_SCHEMES.includes('session')) app.use(sessionMiddleware(runtime));
  // Authentication runs first on every request, before routing errors, parsing, permissions and throttling.
  const csrf = csrfProtection(config);
  const schemes = buildSchemes(runtime, throttle, csrf);
  app.use(authenticationChain(schemes));
  app.use(throttle.requests);
  app.use(csrf.expose);
  app.use(loginPages(runtime, urls, config.API_AUTH_PREFIX, throttle, csrf));
  app.use(tokenIssueRoutes(runtime, urls, config.TOKEN_AUTH_PATH, throttle));
  app.use('/trpc', trpcEndpoint(schemes[0]?.challenge, throttle, config.TRPC_MAX_BATCH));
  // The API reference stays open in a private deployment; every read after it needs a requester there.
  app.use(openapiRouter(config));
  app.use(loginFirst(config));
  app.all('/', apiRoot);
  app.use(restFacade(routes));
  app.use(snippetViews(urls));
  app.use(pastePages(urls));
  app.use(notFoundHandler);
  app.use(errorHandler());
  return app;
}
