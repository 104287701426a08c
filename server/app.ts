// createApp(config): the Express application, assembled in processing order; it never listens.
import express, { type Express } from 'express';
import type { Config } from '../src/config';
import { createLogger, type Logger } from '../src/log';
import { accessLog } from './access-log';
import { authenticationChain } from './auth/chain';
import { buildSchemes } from './auth/schemes';
import { loginRoutes } from './auth/login';
import { oauth2Routes } from './auth/oauth2/routes';
import { sessionMiddleware } from './auth/session';
import { createThrottle } from './auth/throttle';
import { tokenIssueRoutes } from './auth/token-issue';
import { exposeCsrfToken } from './auth/csrf';
import { apiRoot } from './rest/api-root';
import { healthRoutes } from './health';
import { errorHandler, notFoundHandler } from './rest/errors';
import { restFacade } from './rest/facade';
import { negotiation } from './rest/negotiate';
import { openapiRouter } from './openapi/routes';
import { securityHeaders } from './security-headers';
import { trpcEndpoint } from './trpc-endpoint';
import { favicon, staticAssets } from './web/pages';
import { snippetViews } from './web/snippet-views';

export function createApp(config: Config, log: Logger = createLogger(config.LOG_LEVEL)): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(accessLog(log, config));
  app.use(securityHeaders);
  // Probes answer before authentication and throttling: a load balancer sends no credentials.
  app.use(healthRoutes());
  app.use('/static', staticAssets);
  app.get('/favicon.ico', favicon);
  app.use(negotiation);
  const throttle = createThrottle(config);
  // The token endpoint authenticates OAuth clients, not users: Basic there carries a client's credentials.
  app.use(oauth2Routes(config, throttle));
  if (config.AUTH_SCHEMES.includes('session')) app.use(sessionMiddleware(config));
  // Authentication runs first on every request, before routing errors, parsing, permissions and throttling.
  app.use(authenticationChain(buildSchemes(config, throttle)));
  app.use(throttle.requests);
  app.use(exposeCsrfToken);
  app.use(loginRoutes(config.API_AUTH_PREFIX, throttle));
  app.use(tokenIssueRoutes(config.TOKEN_AUTH_PATH, throttle));
  app.use('/trpc', trpcEndpoint);
  app.all('/', apiRoot);
  app.use(restFacade());
  app.use(snippetViews());
  app.use(openapiRouter(config));
  app.use(notFoundHandler);
  app.use(errorHandler());
  return app;
}
