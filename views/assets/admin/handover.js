// Handing a link over (README "Sharing"): the address shown whole and copied at once, a
// message ready to send, the system's share sheet where there is one (a tablet, a phone), and
// a QR code another device can open it from with its camera. Used by the share dialog for a
// new link and to send an existing one again.
import { copyText, h } from './dom.js';

const untilFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' });

/** The message the owner sends: who it is for, what it opens, until when. */
export function handoverMessage({ who, albumTitle, address, expires }) {
  const greeting = who ? `Hello ${who}, here` : 'Here';
  const until = expires ? ` The link works until ${untilFormat.format(new Date(expires))}.` : '';
  return `${greeting} are the photos of “${albumTitle}”: ${address}${until}`;
}

/**
 * The hand-over of `address` to `who` ('' for anyone): returns the element, and copies the
 * address to the clipboard right away (the owner's click that made the link allows it; where
 * the browser refuses, the Copy button is there).
 */
export function handoverPanel({ address, who, albumTitle, expires }) {
  const message = handoverMessage({ who, albumTitle, address, expires });
  const text = h('textarea', { rows: 3, readonly: true, value: message, 'aria-label': 'Message to send' });
  const canShare = typeof navigator.share === 'function';
  const share = () => {
    navigator.share({ title: albumTitle, text: message }).catch(() => {});
  };
  const panel = h(
    'div',
    { class: 'handover stack' },
    h('p', { class: 'handover-link' }, h('a', { href: address, target: '_blank', rel: 'noopener', 'aria-label': who ? `Link for ${who}` : 'Link' }, address)),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'primary', on: { click: () => copyText(address) } }, 'Copy link'),
      h('button', { type: 'button', on: { click: () => copyText(message, text) } }, 'Copy message'),
      canShare ? h('button', { type: 'button', on: { click: share } }, 'Send…') : null,
    ),
    text,
    h(
      'figure',
      { class: 'handover-qr' },
      h('img', { src: `/api/qr?text=${encodeURIComponent(address)}`, alt: `QR code of the link${who ? ` for ${who}` : ''}`, width: 180, height: 180 }),
      h('figcaption', { class: 'explain', text: 'On a tablet or phone: point its camera here to open the link.' }),
    ),
  );
  navigator.clipboard?.writeText(address).then(
    () => panel.prepend(h('p', { class: 'explain ok', role: 'status', text: 'Link copied: paste it into a message or an email.' })),
    () => {},
  );
  return panel;
}
