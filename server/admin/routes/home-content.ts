import { Router } from 'express';
import { missingParameter, notFound } from '../../core/errors.js';
import type { AdminContext } from '../admin-context.js';
import { type HomeCard, HomeContentFile, checkCardPatch, checkIntroPatch, checkNewCard, newCardId } from '../home-content.js';
import { jsonObjectBody, queryParam } from '../request-body.js';

/** GET/PUT /api/home/intro and GET/POST/PUT/DELETE /api/home/cards: the home page of CONTENT_DIR/home.json. */
export function homeContentRoutes(ctx: AdminContext): Router {
  const router = Router();
  const home = new HomeContentFile(ctx.config.contentDir, ctx.queue);

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
    await home.change((c) => ({ ...c, cards: [...c.cards, card] }));
    res.status(201).json(card);
  });

  router.put('/api/home/cards', async (req, res) => {
    const id = cardId(queryParam(req, 'id'));
    const { fields, position } = checkCardPatch(jsonObjectBody(req));
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

  return router;
}
