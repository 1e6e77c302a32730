(function () {
  var D = JSON.parse(document.getElementById('atlas-data').textContent);
  var K = D.kinds, body = document.querySelector('#matrix tbody'), loaded = {};
  function el(tag, cls, text) { var x = document.createElement(tag); if (cls) x.className = cls;
    if (text != null) x.textContent = text; return x; }
  function cell(k, col, table) {     // table: the kinds of a steps file; the matrix's own by default
    var kind = (table || K)[k], td = el('td', 'c k-' + kind[1]);
    if (kind[0].indexOf('\u2717') >= 0) td.classList.add('differs');
    if (D.columns[col] && D.columns[col].here) td.classList.add('here');
    if (kind[2]) { var a = el('a', null, kind[0]); a.href = D.statusHref.replace('{}', kind[2]); td.appendChild(a); }
    else td.textContent = kind[0];
    if (kind[3]) td.title = kind[3];
    return td;
  }
  var rows = [];
  D.rows.forEach(function (r) {
    var tr = el('tr', 'v' + (r[3] ? ' disagree' : '')), th = el('th');
    tr.dataset.family = r[1]; tr.dataset.case = r[0]; tr.dataset.variant = r[2];
    var button = el('button', null, '\u25b8'); button.type = 'button'; button.title = 'show the steps and details';
    button.setAttribute('aria-expanded', 'false'); button.className = 'drill';
    var a = el('a', null, r[0]); a.href = 'case/' + r[0] + '.html';
    th.appendChild(button); th.appendChild(a); th.appendChild(el('span', 'variant', ' / ' + r[2]));
    th.title = r[0] + ' / ' + r[2];
    tr.appendChild(th);
    var kinds = {}, text = [r[0], r[1], r[2]];
    r[4].forEach(function (k, i) { tr.appendChild(cell(k, i)); kinds[K[k][1]] = 1; text.push(K[k][0]);
      if (K[k][0].indexOf('\u2717') >= 0) kinds.differs = 1; if (K[k][0].indexOf('\u0394') >= 0) kinds.changed = 1; });
    tr.dataset.kinds = Object.keys(kinds).join(' ');
    tr.dataset.text = text.join(' ').toLowerCase();
    body.appendChild(tr); rows.push(tr);
  });
  function drillRows(tr) { var out = [], n = tr.nextElementSibling;
    while (n && !n.classList.contains('v')) { out.push(n); n = n.nextElementSibling; } return out; }
  function render(tr, data) {
    var v = data.variants[tr.dataset.variant], after = tr, kinds = data.kinds;
    function add(row) { after.parentNode.insertBefore(row, after.nextSibling); after = row; }
    v.steps.forEach(function (s) {
      var row = el('tr', 'step'); row.appendChild(el('th', null, 'step ' + s[0]));
      s[1].forEach(function (k, i) { row.appendChild(cell(k, i, kinds)); });
      add(row); });
    var row = el('tr', 'details'); row.appendChild(el('th', null, 'details'));
    v.details.forEach(function (d, i) { var td = el('td', null, d); if (D.columns[i] && D.columns[i].here) td.classList.add('here');
      row.appendChild(td); });
    add(row);
    if (!v.steps.length) { var note = el('tr', 'step'); var th = el('th', null, 'no step failed or is named by a rule'); note.appendChild(th); add(note); }
  }
  window.atlasSteps = function (name, data) {
    loaded[name] = data;
    document.querySelectorAll('#matrix tr.v[data-pending]').forEach(function (tr) {
      if (tr.dataset.case === name) { tr.removeAttribute('data-pending'); render(tr, data); } });
  };
  body.addEventListener('click', function (ev) {
    var b = ev.target.closest('button.drill'); if (!b) return;
    var tr = b.closest('tr'), open = b.getAttribute('aria-expanded') === 'true';
    if (open) { drillRows(tr).forEach(function (r) { r.remove(); }); b.setAttribute('aria-expanded', 'false');
      b.textContent = '\u25b8'; return; }
    b.setAttribute('aria-expanded', 'true'); b.textContent = '\u25be';
    var name = tr.dataset.case;
    if (loaded[name]) { render(tr, loaded[name]); return; }
    tr.dataset.pending = '1';
    var s = document.createElement('script'); s.src = 'steps/' + name + '.js'; document.head.appendChild(s);
  });
  var search = document.getElementById('f-search'), family = document.getElementById('f-family'),
      kind = document.getElementById('f-kind'), disagree = document.getElementById('f-disagree'),
      variant = document.getElementById('f-variant'),
      count = document.getElementById('f-count');
  function filter() {
    var q = search.value.trim().toLowerCase(), f = family.value, k = kind.value, d = disagree.checked, shown = 0,
        v = variant.value;
    rows.forEach(function (tr) {
      var ok = (!q || tr.dataset.text.indexOf(q) >= 0) && (!f || tr.dataset.family === f) &&
               (!k || (' ' + tr.dataset.kinds + ' ').indexOf(' ' + k + ' ') >= 0) && (!d || tr.classList.contains('disagree')) && (!v || tr.dataset.variant === v);
      tr.hidden = !ok; drillRows(tr).forEach(function (r) { r.hidden = !ok; });
      if (ok) shown++; });
    count.textContent = 'showing ' + shown + ' of ' + rows.length + ' rows';
  }
  function measure() { document.getElementById('matrix').style.setProperty('--lw',
    document.querySelector('#matrix th.corner').offsetWidth + 'px'); }
  window.addEventListener('resize', measure); measure();
  [search, family, kind, disagree, variant].forEach(function (x) { x.addEventListener('input', filter); x.addEventListener('change', filter); });
  filter();
})();
