import type { RequestHandler, Response } from 'express';

/** The names the admin answers to: a loopback address, never a DNS name that could be rebound. */
const LOCAL_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Guards answer JSON on every path (pages included): nothing of the admin is shown to a foreign page. */
function refuse(res: Response, message: string): void {
  res.status(403).json({ error: message });
}

/**
 * DNS rebinding: a page on evil.example can make its own name resolve to 127.0.0.1, but its
 * requests still carry `Host: evil.example`. Only loopback names are answered, with the port
 * the request actually arrived on, or none.
 */
export const localHostOnly: RequestHandler = (req, res, next) => {
  const match = LOCAL_HOST.exec(req.headers.host ?? '');
  if (!match || (match[2] !== undefined && Number(match[2]) !== req.socket.localPort)) {
    refuse(res, 'Forbidden: the admin server only answers requests addressed to localhost, 127.0.0.1 or [::1]');
    return;
  }
  next();
};

/** The origins of this server as a browser names them (no port for 80). */
function ownOrigins(port: number | undefined): Set<string> {
  const suffix = port === undefined || port === 80 ? '' : `:${port}`;
  return new Set(['localhost', '127.0.0.1', '[::1]'].map((h) => `http://${h}${suffix}`));
}

/**
 * Cross-site requests: a page the owner happens to visit can send a form or a fetch to
 * 127.0.0.1. Browsers name the page's origin in `Origin` on every state-changing request, so
 * one that is present and foreign (including "null") is refused. Tools such as curl send
 * none and are let through: they are the owner's own.
 */
export const sameOriginWrites: RequestHandler = (req, res, next) => {
  const origin = req.headers.origin;
  if (SAFE_METHODS.has(req.method) || origin === undefined) {
    next();
    return;
  }
  if (!ownOrigins(req.socket.localPort).has(origin.toLowerCase())) {
    refuse(res, 'Forbidden: cross-origin request refused; use the admin page itself');
    return;
  }
  next();
};

/**
 * A strict CSP (no inline script, nothing from another origin) and no framing: the admin page
 * can delete albums, so it must not be clickjacked.
 */
export const securityHeaders: RequestHandler = (req, res, next) => {
  res.set({
    'Content-Security-Policy': [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' blob: data:",
      "media-src 'self' blob:",
      "connect-src 'self'",
      "font-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
  });
  // API answers change with every write and hold passwords: never stored by the browser.
  if (req.path.startsWith('/api/') || req.path === '/api') res.set('Cache-Control', 'no-store');
  next();
};
