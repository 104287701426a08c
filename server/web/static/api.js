// Browsable API behaviour: searchable selects, and PUT/DELETE forms sent with fetch (HTML forms only GET/POST). A
// refused form's messages are drawn by the server, for the create form and the edit form alike: the page of a 400
// carries the form again with the messages under its fields, and it takes the sent form's place.
'use strict';

document.addEventListener('DOMContentLoaded', function () {
  function filterable(filter) {
    var select = document.getElementById(filter.getAttribute('data-for'));
    if (!select) return;
    filter.addEventListener('input', function () {
      var needle = filter.value.trim().toLowerCase();
      Array.prototype.forEach.call(select.options, function (option) {
        var match =
          !needle ||
          option.value.toLowerCase().indexOf(needle) !== -1 ||
          option.text.toLowerCase().indexOf(needle) !== -1;
        option.hidden = !match;
      });
      var current = select.options[select.selectedIndex];
      if (current && current.hidden) {
        var first = Array.prototype.find.call(select.options, function (o) {
          return !o.hidden;
        });
        if (first) select.value = first.value;
      }
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
          if (method === 'DELETE')
            window.location.assign(
              form.getAttribute('data-next') ||
                document.querySelector('.breadcrumbs a:nth-of-type(2)').getAttribute('href'),
            );
          else window.location.reload();
          return;
        }
        return response.text().then(function (text) {
          var page = new DOMParser().parseFromString(text, 'text/html');
          var redrawn = response.status === 400 && form.id ? page.getElementById(form.id) : null;
          if (redrawn) {
            var replacement = document.importNode(redrawn, true);
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

  function enhance(root) {
    root.querySelectorAll('.choice-filter').forEach(filterable);
    var forms = root.matches && root.matches('form.api-form') ? [root] : root.querySelectorAll('form.api-form');
    Array.prototype.forEach.call(forms, function (form) {
      var method = form.getAttribute('data-method');
      if (method === 'PUT' || method === 'DELETE') sentWithFetch(form);
    });
  }

  enhance(document);
});
