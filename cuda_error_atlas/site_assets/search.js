// The site's search: which statuses and cases a pasted line names. It reads window.ATLAS_INDEX (search-index.js)
// and the page's ?q=; nothing is fetched.
(function () {
  var I = window.ATLAS_INDEX, q = document.getElementById('q'), out = document.getElementById('found');
  if (!I || !q || !out) return;
  function el(tag, text, cls) { var x = document.createElement(tag); if (text != null) x.textContent = text;
    if (cls) x.className = cls; return x; }
  function link(href, text) { var a = el('a', text); a.href = href; return a; }
  function slug(name) { return name.replace(/[^A-Za-z0-9_.-]/g, '-'); }
  function words(s) { return s.toLowerCase().match(/[a-z0-9_]+/g) || []; }
  // a status scores when its name, another name, its number next to "error"/"code"/"status", or its printed text
  // is in the line; a case when its name or most of its title's words are
  function find(line) {
    var low = line.toLowerCase(), tokens = {}, ws = words(line), scored = [];
    ws.forEach(function (w) { tokens[w] = 1; });
    var numbers = {}, m, re = /(?:error|code|status|err|result)\D{0,12}?(-?\d{1,4})\b/gi;
    while ((m = re.exec(line))) numbers[m[1]] = 1;
    I.statuses.forEach(function (s) {
      var score = 0, why = '';
      [s.n].concat(s.a || []).forEach(function (n) { if (tokens[n.toLowerCase()]) { score = Math.max(score, 100); why = 'named'; } });
      (s.t || []).forEach(function (t) { if (t.length > 8 && low.indexOf(t.toLowerCase()) >= 0 && score < 80 + t.length / 100) {
        score = 80 + t.length / 100; why = 'its printed text'; } });
      if (!score && s.c != null && numbers[String(s.c)] && s.p) { score = 30; why = 'its number'; }
      if (!score && ws.length <= 4 && low.length > 3 && s.n.toLowerCase().indexOf(low.trim()) >= 0) { score = 40; why = 'the name'; }
      if (score) scored.push([score + (s.p ? 1 : 0), s, why]);
    });
    (I.messages || []).forEach(function (f) {
      if (f.x && f.s && low.indexOf(f.x.toLowerCase().slice(0, 40)) >= 0) {
        I.statuses.forEach(function (s) { if (s.n === f.s) scored.push([90, s, f.f + ' prints this']); }); }
    });
    scored.sort(function (a, b) { return b[0] - a[0]; });
    var seen = {}, statuses = [];
    scored.forEach(function (x) { if (!seen[x[1].n]) { seen[x[1].n] = 1; statuses.push(x); } });
    var named = {}; statuses.forEach(function (x) { named[x[1].n] = 1; });
    var cases = [];
    I.cases.forEach(function (c) {
      var hits = c.s.filter(function (s) { return named[s]; }).length, score = hits ? 10 + hits : 0;
      if (tokens[c.n.toLowerCase()]) score += 50;
      var tw = words(c.t).filter(function (w) { return w.length > 3; });
      var common = tw.filter(function (w) { return tokens[w]; }).length;
      if (tw.length && common >= Math.max(2, Math.ceil(tw.length / 2))) score += common;
      if (score) cases.push([score, c]);
    });
    cases.sort(function (a, b) { return b[0] - a[0] || (a[1].n < b[1].n ? -1 : 1); });
    return [statuses.slice(0, 12), cases.slice(0, 40)];
  }
  function show(line) {
    out.textContent = '';
    if (!line.trim()) return;
    var found = find(line), statuses = found[0], cases = found[1];
    out.appendChild(el('h2', statuses.length ? 'Statuses' : 'No status found in that line'));
    if (statuses.length) {
      var ul = el('ul', null, 'cases');
      statuses.forEach(function (x) {
        var s = x[1], li = el('li');
        li.appendChild(s.p ? link('status/' + slug(s.n) + '.html', s.n) : el('code', s.n));
        li.appendChild(el('span', (s.c != null ? ' (' + s.c + ')' : '') + (s.t && s.t[0] ? ': ' + s.t[0] : '') +
                                  ' — found by ' + x[2] + (s.p ? '' : '; no recorded run or case involves it'), 'note'));
        ul.appendChild(li); });
      out.appendChild(ul);
    }
    out.appendChild(el('h2', cases.length ? 'Cases' : 'No case found'));
    if (cases.length) {
      var uc = el('ul', null, 'cases');
      cases.forEach(function (x) {
        var c = x[1], li = el('li');
        li.appendChild(link('case/' + c.n + '.html', c.t)); li.appendChild(el('code', ' ' + c.n, 'note'));
        if (c.s.length) li.appendChild(el('span', ' — ' + c.s.join(', '), 'note'));
        uc.appendChild(li); });
      out.appendChild(uc);
    }
  }
  var given = new URLSearchParams(location.search).get('q');
  if (given) { q.value = given; show(given); }
  q.addEventListener('input', function () { show(q.value); });
})();
