import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';

/**
 * Who a request counts against, wherever the gallery counts clients (the password lockout,
 * album downloads): its address as `trust proxy` (TRUST_PROXY) makes `req.ip`, an IPv6 one
 * grouped by its /56 subnet, as express-rate-limit's own key does (one home gets a whole
 * subnet, and would otherwise count as thousands of clients).
 */
export function clientAddressKey(req: Request): string {
  return ipKeyGenerator(req.ip ?? 'unknown');
}
