// Browsable API behaviour: searchable selects, and PUT/DELETE forms sent with fetch (HTML forms only GET/POST).
'use strict';

document.addEventListener('DOMContentLoaded', function () {
  document.querySelectorAll('.choice-filter').forEach(function (filter) {
    var select = document.getElementById(filter.getAttribute('data-for'));
    if (!select) return;
    filter.addEventListener('input', function () {
      var needle = filter.value.trim().toLowerCase();
      Array.prototype.forEach.call(select.options, function (option) {
        var match = !needle || option.value.toLowerCase().indexOf(needle) !== -1 || option.text.toLowerCase().indexOf(needle) !== -1;
        option.hidden = !match;
      });
      var current = select.options[select.selectedIndex];
      if (current && current.hidden) {
        var first = Array.prototype.find.call(select.options, function (o) { return !o.hidden; });
        if (first) select.value = first.value;
      }
    });
  });

  // As Django's pages do: the csrftoken cookie, current even after a login in another tab; else the form's copy.
  function csrfToken(data) {
    var match = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    return match ? decodeURIComponent(match[1]) : data.get('csrfmiddlewaretoken') || '';
  }

  function clearErrors(form, errors) {
    form.querySelectorAll('.errorlist').forEach(function (list) { list.remove(); });
    errors.hidden = true;
    errors.textContent = '';
  }

  // A 400's field map, as the server renders it for a form POST: each message under its field, the rest above them.
  function showFieldErrors(form, text) {
    var map;
    try { map = JSON.parse(text); } catch { return false; }
    if (!map || typeof map !== 'object' || Array.isArray(map)) return false;
    Object.keys(map).forEach(function (name) {
      var messages = Array.isArray(map[name]) ? map[name] : [String(map[name])];
      var list = document.createElement('ul');
      list.className = 'errorlist';
      messages.forEach(function (message) {
        var item = document.createElement('li');
        item.textContent = String(message);
        list.appendChild(item);
      });
      var field = Array.prototype.find.call(form.querySelectorAll('[data-field]'), function (f) { return f.getAttribute('data-field') === name; });
      if (field) field.appendChild(list);
      else {
        list.className = 'errorlist nonfield';
        form.insertBefore(list, form.querySelector('.field'));
      }
    });
    return true;
  }

  document.querySelectorAll('form.api-form[data-method="PUT"], form.api-form[data-method="DELETE"]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var method = form.getAttribute('data-method');
      var question = form.getAttribute('data-confirm');
      if (question && !window.confirm(question)) return;
      var data = new URLSearchParams(new FormData(form));
      var token = csrfToken(data);
      data.delete('csrfmiddlewaretoken');
      var errors = form.querySelector('.form-errors');
      clearErrors(form, errors);
      fetch(form.getAttribute('action'), {
        method: method,
        credentials: 'same-origin',
        headers: { 'X-CSRFToken': token, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: method === 'DELETE' ? undefined : data,
      }).then(function (response) {
        if (response.ok) {
          if (method === 'DELETE') window.location.assign(document.querySelector('.breadcrumbs a:nth-of-type(2)').getAttribute('href'));
          else window.location.reload();
          return;
        }
        return response.text().then(function (text) {
          if (response.status === 400 && showFieldErrors(form, text)) return;
          errors.textContent = 'HTTP ' + response.status + '\n' + text;
          errors.hidden = false;
        });
      });
    });
  });
});
