/* kg html: the interactive co-authorship graph.
 *
 * Every piece of text that comes from the data is put on the page with textContent
 * (or drawn on the canvas by vis-network), never parsed as HTML. The data itself is
 * read from the JSON block with id "kg-data" (a script element of type application/json).
 */
(function () {
  "use strict";

  var DATA = JSON.parse(document.getElementById("kg-data").textContent);
  var STYLE = {
    profiled: {shape: "diamond", bg: "#f08c00", border: "#a45f00", name: "Profiled researcher"},
    coauthor: {shape: "dot", bg: "#4dabf7", border: "#1864ab", name: "Co-author"},
    organization: {shape: "square", bg: "#69db7c", border: "#2b8a3e", name: "Organization"}
  };
  var DIM_NODE = {background: "#edf0f3", border: "#d5dbe1"};
  var DIM_FONT = "#b8c1cc";
  var EDGE_COLOR = {coauthor: "#8895a7", affiliation: "#7cc48b"};
  var DIM_EDGE = "#e6e9ed";
  var RELATION = {education: "Studied at", position: "Worked at"};
  var MAX_CARD_ITEMS = 8;

  var api = window.kgGraph = {ready: false, readyMs: null, data: DATA};

  // ---------------------------------------------------------------- helpers
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }
  function short(text, n) {
    text = String(text);
    return text.length > n ? text.slice(0, n - 1) + "\u2026" : text;
  }
  function fold(text) {
    return String(text).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function span(years, ongoing) {
    if (!years) { return ""; }
    var a = years[0], b = years[1];
    if (a === null && b === null) { return ongoing ? "ongoing" : ""; }
    if (a === b) { return String(a); }
    return (a === null ? "?" : a) + "\u2013" + (b === null ? (ongoing ? "now" : "?") : b);
  }
  function work(i) {
    var w = DATA.works[i];
    return {iri: w[0], title: w[1], year: w[2], venue: w[3]};
  }
  function workMeta(w) {
    var parts = [];
    if (w.year !== null) { parts.push(String(w.year)); }
    if (w.venue) { parts.push(w.venue); }
    return parts.join(", ");
  }
  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

  var byId = new Map();
  var adjacency = new Map();
  DATA.nodes.forEach(function (n) { byId.set(n.id, n); adjacency.set(n.id, []); });
  DATA.edges.forEach(function (e) { adjacency.get(e.from).push(e); adjacency.get(e.to).push(e); });
  function other(e, id) { return e.from === id ? e.to : e.from; }

  function affiliations(id) {
    return adjacency.get(id).filter(function (e) { return e.kind !== "coauthor"; });
  }
  function affiliationText(e, id) {
    var target = byId.get(other(e, id));
    var links = e.links || [{kind: e.kind, role: e.role, years: e.years, ongoing: e.ongoing}];
    var metas = links.map(function (l) {
      var bits = [];
      // the heading says "Studied at" already: a link says its verb only when it differs
      if (e.links && l.kind !== e.kind) { bits.push(RELATION[l.kind] ? (l.kind === "education" ? "studied" : "worked") : l.kind); }
      if (l.role) { bits.push(l.role); }
      var when = span(l.years, l.ongoing);
      if (when) { bits.push(when); }
      return bits.join(", ");
    }).filter(Boolean);
    return {head: (RELATION[e.kind] || e.kind) + " " + target.name, meta: metas.join("; ")};
  }
  // works of a node, found on its co-author edges: [{work, with: [names]}], newest first
  function worksOf(id) {
    var found = new Map();
    adjacency.get(id).forEach(function (e) {
      if (e.kind !== "coauthor" || !e.works) { return; }
      var name = byId.get(other(e, id)).name;
      e.works.forEach(function (i) {
        if (!found.has(i)) { found.set(i, {work: work(i), with: []}); }
        found.get(i).with.push(name);
      });
    });
    var list = Array.from(found.values());
    list.sort(function (a, b) {
      var ya = a.work.year === null ? -1 : a.work.year, yb = b.work.year === null ? -1 : b.work.year;
      if (ya !== yb) { return yb - ya; }
      return a.work.title < b.work.title ? -1 : a.work.title > b.work.title ? 1 : 0;
    });
    list.forEach(function (x) { x.with.sort(); });
    return list;
  }

  // ---------------------------------------------------------------- vis data
  var FOCUS = typeof DATA.focus === "number" ? DATA.focus : null;
  var FOCUS_RING = "#c2255c";
  function visNode(n) {
    var s = STYLE[n.kind] || STYLE.coauthor;
    var focus = n.id === FOCUS;
    return {
      // the label is drawn by drawLabels (readable size, halo, no overlaps); vis keeps it for hit tests
      id: n.id, label: short(n.name, 42), x: n.x, y: n.y, shape: s.shape, size: n.size,
      borderWidth: focus ? 4 : n.kind === "profiled" ? 2 : 1,
      color: {background: s.bg, border: focus ? FOCUS_RING : s.border,
              highlight: {background: s.bg, border: "#111111"}, hover: {background: s.bg, border: "#111111"}},
      font: {color: "#1f2933"}
    };
  }
  function edgeColor(e) { return e.kind === "coauthor" ? EDGE_COLOR.coauthor : EDGE_COLOR.affiliation; }
  function visEdge(e) {
    var co = e.kind === "coauthor";
    return {
      id: e.id, from: e.from, to: e.to,
      width: co ? Math.min(1 + (e.joint - 1) * 1.5, 12) : 1,
      dashes: !co,
      color: {color: edgeColor(e), highlight: "#e8590c", hover: "#e8590c"}
    };
  }

  var nodes = new vis.DataSet(DATA.nodes.map(visNode));
  var edges = new vis.DataSet(DATA.edges.map(visEdge));
  api.nodes = nodes;
  api.edges = edges;

  // ---------------------------------------------------------------- filters
  var shownNodes = new Set(DATA.nodes.map(function (n) { return n.id; }));
  var shownEdges = new Set(DATA.edges.map(function (e) { return e.id; }));
  var yearMin = null, yearMax = null;
  function seeYears(y) {
    if (!y) { return; }
    y.forEach(function (v) {
      if (v === null) { return; }
      if (yearMin === null || v < yearMin) { yearMin = v; }
      if (yearMax === null || v > yearMax) { yearMax = v; }
    });
  }
  DATA.nodes.forEach(function (n) { seeYears(n.years); });
  DATA.edges.forEach(function (e) { seeYears(e.years); });
  var maxJoint = DATA.edges.reduce(function (m, e) { return e.kind === "coauthor" ? Math.max(m, e.joint) : m; }, 1);

  var inputFrom = document.getElementById("kg-year-from");
  var inputTo = document.getElementById("kg-year-to");
  var inputJoint = document.getElementById("kg-min-joint");
  var kindBoxes = Array.prototype.slice.call(document.querySelectorAll("#kg-legend input[data-kind]"));
  function resetInputs() {
    inputFrom.value = yearMin === null ? "" : String(yearMin);
    inputTo.value = yearMax === null ? "" : String(yearMax);
    [inputFrom, inputTo].forEach(function (i) {
      if (yearMin !== null) { i.min = String(yearMin); i.max = String(yearMax); }
    });
    inputJoint.value = "1";
    inputJoint.max = String(maxJoint);
    kindBoxes.forEach(function (b) { b.checked = true; });
  }
  function num(input, fallback) {
    var v = parseInt(input.value, 10);
    return isNaN(v) ? fallback : v;
  }
  function overlaps(years, from, to) {
    if (!years) { return true; }
    var a = years[0] === null ? -Infinity : years[0];
    var b = years[1] === null ? Infinity : years[1];
    return a <= to && b >= from;
  }
  function computeShown() {
    var from = num(inputFrom, yearMin === null ? -Infinity : yearMin);
    var to = num(inputTo, yearMax === null ? Infinity : yearMax);
    var minJoint = Math.max(1, num(inputJoint, 1));
    var kinds = new Set(kindBoxes.filter(function (b) { return b.checked; }).map(function (b) { return b.dataset.kind; }));
    var narrowed = minJoint > 1 || (yearMin !== null && (from > yearMin || to < yearMax));
    var base = new Set();
    DATA.nodes.forEach(function (n) {
      if (kinds.has(n.kind) && overlaps(n.years, from, to)) { base.add(n.id); }
    });
    var edgeOk = new Set(), linked = new Set();
    DATA.edges.forEach(function (e) {
      if (!base.has(e.from) || !base.has(e.to)) { return; }
      if (e.kind === "coauthor" && e.joint < minJoint) { return; }
      if (!overlaps(e.years, from, to)) { return; }
      edgeOk.add(e.id); linked.add(e.from); linked.add(e.to);
    });
    // once the years or joint works are narrowed, nodes left without any link go too
    shownNodes = narrowed ? new Set(Array.from(base).filter(function (id) { return linked.has(id); })) : base;
    shownEdges = edgeOk;
  }

  var nodeView = new vis.DataView(nodes, {filter: function (n) { return shownNodes.has(n.id); }});
  var edgeView = new vis.DataView(edges, {filter: function (e) { return shownEdges.has(e.id); }});

  var status = document.getElementById("kg-status");
  function showStatus() {
    var kinds = {profiled: 0, coauthor: 0, organization: 0};
    DATA.nodes.forEach(function (n) { if (n.kind in kinds) { kinds[n.kind] += 1; } });
    document.querySelectorAll("#kg-legend [data-count]").forEach(function (c) {
      c.textContent = "(" + kinds[c.dataset.count] + ")";
    });
    status.textContent = "Showing " + shownNodes.size + " of " + plural(DATA.nodes.length, "node", "nodes") +
      " and " + shownEdges.size + " of " + plural(DATA.edges.length, "link", "links");
    status.dataset.totalNodes = String(DATA.nodes.length);
    status.dataset.totalEdges = String(DATA.edges.length);
    status.dataset.visibleNodes = String(shownNodes.size);
    status.dataset.visibleEdges = String(shownEdges.size);
  }

  // ---------------------------------------------------------------- network
  var container = document.getElementById("kg-graph");
  var big = DATA.nodes.length > 1500 || DATA.edges.length > 6000;
  var network = new vis.Network(container, {nodes: nodeView, edges: edgeView}, {
    autoResize: true,
    layout: {improvedLayout: false, randomSeed: 7},
    physics: {
      enabled: false,
      solver: "forceAtlas2Based",
      forceAtlas2Based: {gravitationalConstant: -80, centralGravity: 0.008, springLength: 120, springConstant: 0.06, avoidOverlap: 0.5},
      stabilization: {enabled: false, iterations: 250, updateInterval: 50, fit: true}
    },
    // vis-network's own labels are never drawn (drawLabels draws them at a fixed screen size)
    nodes: {font: {size: 14, face: "system-ui, sans-serif"}, scaling: {label: {drawThreshold: 1e9}}},
    edges: {smooth: false, selectionWidth: 1.5, hoverWidth: 0.8},
    interaction: {hover: true, hideEdgesOnDrag: big, hideEdgesOnZoom: big, keyboard: false,
                  multiselect: false, navigationButtons: false, tooltipDelay: 200}
  });
  api.network = network;
  network.on("afterDrawing", function (ctx) { drawLabels(ctx); });

  // Nodes hidden by a filter come back where the data set says: keep it up to date with where
  // the layout settled and where the user dragged them.
  var placed = new Map(DATA.nodes.map(function (n) { return [n.id, [n.x, n.y]]; }));
  function keepPositions() {
    var pos = network.getPositions();
    var moved = [];
    Object.keys(pos).forEach(function (key) {
      var id = Number(key), x = Math.round(pos[key].x), y = Math.round(pos[key].y);
      var was = placed.get(id);
      if (!was || was[0] !== x || was[1] !== y) { placed.set(id, [x, y]); moved.push({id: id, x: x, y: y}); }
    });
    if (moved.length) { nodes.update(moved); }
  }
  network.on("dragEnd", function (p) { if (p.nodes.length) { keepPositions(); } });

  function markReady() {
    if (api.ready) { return; }
    api.ready = true;
    api.readyMs = Math.round(performance.now());
    document.documentElement.dataset.ready = "true";
  }
  if (DATA.nodes.length === 0) {
    document.getElementById("kg-empty").hidden = false;
  }

  // ---------------------------------------------------------------- labels
  // Labels at a fixed screen size with a light background, so they read at any zoom; the most
  // connected first (focus, selection and its neighbours, profiled people, then by co-authors and
  // works), each only where it overlaps no label already drawn.
  var LABEL_FONT = "system-ui, -apple-system, \"Segoe UI\", Roboto, Arial, sans-serif";
  var MAX_LABELS = 400;
  var degree = new Map(DATA.nodes.map(function (n) { return [n.id, adjacency.get(n.id).length]; }));
  var labelOrder = DATA.nodes.slice().sort(function (a, b) {
    var pa = a.kind === "profiled" ? 1 : 0, pb = b.kind === "profiled" ? 1 : 0;
    return pb - pa || degree.get(b.id) - degree.get(a.id) || (b.works || 0) - (a.works || 0) || a.id - b.id;
  });
  var neighbourhood = null;  // the highlighted node and its neighbours, labelled first
  function labelPx() { return container.clientWidth < 900 ? 12 : 13; }
  function drawLabels(ctx) {
    if (!DATA.nodes.length) { return; }
    var order = labelOrder;
    if (neighbourhood !== null || FOCUS !== null) {
      var first = labelOrder.filter(function (n) { return n.id === FOCUS || (neighbourhood && neighbourhood.has(n.id)); });
      first.sort(function (a, b) { return (b.id === highlighted) - (a.id === highlighted) || (b.id === FOCUS) - (a.id === FOCUS); });
      order = first.concat(labelOrder.filter(function (n) { return first.indexOf(n) < 0; }));
    }
    order = order.filter(function (n) { return shownNodes.has(n.id); }).slice(0, MAX_LABELS);
    var ids = order.map(function (n) { return n.id; });
    var pos = network.getPositions(ids);
    // the nodes themselves are obstacles too (up to a size where that costs too much)
    var discs = [];
    if (shownNodes.size <= 1500) {
      var all = network.getPositions(Array.from(shownNodes));
      shownNodes.forEach(function (id) {
        var q = all[id];
        if (!q) { return; }
        var c = network.canvasToDOM(q), r = byId.get(id).size * network.getScale() + 1;
        discs.push({id: id, x: c.x - r, y: c.y - r, w: 2 * r, h: 2 * r});
      });
    }
    function hits(box, list, self) {
      for (var i = 0; i < list.length; i++) {
        var b = list[i];
        if (b.id !== self && box.x < b.x + b.w && b.x < box.x + box.w && box.y < b.y + b.h && b.y < box.y + box.h) {
          return true;
        }
      }
      return false;
    }
    var scale = network.getScale();
    var w = container.clientWidth, h = container.clientHeight, px = labelPx();
    var ratio = ctx.canvas.width / Math.max(1, ctx.canvas.clientWidth || w);
    var boxes = [];
    ctx.save();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    order.forEach(function (n) {
      var p = pos[n.id];
      if (!p) { return; }
      var d = network.canvasToDOM(p);
      var strong = n.id === FOCUS || n.id === highlighted || n.kind === "profiled";
      ctx.font = (strong ? "600 " : "") + (strong ? px + 1 : px) + "px " + LABEL_FONT;
      var text = short(n.name, 30);
      var tw = ctx.measureText(text).width;
      var top = d.y + n.size * scale + 2;
      var box = {x: d.x - tw / 2 - 3, y: top - 1, w: tw + 6, h: px + 5};
      if (d.x < 0 || d.x > w || box.y + box.h < 0 || box.y > h) { return; }
      box.x = Math.max(2, Math.min(box.x, w - box.w - 2));  // kept inside the view
      var x = box.x + box.w / 2;
      // the first few labels (focus, selection, profiled, the most connected) may cover an edge of a node
      var important = n.id === FOCUS || n.id === highlighted || n.kind === "profiled" || boxes.length < 8;
      if (hits(box, boxes, null) || (!important && hits(box, discs, n.id))) { return; }
      boxes.push(box);
      var dim = dimmedNodes.has(n.id);
      ctx.fillStyle = dim ? "rgba(255,255,255,.6)" : "rgba(255,255,255,.86)";
      ctx.beginPath();
      if (ctx.roundRect) { ctx.roundRect(box.x, box.y, box.w, box.h, 3); } else { ctx.rect(box.x, box.y, box.w, box.h); }
      ctx.fill();
      ctx.fillStyle = dim ? DIM_FONT : n.id === FOCUS ? FOCUS_RING : "#1f2933";
      ctx.fillText(text, x, top + 1);
    });
    ctx.restore();
    api.labelsDrawn = boxes.length;
  }

  // ---------------------------------------------------------------- highlight
  // Small graphs dim everything outside the neighbourhood (only what changes is updated);
  // big ones select the neighbourhood instead, which costs nothing per node left alone.
  var highlighted = null;
  var dimmedNodes = new Set(), dimmedEdges = new Set();
  function restyle(keep, centre) {
    var nodeUpdates = [], edgeUpdates = [];
    DATA.nodes.forEach(function (n) {
      var dim = keep !== null && !keep.has(n.id);
      if (dim === dimmedNodes.has(n.id)) { return; }
      var base = visNode(n);
      if (dim) {
        dimmedNodes.add(n.id);
        nodeUpdates.push({id: n.id, font: {color: DIM_FONT}, color: {background: DIM_NODE.background,
          border: DIM_NODE.border, highlight: base.color.highlight, hover: base.color.hover}});
      } else {
        dimmedNodes.delete(n.id);
        nodeUpdates.push({id: n.id, color: base.color, font: base.font});
      }
    });
    DATA.edges.forEach(function (e) {
      var dim = keep !== null && e.from !== centre && e.to !== centre;
      if (dim === dimmedEdges.has(e.id)) { return; }
      if (dim) { dimmedEdges.add(e.id); } else { dimmedEdges.delete(e.id); }
      edgeUpdates.push({id: e.id, color: {color: dim ? DIM_EDGE : edgeColor(e), highlight: "#e8590c", hover: "#e8590c"}});
    });
    if (nodeUpdates.length) { nodes.update(nodeUpdates); }
    if (edgeUpdates.length) { edges.update(edgeUpdates); }
  }
  function highlight(id) {
    var keep = new Set([id]);
    adjacency.get(id).forEach(function (e) { keep.add(other(e, id)); });
    neighbourhood = keep;
    if (big) {
      network.selectNodes(Array.from(keep).filter(function (k) { return shownNodes.has(k); }), true);
    } else {
      restyle(keep, id);
      network.selectNodes([id]);
    }
    highlighted = id;
  }
  function unhighlight() {
    neighbourhood = null;
    if (highlighted === null) { return; }
    if (big) { network.unselectAll(); } else { restyle(null, null); }
    highlighted = null;
  }

  // ---------------------------------------------------------------- cards
  function listInto(parent, items, render) {
    var ul = el("ul");
    items.slice(0, MAX_CARD_ITEMS).forEach(function (x) { ul.appendChild(render(x)); });
    parent.appendChild(ul);
    if (items.length > MAX_CARD_ITEMS) {
      parent.appendChild(el("div", "and " + (items.length - MAX_CARD_ITEMS) + " more", "kg-more"));
    }
  }
  function nodeSummary(n) {
    var bits = [(STYLE[n.kind] || STYLE.coauthor).name];
    if (n.kind !== "organization") { bits.push(plural(n.works, "work", "works")); }
    var when = span(n.years, false);
    if (when) { bits.push(when); }
    return bits.join(" \u00b7 ");
  }
  function nodeCard(n) {
    var card = document.createDocumentFragment();
    card.appendChild(el("h2", n.name));
    card.appendChild(el("div", nodeSummary(n), "kg-meta"));
    if (n.parent !== undefined && byId.has(n.parent)) {
      card.appendChild(el("div", "Part of " + byId.get(n.parent).name, "kg-meta"));
    }
    var affs = affiliations(n.id);
    if (affs.length) {
      card.appendChild(el("h3", n.kind === "organization" ? "People" : "Affiliations"));
      listInto(card, affs, function (e) {
        var a = affiliationText(e, n.id);
        var li = el("li", n.kind === "organization" ? byId.get(other(e, n.id)).name : a.head);
        if (a.meta) { li.appendChild(el("span", " (" + a.meta + ")", "kg-meta")); }
        return li;
      });
    }
    var works = worksOf(n.id);
    if (works.length) {
      card.appendChild(el("h3", "Joint works"));
      listInto(card, works, function (x) {
        var li = el("li", x.work.title);
        var meta = workMeta(x.work);
        if (meta) { li.appendChild(el("span", " (" + meta + ")", "kg-meta")); }
        return li;
      });
    }
    return card;
  }
  function edgeCard(e) {
    var card = document.createDocumentFragment();
    var a = byId.get(e.from), b = byId.get(e.to);
    card.appendChild(el("h2", a.name + " \u2014 " + b.name));
    if (e.kind === "coauthor") {
      card.appendChild(el("div", plural(e.joint, "joint work", "joint works"), "kg-meta"));
      listInto(card, (e.works || []).map(work), function (w) {
        var li = el("li", w.title);
        var meta = workMeta(w);
        if (meta) { li.appendChild(el("span", " (" + meta + ")", "kg-meta")); }
        return li;
      });
    } else {
      var person = a.kind === "organization" ? b : a;
      var t = affiliationText(e, person.id);
      card.appendChild(el("div", t.head, "kg-meta"));
      if (t.meta) { card.appendChild(el("div", t.meta, "kg-meta")); }
    }
    return card;
  }

  // ---------------------------------------------------------------- tooltip
  var tooltip = document.getElementById("kg-tooltip");
  var wrap = document.getElementById("kg-graph-wrap");
  function showTooltip(content, pointer) {
    tooltip.replaceChildren(content);
    tooltip.hidden = false;
    var w = wrap.clientWidth, h = wrap.clientHeight;
    var x = pointer.x + 14, y = pointer.y + 14;
    var tw = tooltip.offsetWidth, th = tooltip.offsetHeight;
    if (x + tw > w - 4) { x = Math.max(4, pointer.x - tw - 14); }
    if (y + th > h - 4) { y = Math.max(4, h - th - 4); }
    tooltip.style.left = x + "px";
    tooltip.style.top = y + "px";
  }
  function hideTooltip() { tooltip.hidden = true; tooltip.replaceChildren(); }
  network.on("hoverNode", function (p) { showTooltip(nodeCard(byId.get(p.node)), p.pointer.DOM); });
  network.on("hoverEdge", function (p) {
    var e = DATA.edges[p.edge];
    if (e) { showTooltip(edgeCard(e), p.pointer.DOM); }
  });
  network.on("blurNode", hideTooltip);
  network.on("blurEdge", hideTooltip);
  network.on("dragStart", hideTooltip);
  network.on("zoom", hideTooltip);

  // ---------------------------------------------------------------- side panel
  var panel = document.getElementById("kg-panel");
  function linkButton(id) {
    var n = byId.get(id);
    var b = el("button", n.name, "kg-link");
    b.type = "button";
    b.dataset.node = String(id);
    b.appendChild(el("span", (STYLE[n.kind] || STYLE.coauthor).name, "kg-kind"));
    b.addEventListener("click", function () { select(id, true); });
    return b;
  }
  function fillPanel(id) {
    var n = byId.get(id);
    var frag = document.createDocumentFragment();
    frag.appendChild(el("h2", n.name));
    frag.appendChild(el("div", nodeSummary(n), "kg-meta"));
    if (n.parent !== undefined && byId.has(n.parent)) {
      var up = el("div", "Part of ", "kg-meta");
      up.appendChild(linkButton(n.parent));
      frag.appendChild(up);
    }
    var affs = affiliations(id);
    if (affs.length) {
      frag.appendChild(el("h3", n.kind === "organization" ? "People (" + affs.length + ")" : "Affiliations"));
      var ul = el("ul", null, "kg-plain");
      affs.forEach(function (e) {
        var li = el("li");
        li.appendChild(linkButton(other(e, id)));
        var a = affiliationText(e, id);
        var meta = [RELATION[e.kind] || e.kind, a.meta].filter(Boolean).join(": ");
        li.appendChild(el("div", meta, "kg-meta"));
        ul.appendChild(li);
      });
      frag.appendChild(ul);
    }
    var works = worksOf(id);
    frag.appendChild(el("h3", "Works with co-authors shown (" + works.length + ")"));
    if (!works.length) { frag.appendChild(el("p", "None in this graph.", "kg-hint")); }
    var wl = el("ul", null, "kg-works");
    works.forEach(function (x) {
      var li = el("li", null, "kg-work");
      li.appendChild(el("div", x.work.title, "kg-work-title"));
      var meta = workMeta(x.work);
      if (meta) { li.appendChild(el("div", meta, "kg-meta")); }
      li.appendChild(el("div", "with " + x.with.join(", "), "kg-meta"));
      wl.appendChild(li);
    });
    frag.appendChild(wl);
    var coauthors = adjacency.get(id).filter(function (e) { return e.kind === "coauthor"; });
    if (coauthors.length) {
      coauthors.sort(function (p, q) { return q.joint - p.joint || (byId.get(other(p, id)).name < byId.get(other(q, id)).name ? -1 : 1); });
      frag.appendChild(el("h3", "Co-authors (" + coauthors.length + ")"));
      var cl = el("ul", null, "kg-plain");
      coauthors.forEach(function (e) {
        var li = el("li");
        var b = linkButton(other(e, id));
        b.appendChild(el("span", plural(e.joint, "joint work", "joint works"), "kg-kind"));
        li.appendChild(b);
        cl.appendChild(li);
      });
      frag.appendChild(cl);
    }
    panel.replaceChildren(frag);
    panel.dataset.node = String(id);
    panel.scrollTop = 0;
  }
  function clearPanel() {
    panel.replaceChildren(el("p", "Click a node to see its works and links here.", "kg-hint"));
    delete panel.dataset.node;
  }

  function select(id, move) {
    if (!byId.has(id)) { return; }
    if (!shownNodes.has(id)) { resetFilters(); }
    highlight(id);
    fillPanel(id);
    if (move) { network.focus(id, {scale: Math.max(network.getScale(), 1.0), animation: false}); }
  }
  api.select = function (id) { select(id, true); };

  network.on("click", function (p) {
    hideTooltip();
    if (p.nodes.length) { select(p.nodes[0], false); }
    else if (!p.edges.length) { unhighlight(); clearPanel(); }
  });

  // ---------------------------------------------------------------- search
  var search = document.getElementById("kg-search");
  var results = document.getElementById("kg-results");
  var folded = DATA.nodes.map(function (n) { return {id: n.id, text: fold(n.name), kind: n.kind}; });
  var KIND_ORDER = {profiled: 0, coauthor: 1, organization: 2};
  var active = -1;
  // edits (insert, delete, replace, swap two neighbours) from a to b, stopping once over max
  function edits(a, b, max) {
    if (Math.abs(a.length - b.length) > max) { return max + 1; }
    var prev2 = null, prev = [], i, j;
    for (j = 0; j <= b.length; j++) { prev.push(j); }
    for (i = 1; i <= a.length; i++) {
      var row = [i], best = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a.charAt(i - 1) === b.charAt(j - 1) ? 0 : 1;
        var v = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
        if (prev2 && i > 1 && j > 1 && a.charAt(i - 1) === b.charAt(j - 2) && a.charAt(i - 2) === b.charAt(j - 1)) {
          v = Math.min(v, prev2[j - 2] + 1);
        }
        row.push(v);
        best = Math.min(best, v);
      }
      if (best > max) { return max + 1; }
      prev2 = prev; prev = row;
    }
    return prev[b.length];
  }
  // a typed word of four letters or more matches a name word (or its start) one edit away
  function nearWord(word, text) {
    if (word.length < 4) { return false; }
    return text.split(/[^a-z0-9]+/).some(function (t) {
      if (!t) { return false; }
      for (var n = word.length - 1; n <= word.length + 1; n++) {
        if (n > 0 && n <= t.length && edits(word, t.slice(0, n), 1) <= 1) { return true; }
      }
      return false;
    });
  }
  // every word typed must occur in the name; names where the words start a word come first;
  // when no name has them all, names one typo away from each word (as the command line forgives)
  function matches(query) {
    var words = fold(query).split(/\s+/).filter(Boolean);
    if (!words.length) { return []; }
    var exact = exactMatches(words);
    if (exact.length) { return exact; }
    var hits = [];
    folded.forEach(function (f) {
      if (words.every(function (w) { return f.text.indexOf(w) >= 0 || nearWord(w, f.text); })) {
        hits.push({id: f.id, text: f.text, kind: f.kind, rank: 2, near: true});
      }
    });
    hits.sort(function (a, b) {
      return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.text < b.text ? -1 : a.text > b.text ? 1 : a.id - b.id);
    });
    return hits;
  }
  function exactMatches(words) {
    var hits = [];
    folded.forEach(function (f) {
      if (!words.every(function (w) { return f.text.indexOf(w) >= 0; })) { return; }
      var starts = words.every(function (w) {
        var i = f.text.indexOf(w);
        while (i >= 0) {
          if (i === 0 || /[^a-z0-9]/.test(f.text.charAt(i - 1))) { return true; }
          i = f.text.indexOf(w, i + 1);
        }
        return false;
      });
      hits.push({id: f.id, text: f.text, kind: f.kind, rank: starts ? 0 : 1});
    });
    hits.sort(function (a, b) {
      return a.rank - b.rank || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
        (a.text < b.text ? -1 : a.text > b.text ? 1 : a.id - b.id);
    });
    return hits;
  }
  function showResults() {
    var hits = matches(search.value);
    results.replaceChildren();
    active = -1;
    if (!search.value.trim()) { results.hidden = true; return; }
    if (!hits.length) {
      results.appendChild(el("li", "No name contains \u201c" + search.value.trim() + "\u201d", "kg-hint"));
    } else if (hits[0].near) {
      results.appendChild(el("li", "No name contains \u201c" + search.value.trim() + "\u201d; close matches:", "kg-hint"));
    }
    hits.slice(0, 20).forEach(function (h) {
      var li = el("li");
      li.setAttribute("role", "option");
      var b = linkButton(h.id);
      b.addEventListener("click", function () { results.hidden = true; });
      li.appendChild(b);
      results.appendChild(li);
    });
    if (hits.length > 20) { results.appendChild(el("li", "and " + (hits.length - 20) + " more", "kg-more")); }
    results.hidden = false;
  }
  function moveActive(step) {
    var items = Array.prototype.slice.call(results.querySelectorAll("li[role=option]"));
    if (!items.length) { return; }
    if (active >= 0 && items[active]) { items[active].classList.remove("kg-active"); }
    active = (active + step + items.length) % items.length;
    items[active].classList.add("kg-active");
    items[active].scrollIntoView({block: "nearest"});
  }
  search.addEventListener("input", showResults);
  search.addEventListener("focus", showResults);
  search.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowDown") { moveActive(1); ev.preventDefault(); }
    else if (ev.key === "ArrowUp") { moveActive(-1); ev.preventDefault(); }
    else if (ev.key === "Escape") { results.hidden = true; }
    else if (ev.key === "Enter") {
      var items = results.querySelectorAll("li[role=option] button");
      var pick = items[active >= 0 ? active : 0];
      if (pick) { pick.click(); results.hidden = true; }
      ev.preventDefault();
    }
  });
  document.addEventListener("click", function (ev) {
    if (!results.contains(ev.target) && ev.target !== search) { results.hidden = true; }
  });
  api.search = matches;

  // ---------------------------------------------------------------- wiring filters
  function applyFilters() {
    keepPositions();
    computeShown();
    nodeView.refresh();
    edgeView.refresh();
    if (highlighted !== null && !shownNodes.has(highlighted)) { unhighlight(); clearPanel(); }
    showStatus();
  }
  function resetFilters() {
    resetInputs();
    applyFilters();
  }
  api.applyFilters = applyFilters;
  [inputFrom, inputTo, inputJoint].forEach(function (i) { i.addEventListener("input", applyFilters); });
  kindBoxes.forEach(function (b) { b.addEventListener("change", applyFilters); });
  // Reset: filters, search, selection and the hover card all go back to how the page opened
  document.getElementById("kg-reset").addEventListener("click", function () {
    resetFilters(); unhighlight(); network.unselectAll(); hideTooltip(); clearPanel();
    search.value = ""; results.replaceChildren(); results.hidden = true;
    network.fit({animation: false});
  });

  var note = document.getElementById("kg-note");
  if (DATA.note) { note.textContent = DATA.note; note.hidden = false; }
  if (FOCUS !== null && byId.has(FOCUS)) { fillPanel(FOCUS); }
  resetInputs();
  showStatus();

  // ---------------------------------------------------------------- settle
  if (DATA.physics && DATA.nodes.length > 1) {
    network.once("stabilizationIterationsDone", function () {
      network.setOptions({physics: {enabled: false}});
      keepPositions();
      network.fit({animation: false});
      markReady();
    });
    network.stabilize(DATA.physicsIterations || 250);
  } else {
    network.once("afterDrawing", markReady);
    network.fit({animation: false});
    network.redraw();
    if (DATA.nodes.length === 0) { markReady(); }
  }
}());
