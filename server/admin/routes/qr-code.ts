import { Router } from 'express';
import QRCode from 'qrcode';
import { badRequest } from '../../core/errors.js';
import { queryParam } from '../request-body.js';

/** A share link's address, with room to spare; a QR code of more is too dense to scan from a screen. */
const MAX_TEXT = 1000;

/**
 * GET /api/qr?text=<address>: the QR code of a link to hand over (the share dialog shows it so
 * a tablet or phone can open the link with its camera), as SVG. Made by the admin, never by
 * a third-party service: the address is a secret.
 */
export function qrCodeRoutes(): Router {
  const router = Router();
  router.get('/api/qr', async (req, res) => {
    const text = queryParam(req, 'text');
    if (text === undefined || text === '') throw badRequest('Missing required parameter: text');
    if (text.length > MAX_TEXT) throw badRequest(`Invalid parameter: text must be at most ${MAX_TEXT} characters`);
    // Medium error correction: still read from a glossy screen at an angle, and fewer modules than high.
    const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    res.type('image/svg+xml').set('Cache-Control', 'no-store').send(svg);
  });
  return router;
}
