import path from 'node:path';
import { ROOT_DIR } from './root-dir.js';

/**
 * The map's third-party code and data, served from the gallery itself (no request leaves it):
 * Leaflet, topojson-client (TopoJSON to GeoJSON, in the browser) and the Natural Earth
 * countries of world-atlas. The public app mounts them and versions their URLs as its own assets; the admin's
 * Places tab mounts them too (server/admin/routes/places.ts).
 */
export const MAP_VENDOR_DIRS: Readonly<Record<string, string>> = Object.freeze({
  '/vendor/leaflet/': path.join(ROOT_DIR, 'node_modules', 'leaflet', 'dist'),
  '/vendor/topojson-client/': path.join(ROOT_DIR, 'node_modules', 'topojson-client', 'src'),
  '/vendor/world-atlas/': path.join(ROOT_DIR, 'node_modules', 'world-atlas'),
});
