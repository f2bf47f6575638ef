// The map page (README "The map"): the world drawn from the Natural Earth countries the
// gallery serves itself (or the owner's tile server, when site.json names one), and marks for
// the photos this visitor may open, clustered by the server for the zoom (/api/map). The
// server has rounded every position already; this script only draws what it is given.
// Clicking a cluster zooms in; clicking a spot lists its photos, or opens the one it holds.

import { locale, t } from './strings.js';

/** @typedef {{ lat: number, lon: number, count: number, zoom?: number }} Mark */
/** @typedef {{ path: string, album: string, albumTitle: string, name: string, kind: string, url: string, thumbnail: string }} SpotPhoto */

const root = /** @type {HTMLElement} */ (document.getElementById('map'));
const status = /** @type {HTMLElement} */ (document.querySelector('[data-map-status]'));
const spotPanel = /** @type {HTMLElement} */ (document.querySelector('[data-map-spot]'));
const numbers = new Intl.NumberFormat(locale(), { notation: 'compact' });

/** Shows a line over the map, or takes it away (`text` empty). */
function say(text) {
  status.textContent = text;
  status.hidden = text === '';
}

/** Loads Leaflet and, without a tile server, the world's countries as GeoJSON. */
async function loadParts() {
  const data = root.dataset;
  const leaflet = /** @type {Promise<typeof import('leaflet')>} */ (import(data.leaflet));
  if (data.tiles) return { L: await leaflet, world: undefined };
  const [L, topojson, topology] = await Promise.all([
    leaflet,
    import(data.topojson),
    fetch(data.world).then((res) => {
      if (!res.ok) throw new Error(String(res.status));
      return res.json();
    }),
  ]);
  return { L, world: topojson.default(topology, topology.objects.countries) };
}

/** The mark's look: a spot (one place) or a cluster, sized by how many photos it holds. */
function markIcon(L, mark) {
  const size = mark.count < 10 ? 30 : mark.count < 100 ? 38 : mark.count < 1000 ? 46 : 54;
  const span = document.createElement('span');
  span.textContent = numbers.format(mark.count);
  return L.divIcon({
    className: `map-mark${mark.zoom === undefined ? ' map-mark--spot' : ''}`,
    html: span,
    iconSize: [size, size],
  });
}

async function start() {
  const { L, world } = await loadParts();
  const maxZoom = Number(root.dataset.maxZoom);
  const map = L.map(root, { minZoom: 1, maxZoom, worldCopyJump: true, zoomControl: true });
  map.attributionControl.setPrefix(false);
  if (root.dataset.tiles) {
    L.tileLayer(root.dataset.tiles, { maxZoom, attribution: root.dataset.attribution || undefined }).addTo(map);
  } else {
    // Styled by map.css (`.map-country`), so it follows the page's theme.
    L.geoJSON(world, { interactive: false, style: () => ({ className: 'map-country' }) }).addTo(map);
    map.attributionControl.addAttribution(root.dataset.worldCredit);
  }
  const marks = L.layerGroup().addTo(map);
  /** The request for the marks of the last view; an older one is dropped when the view moves on. */
  let pending;

  async function showMarks() {
    pending?.abort();
    const request = new AbortController();
    pending = request;
    const bounds = map.getBounds();
    const bbox = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()].map((v) => v.toFixed(4)).join(',');
    try {
      const res = await fetch(`/api/map?bbox=${bbox}&zoom=${map.getZoom()}`, { signal: request.signal, headers: { Accept: 'application/json' } });
      if (!res.ok) throw new Error(`${res.status}`);
      /** @type {{ total: number, marks: Mark[] }} */
      const answer = await res.json();
      marks.clearLayers();
      for (const mark of answer.marks) {
        const title = t(mark.zoom === undefined ? 'map.spotTitle' : 'map.clusterTitle', { count: mark.count });
        const marker = L.marker([mark.lat, mark.lon], { icon: markIcon(L, mark), title, alt: title, keyboard: true, riseOnHover: true });
        marker.on('click', () => (mark.zoom === undefined ? openSpot(mark) : map.setView([mark.lat, mark.lon], Math.max(mark.zoom, map.getZoom() + 1))));
        marks.addLayer(marker);
      }
      say(answer.total === 0 ? t('map.empty') : '');
      // What the view shows, for whoever looks at the page from outside (the browser tests).
      root.dataset.zoom = String(map.getZoom());
      root.dataset.total = String(answer.total);
    } catch (err) {
      if (/** @type {Error} */ (err).name !== 'AbortError') say(t('map.failed'));
    }
  }

  /** The first view: where the visitor's photos are (the whole world's marks, fitted), else the world. */
  async function firstView() {
    try {
      const res = await fetch('/api/map?zoom=0', { headers: { Accept: 'application/json' } });
      /** @type {{ marks: Mark[] }} */
      const answer = res.ok ? await res.json() : { marks: [] };
      if (answer.marks.length > 0) {
        const bounds = L.latLngBounds(answer.marks.map((m) => L.latLng(m.lat, m.lon)));
        // A cluster's centre is not where its photos are (one of Lisbon and Paris lies in the
        // Bay of Biscay): zoomed no further than where the first cluster splits, they stay in view.
        const splits = answer.marks.flatMap((m) => (m.zoom === undefined ? [] : [m.zoom]));
        map.fitBounds(bounds.pad(0.2), { maxZoom: Math.min(maxZoom, 10, ...splits), animate: false });
        return;
      }
    } catch {
      // The marks' own request says what went wrong.
    }
    map.setView([30, 0], 2);
  }

  /** Lists the photos of one spot, or opens the one photo it holds. */
  async function openSpot(mark) {
    const res = await fetch(`/api/map/photos?lat=${mark.lat}&lon=${mark.lon}`, { headers: { Accept: 'application/json' } });
    if (!res.ok) {
      say(t('map.failed'));
      return;
    }
    /** @type {{ total: number, photos: SpotPhoto[] }} */
    const spot = await res.json();
    if (spot.total === 1 && spot.photos[0]) {
      window.location.assign(spot.photos[0].url);
      return;
    }
    const list = /** @type {HTMLElement} */ (spotPanel.querySelector('[data-map-spot-photos]'));
    const more = /** @type {HTMLElement} */ (spotPanel.querySelector('[data-map-spot-more]'));
    /** @type {HTMLElement} */ (spotPanel.querySelector('[data-map-spot-title]')).textContent = t('map.spotTitle', { count: spot.total });
    list.replaceChildren(
      ...spot.photos.map((photo) => {
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.href = photo.url;
        const image = document.createElement('img');
        image.src = photo.thumbnail;
        // The file and its album, as a search result names them.
        image.alt = `${photo.name} — ${photo.albumTitle}`;
        image.loading = 'lazy';
        image.decoding = 'async';
        link.append(image);
        item.append(link);
        return item;
      }),
    );
    more.hidden = spot.total <= spot.photos.length;
    more.textContent = t('map.newestShown', { count: spot.photos.length });
    spotPanel.hidden = false;
    /** @type {HTMLElement | null} */ (list.querySelector('a'))?.focus();
  }

  spotPanel.querySelector('[data-map-spot-close]')?.addEventListener('click', () => {
    spotPanel.hidden = true;
    root.focus();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !spotPanel.hidden) spotPanel.hidden = true;
  });
  await firstView();
  await showMarks();
  map.on('moveend', showMarks);
  root.dataset.ready = 'true';
}

start().catch(() => say(t('map.failed')));
