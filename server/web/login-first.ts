// READ_ACCESS=authenticated (docs/authentication.md "A private deployment"): a browser reading as nobody is sent to the
// login page and, once signed in, back (`?next=`); an API client's anonymous GET of the API root is refused as any
// other read. Every other read is refused by the procedures themselves (src/access.ts), whichever path calls them.
import type { RequestHandler } from 'express';
import { TRPCError } from '@trpc/server';
import type { Config } from '../../src/config';
import { NOT_AUTHENTICATED } from '../../src/errors';
import { urls } from '../http/urls';

export function loginFirst(config: Pick<Config, 'READ_ACCESS'>): RequestHandler {
  return (req, res, next) => {
    if (config.READ_ACCESS !== 'authenticated' || req.requester.user) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const login = res.locals.format === 'html' ? urls(req).reverseIfMounted('framework:login') : undefined;
    if (login) return res.redirect(302, `${login}?next=${encodeURIComponent(req.originalUrl)}`);
    if (req.path === '/') return next(new TRPCError({ code: 'UNAUTHORIZED', message: NOT_AUTHENTICATED }));
    next();
  };
}
