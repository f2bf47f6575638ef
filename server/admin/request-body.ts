import type { Request } from 'express';
import { badRequest } from '../core/errors.js';

/** The parsed JSON body when it is an object; a clear 400 otherwise (wrong type, array, no body). */
export function jsonObjectBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (!req.is('application/json')) throw badRequest('Expected a JSON body (Content-Type: application/json)');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Expected a JSON object body');
  return body as Record<string, unknown>;
}

/** A single-valued query parameter, undefined when absent or empty. */
export function queryParam(req: Request, name: string): string | undefined {
  const value: unknown = req.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest(`Invalid parameter: ${name} must be a single string`);
  return value;
}
