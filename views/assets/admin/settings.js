// The site's settings, kept on the server in CONTENT_DIR/site.json (GET/PUT /api/site), above
// all the public address every share link the admin gives out is built from. Loaded once at
// start; every module that shows a link reads it from here.
import { api } from './api.js';

/** The last answer of /api/site: {name, subtitle, accent, publicUrl, publicUrlWarning}. */
let site = null;
const listeners = new Set();

/** Runs `fn` (with the settings) whenever they are saved. */
export function onSiteChanged(fn) {
  listeners.add(fn);
}

export function siteSettings() {
  return site;
}

export async function loadSiteSettings() {
  site = await api('GET', '/api/site');
  return site;
}

export async function saveSiteSettings(patch) {
  site = await api('PUT', '/api/site', patch);
  for (const fn of listeners) fn(site);
  return site;
}

/**
 * Where share links point: the stored public address; while none is stored, the gallery on
 * this computer (the page warns that such links open nowhere else).
 */
export function publicBaseUrl() {
  return (site?.publicUrl || document.body.dataset.publicBaseUrl || '').replace(/\/+$/, '');
}

export function shareLink(sharePath) {
  return sharePath ? `${publicBaseUrl()}${sharePath}` : '';
}
