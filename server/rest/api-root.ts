// GET /: the API root, linking the top-level endpoints (absolute URLs, as DRF's api_root does).
import type { RequestHandler } from 'express';
import { urls } from '../http/urls';
import { HttpError } from '../../src/refusal';
import { notAcceptable } from '../http/negotiate';
import { sendJson } from '../http/respond';

const ALLOW = 'GET, HEAD, OPTIONS';

export const apiRoot: RequestHandler = (req, res) => {
  res.set('Allow', ALLOW);
  if (!res.locals.format) throw notAcceptable(res);
  if (req.method === 'OPTIONS') {
    return sendJson(res, 200, {
      name: 'Api Root',
      description: '',
      renders: ['application/json', 'text/html'],
      parses: [],
    });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') throw HttpError.detail(405, `Method "${req.method}" not allowed.`);
  const base = `${req.protocol}://${req.get('host')}`;
  sendJson(res, 200, {
    snippets: base + urls(req).reverse('snippet-list'),
    users: base + urls(req).reverse('user-list'),
  });
};
