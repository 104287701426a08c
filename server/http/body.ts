// Request bodies: JSON, form-urlencoded and multipart, read into one plain object for the adapter.
import type { IncomingMessage } from 'node:http';
import zlib from 'node:zlib';
import Busboy from 'busboy';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { HttpError } from '../../src/refusal';

/** Fits 100,000 characters of code in the costliest encoding (`\uXXXX` surrogate pairs: 12 bytes each) plus the other fields. */
export const BODY_LIMIT = 1536 * 1024;

export const PARSED_MEDIA_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(raw: Buffer, what: string): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw HttpError.detail(400, `${what} - Invalid UTF-8 in request body.`);
  }
}

/** DRF's name for a JSON value's type, for "Expected a dictionary, but got list." */
function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return typeof value;
}

function parseJson(raw: Buffer): Record<string, unknown> {
  if (raw.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(decodeUtf8(raw, 'JSON parse error'));
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw HttpError.detail(400, `JSON parse error - ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, {
      non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(value)}.`],
    });
  }
  return value as Record<string, unknown>;
}

function parseUrlencoded(raw: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  // The last value wins for a repeated key, as a Django QueryDict reads it.
  for (const [k, v] of new URLSearchParams(decodeUtf8(raw, 'Form parse error'))) fields[k] = v;
  return fields;
}

/**
 * Fields a client may send as a file part (`curl -F code=@main.rs`): the text is stored as the file holds it, byte for
 * byte (a byte-order mark too), so it must be UTF-8. A file part of any other name is ignored, as an unknown field is.
 */
const FILE_FIELDS = new Set(['code', 'title']);
/**
 * How many fields and file parts a multipart body may have: Django's DATA_UPLOAD_MAX_NUMBER_FIELDS and
 * DATA_UPLOAD_MAX_NUMBER_FILES. Every part counts, the ignored ones too (busboy counts them all), so a body past either
 * is refused saying so: busboy would drop the parts after the limit, and a `code` among them would be "required".
 */
export const MULTIPART_LIMITS = { fields: 1000, files: 100 };
const TOO_MANY = {
  fieldsLimit: `More than ${MULTIPART_LIMITS.fields} fields.`,
  filesLimit: `More than ${MULTIPART_LIMITS.files} file parts.`,
};
const NOT_UTF8 = 'The submitted file is not UTF-8 text.';
const utf8Exact = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function parseMultipart(req: Request, raw: Buffer): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const notText: Record<string, string[]> = {};
    let bb: Busboy.Busboy;
    try {
      // The whole body is already within BODY_LIMIT, so a part is too.
      bb = Busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fieldSize: BODY_LIMIT, fileSize: BODY_LIMIT, ...MULTIPART_LIMITS },
      });
    } catch (err) {
      return reject(HttpError.detail(400, `Multipart form parse error - ${(err as Error).message}`));
    }
    // A field and a file part take their place in the order they came: the last of a name wins.
    let order = 0;
    const settled = new Map<string, number>();
    const set = (name: string, at: number, value: string) => {
      if ((settled.get(name) ?? -1) > at) return;
      settled.set(name, at);
      fields[name] = value;
    };
    bb.on('field', (name, value) => set(name, order++, value));
    bb.on('file', (name, stream) => {
      if (!FILE_FIELDS.has(name)) return void stream.resume();
      const at = order++;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        try {
          set(name, at, utf8Exact.decode(Buffer.concat(chunks)));
        } catch {
          notText[name] = [NOT_UTF8];
        }
      });
    });
    const refuse = (why: string) => reject(HttpError.detail(400, `Multipart form parse error - ${why}`));
    bb.on('error', (err: Error) => refuse(err.message));
    for (const [limit, why] of Object.entries(TOO_MANY)) bb.on(limit, () => refuse(why));
    bb.on('close', () => (Object.keys(notText).length ? reject(new HttpError(400, notText)) : resolve(fields)));
    bb.end(raw);
  });
}

const readRawBody = express.raw({ type: () => true, limit: BODY_LIMIT });

/**
 * `Expect: 100-continue` with a Content-Length over BODY_LIMIT: the server does not invite that body
 * (server/connections.ts), so it is refused unread, where body-parser would read it all first (and wait for ever for
 * a client that waits for the invitation). Node closes the connection after a final answer sent without
 * "100 Continue" (RFC 9110 §10.1.1).
 */
export function uninvitedTooLarge(req: IncomingMessage): boolean {
  return /100-continue/i.test(req.headers.expect ?? '') && Number(req.headers['content-length']) > BODY_LIMIT;
}

/** The error raw-body gives a body over the limit (the refusal rule's 413). */
const tooLarge = () =>
  Object.assign(new Error('request entity too large'), { type: 'entity.too.large', status: 413, expose: true });

/** For a route that reads its body itself (/trpc): the 413 of an uninvited body over the limit, before it reads. */
export const refuseUninvitedTooLarge: RequestHandler = (req, _res, next) =>
  next(uninvitedTooLarge(req) ? tooLarge() : undefined);

/**
 * A request its client sent whole and then half-closed its connection, before the body was read (the server answers
 * it: server/connections.ts). body-parser takes a connection that can no longer be read for a request already read
 * (on-finished's isFinished) and leaves req.body unset, though the whole body is here, buffered in the request.
 */
const halfClosedUnread = (req: IncomingMessage) =>
  req.complete && !req.readableEnded && !req.destroyed && req.socket?.readable === false;

/** The content codings body-parser decodes, decoded as it does, within the same limit on the decoded bytes. */
const DECODE: Record<string, (raw: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Buffer> = {
  identity: (raw) => raw,
  gzip: zlib.gunzipSync,
  deflate: zlib.inflateSync,
  br: zlib.brotliDecompressSync,
};

/** The buffered body of a half-closed request, decoded. */
async function bufferedBody(req: IncomingMessage): Promise<Buffer> {
  const coding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const decode = DECODE[coding];
  if (!decode) throw HttpError.detail(415, `Unsupported content encoding "${coding}" in request.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if ((size += chunk.length) > BODY_LIMIT) throw tooLarge();
    chunks.push(chunk);
  }
  try {
    return decode(Buffer.concat(chunks), { maxOutputLength: BODY_LIMIT });
  } catch (err) {
    throw (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      ? tooLarge()
      : HttpError.detail(400, `Invalid ${coding} content in request.`);
  }
}

/** Reads the body into req.body as a Buffer (once: a second call finds the stream finished and keeps it). */
export async function bufferBody(req: Request, res: Response): Promise<void> {
  if (uninvitedTooLarge(req)) throw tooLarge();
  if (halfClosedUnread(req)) return void (req.body = await bufferedBody(req));
  return new Promise((resolve, reject) => readRawBody(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
}

/** The media type of the request, lower-cased, without parameters ('' when absent). */
export function mediaType(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Buffers and parses the body: what every handler that reads a body does (buffering twice is harmless). */
export async function readBody(req: Request, res: Response): Promise<Record<string, unknown>> {
  await bufferBody(req, res);
  return parseBody(req);
}

/** Reads the (already buffered) body of a write request into an object. */
export async function parseBody(req: Request): Promise<Record<string, unknown>> {
  const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const type = mediaType(req);
  if (raw.length === 0 && type === '') return {};
  if (type === 'application/json' || type.endsWith('+json')) return parseJson(raw);
  if (type === 'application/x-www-form-urlencoded') return parseUrlencoded(raw);
  if (type === 'multipart/form-data') return parseMultipart(req, raw);
  throw HttpError.detail(415, `Unsupported media type "${req.headers['content-type'] ?? ''}" in request.`);
}
