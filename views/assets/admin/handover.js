// Handing a link over (README "Sharing"): the address shown whole and copied at once, a
// message ready to send, the system's share sheet where there is one (a tablet, a phone), and
// a QR code another device can open it from with its camera. Used by the share dialog for a
// new link and to send an existing one again.
import { copyText, h } from './dom.js';
import { t, translatorOf } from '../strings.js';

/**
 * The message the owner sends: who it is for, what it opens, until when. It is read by the
 * person it is for, so it is written in the language of their link when it has one, else in
 * the admin's (the catalogues' `handover` part, every language on the page's data-handovers).
 */
export function handoverMessage({ who, albumTitle, address, expires, language = '' }) {
  const all = JSON.parse(document.body.dataset.handovers ?? '{}');
  const own = all[language] ?? all[document.documentElement.lang] ?? { strings: {} };
  const say = translatorOf(own);
  const greeting = say(who ? 'hello' : 'here', { who, title: albumTitle, address });
  const until = expires ? say('until', { date: new Intl.DateTimeFormat(own.locale, { dateStyle: 'long' }).format(new Date(expires)) }) : '';
  return `${greeting}${until}`;
}

/**
 * The hand-over of `address` to `who` ('' for anyone): returns the element, and copies the
 * address to the clipboard right away (the owner's click that made the link allows it; where
 * the browser refuses, the Copy button is there).
 */
export function handoverPanel({ address, who, albumTitle, expires, language = '' }) {
  const message = handoverMessage({ who, albumTitle, address, expires, language });
  const text = h('textarea', { rows: 3, readonly: true, value: message, 'aria-label': t('handover.message') });
  const canShare = typeof navigator.share === 'function';
  const share = () => {
    navigator.share({ title: albumTitle, text: message }).catch(() => {});
  };
  const panel = h(
    'div',
    { class: 'handover stack' },
    h(
      'p',
      { class: 'handover-link' },
      h('a', { href: address, target: '_blank', rel: 'noopener', 'aria-label': who ? t('handover.linkFor', { who }) : t('handover.link') }, address),
    ),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', class: 'primary', on: { click: () => copyText(address) } }, t('handover.copyLink')),
      h('button', { type: 'button', on: { click: () => copyText(message, text) } }, t('handover.copyMessage')),
      canShare ? h('button', { type: 'button', on: { click: share } }, t('handover.send')) : null,
    ),
    text,
    h(
      'figure',
      { class: 'handover-qr' },
      h('img', { src: `/api/qr?text=${encodeURIComponent(address)}`, alt: who ? t('handover.qrFor', { who }) : t('handover.qr'), width: 180, height: 180 }),
      h('figcaption', { class: 'explain', text: t('handover.qrHelp') }),
    ),
  );
  navigator.clipboard?.writeText(address).then(
    () => panel.prepend(h('p', { class: 'explain ok', role: 'status', text: t('handover.copied') })),
    () => {},
  );
  return panel;
}
