// Page behaviour: searchable selects (by name or alias, the exact match first), Ctrl/⌘+Enter to save, PUT/DELETE
// forms sent with fetch (HTML forms only GET/POST), the snippet page's Copy buttons (code, embed code) and the light/dark
// toggle. A
// refused form's messages are drawn by the server, for the create form and the edit form alike: the page of a 400
// carries the form again with the messages under its fields, and it takes the sent form's place.
'use strict';

document.addEventListener('DOMContentLoaded', function () {
  function filterable(filter) {
    var select = document.getElementById(filter.getAttribute('data-for'));
    if (!select) return;
    // 3: the value, the name or an alias is the needle; 2: one starts with it; 1: one holds it; 0: none does.
    function rank(option, needle) {
      if (!option.value) return 0;
      var words = [option.value.toLowerCase(), option.text.toLowerCase()].concat(
        (option.getAttribute('data-aliases') || '').toLowerCase().split(' '),
      );
      var best = 0;
      words.forEach(function (word) {
        if (!word) return;
        if (word === needle) best = 3;
        else if (word.indexOf(needle) === 0) best = Math.max(best, 2);
        else if (word.indexOf(needle) !== -1) best = Math.max(best, 1);
      });
      return best;
    }
    filter.addEventListener('input', function () {
      var needle = filter.value.trim().toLowerCase();
      var best = null;
      var bestRank = 0;
      Array.prototype.forEach.call(select.options, function (option) {
        var r = needle ? rank(option, needle) : 1;
        option.hidden = needle !== '' && r === 0 && option.value !== '';
        if (needle && r > bestRank) {
          best = option;
          bestRank = r;
        }
      });
      if (best) select.value = best.value;
    });
  }

  // As Django's pages do: the csrftoken cookie, current even after a login in another tab; else the form's copy.
  function csrfToken(data) {
    var match = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    return match ? decodeURIComponent(match[1]) : data.get('csrfmiddlewaretoken') || '';
  }

  function sentWithFetch(form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var method = form.getAttribute('data-method');
      var question = form.getAttribute('data-confirm');
      if (question && !window.confirm(question)) return;
      var data = new URLSearchParams(new FormData(form));
      var token = csrfToken(data);
      data.delete('csrfmiddlewaretoken');
      var errors = form.querySelector('.form-errors');
      errors.hidden = true;
      fetch(form.getAttribute('action'), {
        method: method,
        credentials: 'same-origin',
        headers: { 'X-CSRFToken': token, Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: method === 'DELETE' ? undefined : data,
      }).then(function (response) {
        if (response.ok) {
          var next = form.getAttribute('data-next');
          if (next) window.location.assign(next);
          else if (method === 'DELETE')
            window.location.assign(document.querySelector('.breadcrumbs a:nth-of-type(2)').getAttribute('href'));
          else window.location.reload();
          return;
        }
        return response.text().then(function (text) {
          var page = new DOMParser().parseFromString(text, 'text/html');
          var redrawn = response.status === 400 && form.id ? page.getElementById(form.id) : null;
          if (redrawn) {
            var replacement = document.importNode(redrawn, true);
            // The page's own destination after a save stays the form's (the 400's page is the API's).
            if (form.getAttribute('data-next')) replacement.setAttribute('data-next', form.getAttribute('data-next'));
            form.replaceWith(replacement);
            enhance(replacement);
            return;
          }
          var shown = page.querySelector('#response .json');
          errors.textContent = 'HTTP ' + response.status + '\n' + (shown ? shown.textContent : text);
          errors.hidden = false;
        });
      });
    });
  }

  function savedWithKeys(textarea) {
    textarea.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && textarea.form) {
        event.preventDefault();
        textarea.form.requestSubmit();
      }
    });
  }

  function enhance(root) {
    root.querySelectorAll('.choice-filter').forEach(filterable);
    root.querySelectorAll('form.api-form textarea').forEach(savedWithKeys);
    var forms = root.matches && root.matches('form.api-form') ? [root] : root.querySelectorAll('form.api-form');
    Array.prototype.forEach.call(forms, function (form) {
      var method = form.getAttribute('data-method');
      if (method === 'PUT' || method === 'DELETE') sentWithFetch(form);
    });
  }

  // Copy: the code exactly as stored (the raw view), not the page's text with its line numbers.
  var copy = document.getElementById('copy');
  if (copy && window.navigator.clipboard) {
    var status = document.getElementById('copy-status');
    copy.hidden = false;
    copy.addEventListener('click', function () {
      fetch(copy.getAttribute('data-source'), { credentials: 'same-origin' })
        .then(function (response) {
          if (!response.ok) throw new Error('HTTP ' + response.status);
          return response.text();
        })
        .then(function (text) {
          return window.navigator.clipboard.writeText(text);
        })
        .then(
          function () {
            status.textContent = 'Copied';
          },
          function () {
            status.textContent = 'Could not copy';
          },
        );
    });
  }

  // Copy embed code: the <iframe> element the Embed box shows, for another site's page.
  var copyEmbed = document.getElementById('copy-embed');
  if (copyEmbed && window.navigator.clipboard) {
    var embedStatus = document.getElementById('embed-status');
    copyEmbed.hidden = false;
    copyEmbed.addEventListener('click', function () {
      window.navigator.clipboard.writeText(document.getElementById('embed-code').value).then(
        function () {
          embedStatus.textContent = 'Copied';
        },
        function () {
          embedStatus.textContent = 'Could not copy';
        },
      );
    });
  }

  // The light/dark toggle: the choice is kept (static/theme.js applies it on the next page before it paints).
  var toggle = document.getElementById('theme-toggle');
  if (toggle) {
    var root = document.documentElement;
    var dark = function () {
      var chosen = root.getAttribute('data-theme');
      return chosen ? chosen === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
    };
    var label = function () {
      toggle.textContent = dark() ? 'Light mode' : 'Dark mode';
    };
    toggle.hidden = false;
    label();
    toggle.addEventListener('click', function () {
      var theme = dark() ? 'light' : 'dark';
      root.setAttribute('data-theme', theme);
      try {
        window.localStorage.setItem('theme', theme);
      } catch {
        // a private window: the choice lasts for this page only
      }
      label();
    });
  }

  enhance(document);
});
