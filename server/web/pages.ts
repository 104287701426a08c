// Page plumbing: the static assets and the Content-Security-Policy pages carry (no inline script, no CDN).
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import { isStyle } from '../../src/highlight';
import { themeCss } from '../../src/highlight/themes';

export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

// `npm run build` copies static/ next to the compiled file, so __dirname works from src and from dist.
export const staticAssets = express.static(path.join(__dirname, 'static'), { maxAge: '1h', index: false });

/** GET /favicon.ico: browsers ask for it on every page (the stored highlight documents too); an SVG icon, not a 404. */
export const favicon: RequestHandler = (_req, res) => {
  res.type('image/svg+xml').sendFile(path.join(__dirname, 'static', 'favicon.svg'), { maxAge: '1d' });
};

/**
 * GET /themes/<style>.css (mounted at /themes): a style's sheet (`base16/monokai` at /themes/base16/monokai.css), so a
 * snippet page shows the snippet in its own style with no inline style. Only the offered styles; anything else falls
 * through to the 404.
 */
export const themeSheets: RequestHandler = (req, res, next) => {
  const style = /^\/(.+)\.css$/.exec(req.path)?.[1];
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !style || !isStyle(style)) return next();
  res.set('Cache-Control', 'public, max-age=86400').type('text/css; charset=utf-8').send(themeCss(style));
};
