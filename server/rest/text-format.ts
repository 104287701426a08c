// Negotiation for a path whose answer is a text document (a diff): that type, or the browsable page for a browser.
import type { Request } from 'express';
import Negotiator from 'negotiator';
import type { Format } from '../http/negotiate';

/**
 * 'json' stands for the path's own answer here (the text document; errors stay JSON), 'html' for the page; null when
 * the Accept header allows neither (406). `?format=api` asks for the page, as on every path.
 */
export function textFormat(req: Request, type: string): Format | null {
  const format = req.originalUrl.includes('?') ? new URL(req.originalUrl, 'http://x').searchParams.get('format') : null;
  if (format === 'api') return 'html';
  if (format !== null) return null;
  const accept = req.headers.accept;
  if (!accept) return 'json';
  const mediaType = type.split(';')[0]!;
  const best = new Negotiator({ headers: { accept } }).mediaType([mediaType, 'text/html']);
  return best === 'text/html' ? 'html' : best ? 'json' : null;
}
