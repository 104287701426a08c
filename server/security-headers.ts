// Headers every response carries, as the Django original sends them.
import type { RequestHandler } from 'express';
import { PAGE_CSP } from './web/pages';

const HEADERS = Object.entries({
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  // Pages load scripts and styles from this origin only; views with other needs override it.
  'Content-Security-Policy': PAGE_CSP,
});

export const securityHeaders: RequestHandler = (_req, res, next) => {
  for (const [name, value] of HEADERS) res.setHeader(name, value);
  next();
};
