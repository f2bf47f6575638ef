// The Places tab: where the owner's photos were taken, exactly, in every album (locked ones,
// hidden ones and those that hide locations included), from the admin's own /api/map
// (server/admin/routes/places.ts). Drawn like the public map (views/assets/map.js), on the
// bundled countries only: a tile server would learn exactly where the photos were taken.
import { t } from '../strings.js';

/** @typedef {{ lat: number, lon: number, count: number, zoom?: number }} Mark */

/** The map, made on the tab's first showing (Leaflet needs a visible, sized element). */
let shown;

function say(text) {
  const status = /** @type {HTMLElement} */ (document.getElementById('places-status'));
  status.textContent = text;
  status.hidden = text === '';
}

async function loadParts(root) {
  const data = root.dataset;
  const [L, topojson, topology] = await Promise.all([
    /** @type {Promise<typeof import('leaflet')>} */ (import(data.leaflet)),
    import(data.topojson),
    fetch(data.world).then((res) => {
      if (!res.ok) throw new Error(String(res.status));
      return res.json();
    }),
  ]);
  return { L, world: topojson.default(topology, topology.objects.countries) };
}

/** A spot (one exact place) or a cluster, sized by how many photos it holds. */
function markIcon(L, mark) {
  const size = mark.count < 10 ? 30 : mark.count < 100 ? 38 : mark.count < 1000 ? 46 : 54;
  const span = document.createElement('span');
  span.textContent = String(mark.count);
  return L.divIcon({ className: `places-mark${mark.zoom === undefined ? ' places-mark--spot' : ''}`, html: span, iconSize: [size, size] });
}

/** What a mark says: a cluster's count, a spot's count and its exact position (which the owner may copy). */
function markTitle(mark) {
  if (mark.zoom !== undefined) return t('places.cluster', { count: mark.count });
  return t('places.spot', { count: mark.count, position: `${mark.lat.toFixed(5)}, ${mark.lon.toFixed(5)}` });
}

/**
 * A spot's popup: its exact position, then its photos (album and file name, a preview each),
 * filled in when they arrive from /api/map/photos.
 */
function spotPopup(mark, title) {
  const box = document.createElement('div');
  box.className = 'places-spot';
  const heading = document.createElement('p');
  heading.textContent = title;
  const list = document.createElement('ul');
  const more = document.createElement('p');
  more.hidden = true;
  box.append(heading, list, more);
  fetch(`/api/map/photos?lat=${mark.lat}&lon=${mark.lon}`, { headers: { Accept: 'application/json' } })
    .then((res) => {
      if (!res.ok) throw new Error(`${res.status}`);
      return res.json();
    })
    .then((spot) => {
      for (const photo of spot.photos) {
        const item = document.createElement('li');
        const image = document.createElement('img');
        image.src = photo.preview;
        image.alt = '';
        image.loading = 'lazy';
        image.width = 48;
        image.height = 48;
        const name = document.createElement('span');
        name.textContent = `${photo.albumTitle} / ${photo.name}`;
        item.append(image, name);
        list.append(item);
      }
      more.textContent = t('places.firstListed', { count: spot.photos.length });
      more.hidden = spot.total <= spot.photos.length;
    })
    .catch(() => {
      more.textContent = t('places.failed');
      more.hidden = false;
    });
  return box;
}

async function start(root) {
  const { L, world } = await loadParts(root);
  const answer = async (query) => {
    const res = await fetch(`/api/map?${query}`, { headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(`${res.status}`);
    return /** @type {Promise<{ total: number, maxZoom: number, marks: Mark[] }>} */ (res.json());
  };
  const first = await answer('zoom=0');
  const map = L.map(root, { minZoom: 1, maxZoom: first.maxZoom, worldCopyJump: true });
  map.attributionControl.setPrefix(false);
  L.geoJSON(world, { interactive: false, style: () => ({ className: 'places-country' }) }).addTo(map);
  map.attributionControl.addAttribution(root.dataset.worldCredit ?? '');
  if (first.marks.length > 0) {
    // A cluster's centre is not where its photos are: zoomed no further than where the first cluster splits, they stay in view.
    const splits = first.marks.flatMap((m) => (m.zoom === undefined ? [] : [m.zoom]));
    const bounds = L.latLngBounds(first.marks.map((m) => L.latLng(m.lat, m.lon))).pad(0.2);
    map.fitBounds(bounds, { maxZoom: Math.min(10, ...splits), animate: false });
  } else map.setView([30, 0], 2);
  const marks = L.layerGroup().addTo(map);
  let pending = 0;

  async function showMarks() {
    const asked = ++pending;
    const bounds = map.getBounds();
    const bbox = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()].map((v) => v.toFixed(4)).join(',');
    try {
      const view = await answer(`bbox=${bbox}&zoom=${map.getZoom()}`);
      // A newer view's answer wins over an older one arriving late.
      if (asked !== pending) return;
      marks.clearLayers();
      for (const mark of view.marks) {
        const title = markTitle(mark);
        const marker = L.marker([mark.lat, mark.lon], { icon: markIcon(L, mark), title, alt: title, keyboard: true });
        if (mark.zoom !== undefined) marker.on('click', () => map.setView([mark.lat, mark.lon], Math.max(mark.zoom ?? 0, map.getZoom() + 1)));
        else marker.bindPopup(() => spotPopup(mark, title), { maxWidth: 320 });
        marks.addLayer(marker);
      }
      say(view.total === 0 ? t('places.empty') : '');
      root.dataset.total = String(view.total);
    } catch {
      say(t('places.failed'));
    }
  }

  map.on('moveend', showMarks);
  await showMarks();
  root.dataset.ready = 'true';
  return map;
}

/** Shows the tab: the map made once, then brought up to date (photos read since, the tab's size). */
export async function renderPlaces() {
  const root = /** @type {HTMLElement} */ (document.getElementById('places-map'));
  try {
    if (!shown) shown = start(root);
    const map = await shown;
    map.invalidateSize();
    map.fire('moveend');
  } catch {
    shown = undefined;
    say(t('places.failed'));
  }
}
