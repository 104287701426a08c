// An Express app with only the OpenAPI router mounted, and lookups into the document it serves.
import express, { type Express } from 'express';
import type { OpenAPIObject, OperationObject, ReferenceObject, ResponseObject } from 'openapi3-ts/oas31';
import supertest from 'supertest';
import { openapiRouter } from '../../server/openapi/routes';
import type { SecurityOptions } from '../../server/openapi/security';

export function openapiApp(options?: SecurityOptions): Express {
  const app = express();
  app.use(openapiRouter(options));
  return app;
}

export async function fetchDocument(options?: SecurityOptions): Promise<OpenAPIObject> {
  return (await supertest(openapiApp(options)).get('/openapi.json').expect(200)).body as OpenAPIObject;
}

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export function operation(doc: OpenAPIObject, path: string, method: HttpMethod): OperationObject {
  const op = doc.paths?.[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
  return op;
}

/** The documented status codes of an operation. */
export const statuses = (op: OperationObject): string[] => Object.keys(op.responses ?? {});

/** A response, following a `#/components/responses/…` reference. */
export function response(doc: OpenAPIObject, op: OperationObject, status: number): ResponseObject {
  const r = op.responses?.[status] as ResponseObject | ReferenceObject | undefined;
  if (!r) throw new Error(`no ${status} response`);
  if (!('$ref' in r)) return r;
  const name = r.$ref.replace('#/components/responses/', '');
  const resolved = doc.components?.responses?.[name];
  if (!resolved || '$ref' in resolved) throw new Error(`unresolved ${r.$ref}`);
  return resolved;
}
