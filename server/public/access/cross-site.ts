import type { Request } from 'express';

/** The host ("name" or "name:port", default port dropped) that `host` names under `protocol`, or undefined. */
function hostUnder(protocol: string, host: string): string | undefined {
  try {
    return new URL(`${protocol}//${host}`).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Whether a browser sent this request from another site's page. A modern browser says so in
 * `Sec-Fetch-Site`, which a page cannot forge; it is trusted when present, so a same-site
 * page (another subdomain) still works. Older browsers only send `Origin`: then an opaque
 * origin ("null": a sandboxed frame, a redirect from elsewhere) or one whose host is not this
 * site's is cross-site. The host is compared, not the scheme: behind a TLS proxy without
 * TRUST_PROXY this server sees http while the browser names https. With TRUST_PROXY the
 * proxy's `X-Forwarded-Host` names the site too (`req.host`). A request with neither header
 * (curl, a script) is not a browser's cross-site request.
 */
export function isCrossSite(req: Request): boolean {
  const fetchSite = req.get('sec-fetch-site');
  if (fetchSite !== undefined) return fetchSite.toLowerCase() === 'cross-site';
  const origin = req.get('origin');
  if (origin === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return true;
  }
  if (url.origin === 'null') return true;
  const ownHosts = [req.host, req.get('host')].filter((h): h is string => h !== undefined).map((h) => hostUnder(url.protocol, h));
  return !ownHosts.includes(url.host.toLowerCase());
}
