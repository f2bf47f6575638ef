import fs from 'node:fs/promises';
import path from 'node:path';
import { Router } from 'express';
import { badRequest, missingParameter, notFound } from '../../core/errors.js';
import { heroImage } from '../../core/home-content.js';
import { isMissing } from '../../core/paths.js';
import type { AdminContext } from '../admin-context.js';
import { type HomeCard, HomeContentFile, checkCardPatch, checkIntroPatch, checkNewCard, newCardId } from '../home-content.js';
import { jsonObjectBody, queryParam } from '../request-body.js';
import { assetsDir } from './site-assets.js';

/** The file names in an asset folder; none when it does not exist yet. */
async function assetNames(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}

/**
 * GET/PUT /api/home/intro, GET/POST/PUT/DELETE /api/home/cards and GET/PUT /api/home/hero:
 * the home page of CONTENT_DIR/home.json.
 */
export function homeContentRoutes(ctx: AdminContext): Router {
  const router = Router();
  const home = new HomeContentFile(ctx.config.contentDir, ctx.queue);
  const heroDir = assetsDir(ctx.config.contentDir, 'hero');
  const cardsDir = assetsDir(ctx.config.contentDir, 'cards');

  /** A card's image must be one of the card images: a name that is not there would show nothing. */
  const checkCardImage = async (image: string | undefined): Promise<void> => {
    if (image === undefined || image.trim() === '') return;
    if (!(await assetNames(cardsDir)).includes(image.trim())) {
      throw badRequest(`Invalid card: image "${image.trim()}" is not one of the card images (upload it under Site images first)`);
    }
  };

  /** The choice stored in home.json and the image the home page shows for it. */
  const heroState = async () => {
    const chosen = (await home.read()).hero;
    const image = typeof chosen === 'string' && chosen !== '' ? chosen : null;
    return { image, shown: heroImage(await assetNames(heroDir), image ?? undefined) ?? null };
  };

  const cardId = (raw: string | undefined): string => {
    if (raw === undefined) throw missingParameter('id');
    return raw;
  };
  const cardNotFound = (id: string) => notFound(`Card not found: ${id}`);

  router.get('/api/home/intro', async (_req, res) => {
    const { intro } = await home.read();
    res.json({ title: intro.title, body: intro.body });
  });

  router.put('/api/home/intro', async (req, res) => {
    const patch = checkIntroPatch(jsonObjectBody(req));
    const { intro } = await home.change((c) => ({ ...c, intro: { ...c.intro, ...patch } }));
    res.json({ title: intro.title, body: intro.body });
  });

  router.get('/api/home/cards', async (_req, res) => {
    res.json((await home.read()).cards);
  });

  router.post('/api/home/cards', async (req, res) => {
    const card: HomeCard = { id: newCardId(), ...checkNewCard(jsonObjectBody(req)) };
    await checkCardImage(card.image);
    await home.change((c) => ({ ...c, cards: [...c.cards, card] }));
    res.status(201).json(card);
  });

  router.put('/api/home/cards', async (req, res) => {
    const id = cardId(queryParam(req, 'id'));
    const { fields, position } = checkCardPatch(jsonObjectBody(req));
    await checkCardImage(fields.image);
    let updated: HomeCard | undefined;
    await home.change((c) => {
      const at = c.cards.findIndex((card) => card.id === id);
      const current = c.cards[at];
      if (current === undefined) throw cardNotFound(id);
      const changed: HomeCard = { ...current, ...fields, id };
      const cards = c.cards.filter((_, i) => i !== at);
      cards.splice(Math.min(position ?? at, cards.length), 0, changed);
      updated = changed;
      return { ...c, cards };
    });
    res.json(updated);
  });

  router.delete('/api/home/cards', async (req, res) => {
    const id = cardId(queryParam(req, 'id'));
    await home.change((c) => {
      if (!c.cards.some((card) => card.id === id)) throw cardNotFound(id);
      return { ...c, cards: c.cards.filter((card) => card.id !== id) };
    });
    res.json({ deleted: id });
  });

  router.get('/api/home/hero', async (_req, res) => {
    res.json(await heroState());
  });

  // `{"image": "name.jpg"}` picks one of the hero images; null (or "") goes back to the first.
  router.put('/api/home/hero', async (req, res) => {
    const body = jsonObjectBody(req);
    const unknown = Object.keys(body).filter((key) => key !== 'image');
    if (unknown.length > 0) throw badRequest(`Invalid hero: unknown field "${unknown[0]}"`);
    if (!Object.hasOwn(body, 'image')) throw badRequest('Invalid hero: the body must give "image" (a hero image\'s file name, or null)');
    const { image } = body;
    if (image !== null && typeof image !== 'string') throw badRequest('Invalid hero: image must be a file name or null');
    if (image) {
      if (path.basename(image) !== image || heroImage([image], undefined) !== image || !(await assetNames(heroDir)).includes(image)) {
        throw badRequest(`Invalid hero: "${image}" is not one of the hero images`);
      }
    }
    await home.change((c) => {
      const { hero: _previous, ...rest } = c;
      return image ? { ...rest, hero: image } : rest;
    });
    res.json(await heroState());
  });

  return router;
}
