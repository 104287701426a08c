// What a browser's snippet form sends, made what the person meant before the procedure takes it. Line ends: HTML's
// form encoding turns a textarea's LF into CRLF and a page's script sends LF, so a paste is stored with LF and an edit
// with the line ends the snippet already has (a CRLF snippet a script saved stays CRLF): an edit's diff shows only the
// lines the person changed. A paste with no language chosen gets the language of its file name's extension, else
// highlight.js's guess from the code (highlightAuto, on the highlighting workers). Only for requests that ask for a
// page: a JSON client's fields are stored as sent.
import type { Request } from 'express';
import { isLanguage } from '../../src/highlight';
import { callerFor } from '../auth/context';
import { languageOfFileName } from './file-names';

/** What the page picks when neither the file name nor the code says: the API's own default stays `python`. */
const UNKNOWN = 'plaintext';

const withLf = (code: string) => code.replace(/\r\n/g, '\n');

/** `id`: the snippet an edit (PUT) saves over. */
export async function asPasted(
  req: Request,
  method: string,
  submitted: Record<string, unknown>,
  id: string | undefined,
): Promise<void> {
  const { code, filename, language, title } = submitted;
  if (typeof code === 'string') submitted.code = withLf(code);
  if (method === 'PUT' && typeof code === 'string' && id) {
    // A snippet that is not there (or not readable) is the procedure's to refuse; its line ends decide nothing here.
    const stored = await callerFor(req)
      .snippets.get({ id: Number(id) })
      .catch(() => undefined);
    if (stored?.code.includes('\r\n')) submitted.code = withLf(code).replace(/\n/g, '\r\n');
  }
  if (method !== 'POST') return;
  // `filename` is the paste page's own field; the API ignores unknown fields, it is taken out all the same.
  delete submitted.filename;
  const name = typeof filename === 'string' ? filename.trim().slice(0, 100) : '';
  if (name && (title === undefined || title === '')) submitted.title = name;
  if (language !== '') return;
  const guessed =
    languageOfFileName(name) ??
    (typeof submitted.code === 'string' && submitted.code.trim()
      ? await req.app.locals.runtime.highlighter.detectLanguage(submitted.code)
      : null);
  submitted.language = guessed && isLanguage(guessed) ? guessed : UNKNOWN;
}
