// The light/dark choice a person made with the toggle, applied before the page paints (no flash); without one the
// page follows the system's prefers-color-scheme (api.css). Loaded in the head, not deferred, for that reason.
'use strict';
(function () {
  var chosen = null;
  try {
    chosen = window.localStorage.getItem('theme');
  } catch {
    chosen = null;
  }
  if (chosen === 'dark' || chosen === 'light') document.documentElement.setAttribute('data-theme', chosen);
})();
