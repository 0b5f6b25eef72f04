/* cardsmith gallery: filters, search, sort, large view and keyboard navigation. No network, no libraries. */
(function () {
  "use strict";
  var cards = JSON.parse(document.getElementById("cards-data").textContent);
  var byId = {};
  cards.forEach(function (c) { byId[c.id] = c; c._search = norm(c.search); });
  var grid = document.getElementById("grid");
  var cells = {};
  Array.prototype.forEach.call(grid.children, function (li) { cells[li.dataset.id] = li; });
  var q = document.getElementById("q");
  var facets = Array.prototype.slice.call(document.querySelectorAll("select[data-facet]"));
  var sortSel = document.getElementById("sort");
  var dirBtn = document.getElementById("dir");
  var countEl = document.getElementById("count");
  var emptyEl = document.getElementById("empty");
  var dialog = document.getElementById("view");
  var desc = false;
  var visible = [];
  var current = null;

  function norm(s) { return String(s || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }
  function values(c, facet) {
    if (facet === "type") return [c.type];
    if (facet.indexOf("g-") === 0) return [c.groups[facet.slice(2)] || ""];  /* a group dimension */
    if (facet.indexOf("a-") === 0) return [c.attrs[facet.slice(2)] || ""];   /* a group attribute */
    if (facet === "keyword") return c.keywords.map(function (k) { return k.id; });
    if (facet === "status") return [c.status];
    if (facet.indexOf("f:") === 0) return c.facets[facet.slice(2)] || [];
    return [];
  }
  function matches(c, except) {
    var words = norm(q.value).split(/\s+/).filter(Boolean);
    for (var i = 0; i < words.length; i++) if (c._search.indexOf(words[i]) < 0) return false;
    for (var j = 0; j < facets.length; j++) {
      var s = facets[j];
      if (s === except || s.value === "*") continue;
      if (values(c, s.dataset.facet).indexOf(s.value) < 0) return false;
    }
    return true;
  }
  function compare(a, b) {
    var key = sortSel.value, r = 0;
    if (key.indexOf("n:") === 0) {
      var f = key.slice(2), x = a.numbers[f], y = b.numbers[f];
      var hx = typeof x === "number", hy = typeof y === "number";
      if (hx !== hy) return hx ? -1 : 1;          /* cards without the number go last either way */
      r = hx ? x - y : 0;
    } else if (key === "name") r = a.name.localeCompare(b.name);
    else if (key === "type") r = a.typeName.localeCompare(b.typeName);
    else if (key === "group") r = (a.groupName || "~").localeCompare(b.groupName || "~");
    if (desc) r = -r;
    return r || a.order - b.order;
  }
  function update(keepHash) {
    var shown = cards.filter(function (c) { return matches(c, null); }).sort(compare);
    visible = shown.map(function (c) { return c.id; });
    var on = {};
    visible.forEach(function (id) { on[id] = true; });
    cards.forEach(function (c) { cells[c.id].hidden = !on[c.id]; });
    visible.forEach(function (id) { grid.appendChild(cells[id]); });
    var live = cards.filter(function (c) { return c.status !== "removed"; });
    var copies = shown.reduce(function (n, c) { return n + (c.status === "removed" ? 0 : c.copies); }, 0);
    countEl.textContent = (shown.length === cards.length ? "All " + shown.length + " cards"
      : "Showing " + shown.length + " of " + cards.length + " cards") +
      " (" + copies + (copies === 1 ? " copy" : " copies") + " in print" +
      (live.length !== cards.length ? ", removed cards not counted" : "") + ")";
    facets.forEach(function (s) {
      var pool = cards.filter(function (c) { return matches(c, s); });
      Array.prototype.forEach.call(s.options, function (o) {
        var n = o.value === "*" ? pool.length
          : pool.filter(function (c) { return values(c, s.dataset.facet).indexOf(o.value) >= 0; }).length;
        o.textContent = o.dataset.label + " (" + n + ")";
      });
    });
    emptyEl.hidden = shown.length > 0;
    if (!keepHash) saveHash();
  }
  function saveHash() {
    var p = new URLSearchParams();
    if (q.value) p.set("q", q.value);
    facets.forEach(function (s) { if (s.value !== "*") p.set(s.dataset.facet, s.value); });
    if (sortSel.value !== "order") p.set("sort", sortSel.value);
    if (desc) p.set("desc", "1");
    if (current && dialog.open) p.set("card", current);
    var h = p.toString();
    try { history.replaceState(null, "", h ? "#" + h : location.pathname + location.search); } catch (e) { /* file:// in some browsers */ }
  }
  function loadHash() {
    var p = new URLSearchParams(location.hash.slice(1));
    q.value = p.get("q") || "";
    facets.forEach(function (s) {
      var v = p.get(s.dataset.facet);
      s.value = v !== null && Array.prototype.some.call(s.options, function (o) { return o.value === v; }) ? v : "*";
    });
    var sv = p.get("sort");
    sortSel.value = sv && Array.prototype.some.call(sortSel.options, function (o) { return o.value === sv; }) ? sv : "order";
    setDir(p.get("desc") === "1");
    update(true);
    var card = p.get("card");
    if (card && byId[card]) open(card);
  }
  function setDir(d) {
    desc = d;
    dirBtn.textContent = d ? "Descending" : "Ascending";
    dirBtn.setAttribute("aria-pressed", d ? "true" : "false");
  }
  function button(id) { return cells[id] && cells[id].querySelector("button.card"); }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function figure(src, alt, caption) {
    var f = el("figure"), img = el("img");
    img.src = src; img.alt = alt;
    f.appendChild(img);
    if (caption) f.appendChild(el("figcaption", caption));
    return f;
  }
  function open(id) {
    var c = byId[id];
    if (!c) return;
    current = id;
    var imgs = document.getElementById("v-images");
    imgs.textContent = "";
    if (c.before && c.before.large) {
      imgs.appendChild(figure(c.before.large, "Before: " + c.name, "Before"));
      imgs.appendChild(figure(c.large, c.alt, "After"));
    } else {
      imgs.appendChild(figure(c.large, c.alt, c.status === "removed" ? "Removed since the earlier build" : ""));
    }
    document.getElementById("v-name").textContent = c.name;
    document.getElementById("v-line").textContent = c.typeName + (c.groupName ? " \u00b7 " + c.groupName : "") +
      (c.copies > 1 ? " \u00b7 " + c.copies + " copies" : "");
    var ch = document.getElementById("v-changes");
    ch.hidden = !(c.status && c.status !== "same");
    ch.textContent = c.status === "changed" ? "Changed: " + (c.changes.join("; ") || "image")
      : c.status === "added" ? "Added since the earlier build" : c.status === "removed" ? "Removed since the earlier build" : "";
    var dl = document.getElementById("v-fields");
    dl.textContent = "";
    c.fields.forEach(function (f) { dl.appendChild(el("dt", f[0])); dl.appendChild(el("dd", f[1])); });
    var kw = document.getElementById("v-keywords");
    kw.textContent = "";
    c.keywords.forEach(function (k) {
      var li = el("li"); li.appendChild(el("strong", k.text));
      if (k.reminder) li.appendChild(document.createTextNode(": " + k.reminder));
      kw.appendChild(li);
    });
    document.getElementById("v-text").innerHTML = c.text;   /* escaped and marked up by cardsmith */
    document.getElementById("v-flavor").innerHTML = c.flavor;
    document.getElementById("v-small").textContent = "id: " + c.id + (c.tags.length ? " \u00b7 tags: " + c.tags.join(", ") : "");
    var pos = visible.indexOf(id);
    document.getElementById("v-pos").textContent = pos >= 0 ? (pos + 1) + " of " + visible.length : "";
    document.getElementById("v-prev").disabled = pos <= 0;
    document.getElementById("v-next").disabled = pos < 0 || pos >= visible.length - 1;
    if (!dialog.open) dialog.showModal();
    saveHash();
  }
  function step(d) {
    var pos = visible.indexOf(current);
    if (pos < 0) return;
    var next = visible[pos + d];
    if (next) open(next);
  }
  function columns() {
    var first = visible.length ? cells[visible[0]] : null;
    if (!first) return 1;
    var top = first.offsetTop, n = 0;
    for (var i = 0; i < visible.length && cells[visible[i]].offsetTop === top; i++) n++;
    return Math.max(1, n);
  }

  grid.addEventListener("click", function (ev) {
    var b = ev.target.closest("button.card");
    if (b) open(b.dataset.id);
  });
  grid.addEventListener("keydown", function (ev) {
    var b = ev.target.closest("button.card");
    if (!b) return;
    var pos = visible.indexOf(b.dataset.id), to = null, cols = columns();
    if (ev.key === "ArrowRight") to = pos + 1;
    else if (ev.key === "ArrowLeft") to = pos - 1;
    else if (ev.key === "ArrowDown") to = pos + cols;
    else if (ev.key === "ArrowUp") to = pos - cols;
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = visible.length - 1;
    if (to === null) return;
    ev.preventDefault();
    to = Math.max(0, Math.min(visible.length - 1, to));
    var target = button(visible[to]);
    if (target) target.focus();
  });
  dialog.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowRight") { ev.preventDefault(); step(1); }
    else if (ev.key === "ArrowLeft") { ev.preventDefault(); step(-1); }
  });
  dialog.addEventListener("click", function (ev) { if (ev.target === dialog) dialog.close(); });
  dialog.addEventListener("close", function () {
    var b = button(current);
    saveHash();
    if (b && !cells[current].hidden) b.focus();
  });
  document.getElementById("v-prev").addEventListener("click", function () { step(-1); });
  document.getElementById("v-next").addEventListener("click", function () { step(1); });
  document.getElementById("v-close").addEventListener("click", function () { dialog.close(); });
  q.addEventListener("input", function () { update(); });
  facets.forEach(function (s) { s.addEventListener("change", function () { update(); }); });
  sortSel.addEventListener("change", function () { update(); });
  dirBtn.addEventListener("click", function () { setDir(!desc); update(); });
  function reset() {
    /* focus stays on the button, so "/" goes on focusing the search box instead of typing into it */
    q.value = ""; facets.forEach(function (s) { s.value = "*"; });
    sortSel.value = "order"; setDir(false); update();
  }
  document.getElementById("reset").addEventListener("click", reset);
  document.getElementById("reset2").addEventListener("click", reset);
  document.addEventListener("keydown", function (ev) {
    var typing = /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName);
    if (ev.key === "/" && !dialog.open && (!typing || (document.activeElement === q && !q.value))) {
      ev.preventDefault(); q.focus(); q.select();   /* an empty search box takes "/" as the shortcut, not as text */
    }
    else if (ev.key === "Escape" && document.activeElement === q && q.value) { q.value = ""; update(); }
  });
  window.addEventListener("hashchange", function () { if (!dialog.open) loadHash(); });
  loadHash();
})();
