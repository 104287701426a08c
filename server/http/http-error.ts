// An error that already knows its HTTP answer: status and a JSON body (`detail` or a field map).
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
  }

  static detail(status: number, detail: string, headers?: Record<string, string>): HttpError {
    return new HttpError(status, { detail }, headers);
  }
}
