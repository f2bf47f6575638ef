/** content/: home.json and the images of the home page (hero, cards, landing). */
import path from 'node:path';
import { log, writeFileIn } from './output.js';
import type { SceneName } from './painter/presets.js';
import { renderPhoto } from './painter/render.js';

interface HomeCard {
  id: string;
  title: string;
  description: string;
  image: string;
  link: string;
}

export async function makeContent(contentDir: string): Promise<void> {
  const assets = path.join(contentDir, 'assets');
  const image = async (rel: string, scene: SceneName, w: number, h: number, quality: number) => {
    const { jpeg } = await renderPhoto(`content/${rel}`, scene, w, h, quality, 6);
    await writeFileIn(path.join(assets, path.dirname(rel)), path.basename(rel), jpeg);
    log(`content/assets/${rel}`, jpeg.length);
  };
  await image('hero/hero-alps.jpg', 'alpsDawn', 1920, 800, 74);
  await image('hero/hero-lisbon.jpg', 'lisbonBridge', 1920, 800, 74);
  await image('landing/landing.jpg', 'sunsetSea', 1920, 1080, 72);
  await image('cards/lisbon.jpg', 'lisbonRooftops', 800, 534, 80);
  await image('cards/alps.jpg', 'alpsDay', 800, 534, 80);
  await image('cards/best-of.jpg', 'cityNight', 800, 534, 80);

  const cards: HomeCard[] = [
    {
      id: 'lisbon',
      title: 'Lisbon in October',
      description: 'Terracotta roofs, the red bridge at sunset and a slow evening over the Tagus.',
      image: 'lisbon.jpg',
      link: '/photos/2024/travel/lisbon',
    },
    {
      id: 'alps',
      title: 'Alps, Summer Hike',
      description: 'Dawn on the ridges, glacier lakes and a blue-hour moonrise, in every aspect ratio.',
      image: 'alps.jpg',
      link: '/photos/2024/nature/alps',
    },
    {
      id: 'best-of',
      title: 'Best of 2022',
      description: 'A collection: the year\u2019s favourite sunsets and city lights, gathered in one place.',
      image: 'best-of.jpg',
      link: '/photos/2022/collections/best-of',
    },
  ];
  const home = {
    intro: {
      title: 'Welcome to the family album',
      body:
        'Photos and videos from our trips, hikes and get-togethers, sorted by year. ' +
        'Some albums are private: if someone sent you a password or a share link, it opens the album for you on this device.',
    },
    cards,
  };
  await writeFileIn(contentDir, 'home.json', `${JSON.stringify(home, null, 2)}\n`);
  log('content/home.json', Buffer.byteLength(JSON.stringify(home, null, 2)) + 1);
}
