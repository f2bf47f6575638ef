// A share link's token has been added to the cookie by the server: take it out of the
// address bar so it is not bookmarked, shared on or leaked through the history.
const url = new URL(window.location.href);
if (url.searchParams.has('token')) {
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}
