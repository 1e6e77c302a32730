(function () {
  var D = JSON.parse(document.getElementById('atlas-data').textContent), K = D.kinds;
  var a = document.getElementById('pick-a'), b = document.getElementById('pick-b'), out = document.getElementById('picked');
  function el(tag, text) { var x = document.createElement(tag); if (text != null) x.textContent = text; return x; }
  function older(x, y) {
    var cx = D.columns[x], cy = D.columns[y];
    if (cx.collected && cy.collected && cx.collected !== cy.collected) return cx.collected < cy.collected ? x : y;
    return null;
  }
  function run() {
    var x = +a.value, y = +b.value; out.textContent = '';
    var o = older(x, y);
    out.appendChild(el('p', o === null ? 'Both runs were collected at the same time, or the dates are unknown.' :
      'The older run: ' + D.columns[o].label + ' (collected ' + D.columns[o].collected + ').'));
    var t = document.createElement('table'), h = el('tr');
    ['case / variant', D.columns[x].label, D.columns[y].label].forEach(function (s) { h.appendChild(el('th', s)); });
    t.appendChild(h); var n = 0;
    D.rows.forEach(function (r) {
      var p = K[r[4][x]], q = K[r[4][y]];
      if (p[0].replace(/^\u0394 /, '') === q[0].replace(/^\u0394 /, '')) return;
      var tr = el('tr'), th = el('th'), link = el('a', r[0]); link.href = 'case/' + r[0] + '.html';
      th.appendChild(link); th.appendChild(el('span', ' / ' + r[2])); tr.appendChild(th);
      [p, q].forEach(function (k) { var td = el('td', k[0]); td.className = 'k-' + k[1]; tr.appendChild(td); });
      t.appendChild(tr); n++; });
    out.appendChild(el('p', n + ' variants differ (the steps: cuda-atlas report diff X Y).'));
    out.appendChild(t);
  }
  a.addEventListener('change', run); b.addEventListener('change', run); run();
})();
