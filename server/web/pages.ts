// Page plumbing: the static assets and the Content-Security-Policy pages carry (no inline script, no CDN).
import path from 'node:path';
import express, { type RequestHandler } from 'express';

export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

// `npm run build` copies static/ next to the compiled file, so __dirname works from src and from dist.
export const staticAssets = express.static(path.join(__dirname, 'static'), { maxAge: '1h', index: false });

/** GET /favicon.ico: browsers ask for it on every page (the stored highlight documents too); an SVG icon, not a 404. */
export const favicon: RequestHandler = (_req, res) => {
  res.type('image/svg+xml').sendFile(path.join(__dirname, 'static', 'favicon.svg'), { maxAge: '1d' });
};
