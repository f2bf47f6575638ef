import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { LinkUsageStore } from '../../core/access/link-usage.js';

/** Page views of one browser through one link closer together than this are one visit. */
export const VISIT_GAP_MS = 30 * 60 * 1000;
/** Browsers remembered at most (about 150 bytes each); past it the one seen least recently is forgotten. */
const MAX_BROWSERS = 10_000;

export interface LinkVisits {
  /** A page view opened through link `id` (docs/api.md#share-links). */
  record(req: Request, id: string): void;
}

/**
 * Counts visits, not page views: a relative paging through an album or opening its child
 * albums makes one visit, as analytics count a session (views closer than 30 minutes). A
 * browser is told apart by its address and User-Agent, held in memory only: after a restart,
 * or in another process, the next view starts a new visit. Every view moves the link's
 * last use.
 */
export function createLinkVisits(store: LinkUsageStore, now: () => number = Date.now): LinkVisits {
  const lastSeen = new Map<string, number>();
  return {
    record(req, id) {
      const at = now();
      const key = `${id}\0${ipKeyGenerator(req.ip ?? '')}\0${req.get('user-agent') ?? ''}`;
      const previous = lastSeen.get(key);
      // Seen again: to the end of the order, the last to be forgotten.
      lastSeen.delete(key);
      lastSeen.set(key, at);
      for (const oldest of lastSeen.keys()) {
        if (lastSeen.size <= MAX_BROWSERS) break;
        lastSeen.delete(oldest);
      }
      store.recordVisit(id, { at, newVisit: previous === undefined || at - previous >= VISIT_GAP_MS });
    },
  };
}
