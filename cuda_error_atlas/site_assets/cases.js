(function () {
  var q = document.getElementById('q');
  q.addEventListener('input', function () {
    var t = q.value.trim().toLowerCase();
    document.querySelectorAll('section.family').forEach(function (s) {
      var any = false;
      s.querySelectorAll('li').forEach(function (li) {
        var ok = !t || li.textContent.toLowerCase().indexOf(t) >= 0; li.hidden = !ok; any = any || ok; });
      s.hidden = !any; });
  });
})();
