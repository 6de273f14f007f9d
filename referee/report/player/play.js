// The player: a Hashi board to solve by mouse, touch or keyboard, every move checked here.
// The page's rules (in line, nothing in between, no crossing, not past an island's value) are
// written again in this file; the solver's work was done in Python when the page was built:
// each puzzle may carry `solution` (links) and `hints` (the sure links in the order the
// explainer proved them, each with its rule and sentence), which hint, check and solve read.
"use strict";

const DATA = JSON.parse(document.getElementById("play-data").textContent);
const NS = "http://www.w3.org/2000/svg";
const CELL = 40, RADIUS = 15, GAP = 5;          // SVG units
const MARGIN = 30, PAD = 6;                      // the band of row and column numbers; the far edge
const MIN_CELLS = 5;                             // zoomed in, the view still holds this many cells
const ZOOM_STEP = 1.4;
const LEVELS = {easy: "easy: rules only", medium: "medium: needs elimination",
                hard: "hard: needs search", unknown: "unknown: over the solver's budget"};
const SOLVE_MS = 30;                             // between links when "solve" plays them in
const STORE = "spoon2-play/";
const DIRS = [[1, 0], [0, 1], [-1, 0], [0, -1]]; // right, down, left, up
const KEY_DIRS = {ArrowRight: 0, ArrowDown: 1, ArrowLeft: 2, ArrowUp: 3};

let game = null;      // the open puzzle: geometry, links, history, selection
let solving = null;   // the timer of a "solve" being played in
let view = null;      // the part of the board shown, in SVG units: {x, y, w, h}
const pointers = new Map();   // the pointers down on the board: id -> {x, y}
let gesture = null;   // a pan (one pointer on empty board) or a pinch (two pointers)

function $(id) { return document.getElementById(id); }

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

// ---- geometry: islands, their neighbours, what lies between -------------------------

function geometry(p) {
  const nodes = [], at = new Map();
  p.rows.forEach((row, y) => [...row].forEach((c, x) => {
    if (c !== ".") { at.set(x + "," + y, nodes.length); nodes.push({x, y, v: +c}); }
  }));
  // The nearest island in each direction: the only one a link can reach that way.
  const next = nodes.map(n => DIRS.map(([dx, dy]) => {
    for (let x = n.x + dx, y = n.y + dy; x >= 0 && y >= 0 && x < p.w && y < p.h; x += dx, y += dy) {
      if (at.has(x + "," + y)) return at.get(x + "," + y);
    }
    return -1;
  }));
  return {nodes, at, next};
}

function cell(n) { return `(${n.x},${n.y})`; }
function pairKey(a, b) { return a < b ? a + "-" + b : b + "-" + a; }
function ends(k) { return k.split("-").map(Number); }

function held(i) {
  let sum = 0;
  for (const [k, n] of game.links) { const [a, b] = ends(k); if (a === i || b === i) sum += n; }
  return sum;
}

// True when segments a-b and c-d (each horizontal or vertical) cross inside both.
function crosses(a, b, c, d) {
  const N = game.nodes;
  const [h1, h2, v1, v2] = N[a].y === N[b].y ? [a, b, c, d] : [c, d, a, b];
  if (N[h1].y !== N[h2].y || N[v1].x !== N[v2].x || N[v1].y === N[v2].y) return false;
  const y = N[h1].y, x = N[v1].x;
  return Math.min(N[h1].x, N[h2].x) < x && x < Math.max(N[h1].x, N[h2].x) &&
         Math.min(N[v1].y, N[v2].y) < y && y < Math.max(N[v1].y, N[v2].y);
}

// The move a click on a then b asks for: {links: the pair's new count} or {reason}.
function judge(a, b) {
  const N = game.nodes, A = N[a], B = N[b];
  if (a === b) return {reason: "choose a second island"};
  if (A.x !== B.x && A.y !== B.y) return {reason: `${cell(A)} and ${cell(B)} are not in one row or column`};
  const d = DIRS.findIndex(([dx, dy]) => Math.sign(B.x - A.x) === dx && Math.sign(B.y - A.y) === dy);
  const near = game.next[a][d];
  if (near !== b) return {reason: `a link from ${cell(A)} to ${cell(B)} would pass over the island at ${cell(N[near])}`};
  const k = pairKey(a, b), now = game.links.get(k) || 0, want = (now + 1) % 3;
  if (want === 0) return {links: 0};
  for (const i of [a, b]) {
    if (held(i) + 1 > N[i].v) {
      return {reason: `${cell(N[i])} is a ${N[i].v} and already has ${held(i)} link${held(i) === 1 ? "" : "s"}: ` +
                      `one more would take it over (tap a link to remove it)`};
    }
  }
  for (const [other, n] of game.links) {
    const [c, e] = ends(other);
    if (n && crosses(a, b, c, e)) {
      return {reason: `${cell(A)}-${cell(B)} would cross the link ${cell(N[c])}-${cell(N[e])}`};
    }
  }
  return {links: want};
}

// ---- moves, undo, redo ------------------------------------------------------------

function setLinks(k, n) { if (n) game.links.set(k, n); else game.links.delete(k); }

function play(k, n, note) {
  const was = game.links.get(k) || 0;
  if (was === n) return;
  game.history.push([k, was, n]);
  game.redo = [];
  setLinks(k, n);
  game.marked = new Set([k]);
  game.wrong = new Set();
  after(note || "");
}

function tryMove(a, b) {
  const verdict = judge(a, b);
  if (verdict.reason) { status(verdict.reason, "refused"); game.marked = new Set([pairKey(a, b)]); draw(); return false; }
  play(pairKey(a, b), verdict.links);
  return true;
}

function undo() { shift(game.history, game.redo, 1, "undo", "undone"); }
function redo() { shift(game.redo, game.history, 2, "redo", "redone"); }

// A change moved from one stack to the other, its pair's links set as they were before it
// (side 1) or after it (side 2).
function shift(from, to, side, verb, done) {
  const last = from.pop();
  if (!last) return status(`nothing to ${verb}`, "");
  setLinks(last[0], last[side]);
  to.push(last);
  game.marked = new Set([last[0]]);
  after(done);
}

// After any change: the win check, the drawing, the saved state.
function after(note) {
  const N = game.nodes;
  const full = N.every((n, i) => held(i) === n.v);
  if (full && connected()) {
    if (!game.won) game.won = {ms: Date.now() - game.start, helped: game.helped};
    status(winText(), "won");
  } else {
    game.won = null;
    status(note, note.startsWith("hint") ? "hint" : "");
  }
  draw();
  save();
}

function connected() {
  const seen = new Set([0]), todo = [0];
  while (todo.length) {
    const i = todo.pop();
    for (const [k] of game.links) {
      const [a, b] = ends(k), j = a === i ? b : b === i ? a : -1;
      if (j >= 0 && !seen.has(j)) { seen.add(j); todo.push(j); }
    }
  }
  return seen.size === game.nodes.length;
}

function winText() {
  const s = Math.round(game.won.ms / 1000);
  const time = s >= 60 ? `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s` : `${s} s`;
  const help = game.won.helped ? ` (with ${game.won.helped} hint${game.won.helped === 1 ? "" : "s"} or the solver)` : "";
  return `Solved! Every island is full and all are one group, in ${time}${help}.`;
}

// ---- the solver's work, embedded: hint, check, solve -----------------------------------

function solutionOf(p) {
  const sol = new Map();
  for (const [x1, y1, x2, y2, n] of p.solution) {
    sol.set(pairKey(game.at.get(x1 + "," + y1), game.at.get(x2 + "," + y2)), n);
  }
  return sol;
}

function wrongLinks() {
  const sol = solutionOf(game.p);
  return [...game.links].filter(([k, n]) => n > (sol.get(k) || 0)).map(([k]) => k);
}

function hint() {
  if (!game.p.hints) return status("this page has no solver data for this puzzle: build it with `python -m referee play`", "refused");
  const wrong = wrongLinks();
  if (wrong.length) {
    game.wrong = new Set(wrong);
    draw();
    return status(`first take back ${wrong.length === 1 ? "the link" : "the " + wrong.length + " links"} marked in red: ` +
                  (game.p.unique ? "no solution holds them" : "the solution the hints follow does not hold them"), "refused");
  }
  for (const [x1, y1, x2, y2, value, rule, sentence] of game.p.hints) {
    const k = pairKey(game.at.get(x1 + "," + y1), game.at.get(x2 + "," + y2));
    if ((game.links.get(k) || 0) < value) {
      game.helped += 1;
      play(k, value, `hint (${rule}): ${sentence}`);
      return reveal(k);
    }
  }
  status("no hint left: every sure link is on the board", "");
}

function check() {
  if (!game.p.solution) return status("this page has no solver data for this puzzle", "refused");
  const wrong = wrongLinks();
  game.wrong = new Set(wrong);
  draw();
  const which = game.p.unique ? "no solution holds" : "the solver's solution does not hold (this puzzle has several)";
  status(wrong.length ? `${wrong.length} link${wrong.length === 1 ? "" : "s"} in red: ${which} them`
                      : "every link on the board is in the solution", wrong.length ? "refused" : "");
}

function solve() {
  if (!game.p.solution) return status("this page has no solver data for this puzzle", "refused");
  if (solving) return;
  const sol = solutionOf(game.p);
  const todo = wrongLinks().map(k => [k, Math.min(game.links.get(k), sol.get(k) || 0)]);
  for (const [k, n] of sol) if ((game.links.get(k) || 0) < n) todo.push([k, n]);
  game.helped += 1;
  const stepOnce = () => {
    const next = todo.shift();
    if (!next) { solving = null; return; }
    play(next[0], next[1], "the solver plays its solution in");
    solving = setTimeout(stepOnce, SOLVE_MS);
  };
  stepOnce();
}

// ---- drawing --------------------------------------------------------------------

function draw() {
  const {p, nodes} = game, svg = $("board");
  svg.textContent = "";
  const pos = i => [nodes[i].x * CELL + CELL / 2, nodes[i].y * CELL + CELL / 2];
  for (const [k, n] of game.links) {
    const [a, b] = ends(k), [x1, y1] = pos(a), [x2, y2] = pos(b);
    const g = el("g", {class: "link" + (n === 2 ? " double" : "") + (game.marked.has(k) ? " last" : "") +
                              (game.wrong.has(k) ? " wrong" : ""), "data-k": k}, svg);
    const horizontal = y1 === y2;
    const offsets = n === 2 ? [-GAP, GAP] : [0];
    for (const o of offsets) {
      el("line", horizontal ? {x1, y1: y1 + o, x2, y2: y2 + o} : {x1: x1 + o, y1, x2: x2 + o, y2}, g);
    }
    el("line", {x1, y1, x2, y2, class: "hit"}, g);       // a wide, invisible target to tap
    g.addEventListener("click", () => {
      if (!solving && !(gesture && gesture.moved)) play(k, 0, `removed ${cell(nodes[a])}-${cell(nodes[b])}`);
    });
  }
  nodes.forEach((n, i) => {
    const has = held(i), state = has < n.v ? "short" : has === n.v ? "full" : "over";
    const [cx, cy] = pos(i);
    const g = el("g", {class: `node ${state}` + (game.sel === i ? " selected" : "") +
                              (game.cursor === i ? " cursor" : ""), "data-i": i}, svg);
    el("circle", {cx, cy, r: RADIUS}, g);
    const t = el("text", {x: cx, y: cy + 3}, g);
    t.textContent = n.v;
    const small = el("text", {x: cx, y: cy + 11.5, class: "count"}, g);
    small.textContent = `${has}/${n.v}`;
    el("title", {}, g).textContent = `${cell(n)}: ${has} of ${n.v} links`;
  });
  drawCoordinates(svg, p);
  applyView();
  const short = nodes.filter((n, i) => held(i) < n.v).length;
  $("progress").textContent = `${nodes.length - short}/${nodes.length} islands full, ` +
    `${game.history.length} move${game.history.length === 1 ? "" : "s"}`;
  $("btn-undo").disabled = !game.history.length;
  $("btn-redo").disabled = !game.redo.length;
  for (const id of ["btn-hint", "btn-check", "btn-solve"]) $(id).disabled = !game.p.solution;
}

// Column numbers along the top, row numbers down the left: the (column,row) that hints and
// messages name. Each band stays at the edge of the view when the board is panned.
function drawCoordinates(svg, p) {
  const rows = el("g", {class: "coord rows"}, svg), cols = el("g", {class: "coord cols"}, svg);
  el("rect", {x: -MARGIN, y: -MARGIN, width: MARGIN, height: p.h * CELL + MARGIN + PAD}, rows);
  el("rect", {x: -MARGIN, y: -MARGIN, width: p.w * CELL + MARGIN + PAD, height: MARGIN}, cols);
  for (let x = 0; x < p.w; x++) {
    el("text", {x: x * CELL + CELL / 2, y: -MARGIN / 2 + 6, "data-x": x}, cols).textContent = x;
  }
  for (let y = 0; y < p.h; y++) {
    el("text", {x: -MARGIN / 2, y: y * CELL + CELL / 2 + 6, "data-y": y}, rows).textContent = y;
  }
  const corner = el("g", {class: "coord corner"}, svg);   // where the two bands meet
  el("rect", {x: -MARGIN, y: -MARGIN, width: MARGIN, height: MARGIN}, corner);
}

// ---- zoom and pan: the SVG's viewBox, inside the stage the page leaves for the board -----

// The whole board with its numbers, widened or lengthened to the stage's shape (centred
// across, at the top), so that zoomed in the view fills the stage and nothing shows
// beyond the numbers' bands.
function fitView() {
  const p = game.p, w = p.w * CELL + MARGIN + PAD, h = p.h * CELL + MARGIN + PAD;
  const r = $("stage").getBoundingClientRect();
  const shape = r.width > 0 && r.height > 0 ? r.height / r.width : h / w;
  if (h / w < shape) return {x: -MARGIN, y: -MARGIN, w, h: w * shape};
  return {x: -MARGIN - (h / shape - w) / 2, y: -MARGIN, w: h / shape, h};
}

// Zoomed no further out than the whole board nor further in than MIN_CELLS cells, and
// panned no further than its edges. The aspect stays the fit's, so the page's scale is
// the same along both axes.
function clampView(v) {
  const fit = fitView();
  const w = Math.min(fit.w, Math.max(v.w, Math.min(fit.w, MIN_CELLS * CELL + MARGIN)));
  const h = w * fit.h / fit.w;
  return {w, h, x: Math.min(Math.max(v.x, fit.x), fit.x + fit.w - w),
          y: Math.min(Math.max(v.y, fit.y), fit.y + fit.h - h)};
}

function applyView() {
  view = clampView(view || fitView());
  const svg = $("board");
  svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
  const cols = svg.querySelector(".coord.cols"), rows = svg.querySelector(".coord.rows");
  if (cols) cols.setAttribute("transform", `translate(0 ${Math.max(0, view.y + MARGIN)})`);
  if (rows) rows.setAttribute("transform", `translate(${Math.max(0, view.x + MARGIN)} 0)`);
  const corner = svg.querySelector(".coord.corner");
  if (corner) corner.setAttribute("transform", `translate(${Math.max(0, view.x + MARGIN)} ${Math.max(0, view.y + MARGIN)})`);
}

// SVG units per screen pixel, and the screen point of the view's corner (the page's
// preserveAspectRatio, "xMidYMin meet", centres it across and puts it at the top).
function metrics(v) {
  const r = $("board").getBoundingClientRect();
  const k = Math.max(v.w / r.width, v.h / r.height);
  return {k, ox: r.left + (r.width - v.w / k) / 2, oy: r.top};
}

// The view `base` zoomed by `factor` about the screen point (cx, cy), which stays put.
function zoomed(base, factor, cx, cy) {
  const {k, ox, oy} = metrics(base);
  const px = base.x + (cx - ox) * k, py = base.y + (cy - oy) * k;
  const next = clampView({x: 0, y: 0, w: base.w / factor, h: base.h / factor});
  const f = base.w / next.w;
  return clampView({x: px - (px - base.x) / f, y: py - (py - base.y) / f, w: next.w, h: next.h});
}

function zoomBy(factor) {
  const r = $("board").getBoundingClientRect();
  view = zoomed(view, factor, r.left + r.width / 2, r.top + r.height / 2);
  applyView();
}

function fit() { view = fitView(); applyView(); }

// Bring a link into view when a hint or the solver places it out of sight.
function reveal(k) {
  const [a, b] = ends(k), N = game.nodes;
  const inView = i => {
    const x = N[i].x * CELL + CELL / 2, y = N[i].y * CELL + CELL / 2;
    return x > view.x + MARGIN && x < view.x + view.w && y > view.y + MARGIN && y < view.y + view.h;
  };
  if (inView(a) && inView(b)) return;
  const cx = (N[a].x + N[b].x + 1) * CELL / 2, cy = (N[a].y + N[b].y + 1) * CELL / 2;
  view = clampView({x: cx - view.w / 2, y: cy - view.h / 2, w: view.w, h: view.h});
  applyView();
}

function onWheel(event) {
  event.preventDefault();
  view = zoomed(view, Math.exp(-event.deltaY * 0.0015), event.clientX, event.clientY);
  applyView();
}

function startGesture() {
  const [a, b] = [...pointers.values()];
  if (b) {   // two fingers: pinch, the view and their midpoint and spread at the start
    game.drag = null;
    gesture = {pinch: true, view, mid: [(a.x + b.x) / 2, (a.y + b.y) / 2],
               spread: Math.hypot(a.x - b.x, a.y - b.y) || 1, moved: true};
  } else {
    gesture = {pinch: false, view, at: [a.x, a.y], moved: false};
  }
}

function onPointerMove(event) {
  if (!pointers.has(event.pointerId)) return;
  pointers.set(event.pointerId, {x: event.clientX, y: event.clientY});
  if (!gesture) return;
  const [a, b] = [...pointers.values()];
  if (gesture.pinch && b) {
    const mid = [(a.x + b.x) / 2, (a.y + b.y) / 2];
    const next = zoomed(gesture.view, Math.hypot(a.x - b.x, a.y - b.y) / gesture.spread, ...gesture.mid);
    const {k} = metrics(next);
    view = clampView({...next, x: next.x - (mid[0] - gesture.mid[0]) * k,
                      y: next.y - (mid[1] - gesture.mid[1]) * k});
  } else if (!gesture.pinch) {
    const dx = event.clientX - gesture.at[0], dy = event.clientY - gesture.at[1];
    if (Math.abs(dx) + Math.abs(dy) > 4) gesture.moved = true;
    if (!gesture.moved) return;
    const {k} = metrics(gesture.view);
    view = clampView({...gesture.view, x: gesture.view.x - dx * k, y: gesture.view.y - dy * k});
    $("board").classList.add("panning");
  }
  applyView();
}

function endPointer(event) {
  pointers.delete(event.pointerId);
  $("board").classList.remove("panning");
  if (pointers.size === 0) setTimeout(() => { if (!pointers.size) gesture = null; }, 0);  // after the click
  else if (gesture && gesture.pinch) startGesture();   // one finger left: it pans on
}

function status(text, kind) {
  const s = $("status");
  s.textContent = text;
  s.className = "status " + (kind || "");
}

// ---- input: click or tap two islands, drag from one to another, or the keyboard -------

function nodeAt(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const g = target && target.closest ? target.closest("g.node") : null;
  return g ? +g.getAttribute("data-i") : -1;
}

function choose(i) {
  if (game.sel === null || game.sel === i) {
    game.sel = game.sel === i ? null : i;
    game.cursor = i;
    status(game.sel === null ? "" : `${cell(game.nodes[i])} chosen: now an island in line with it`, "");
    draw();
    return;
  }
  const from = game.sel;
  game.sel = null;
  game.cursor = i;
  tryMove(from, i);
}

function onPointerDown(event) {
  pointers.set(event.pointerId, {x: event.clientX, y: event.clientY});
  const i = nodeAt(event);
  if (pointers.size === 1 && i >= 0) { gesture = null; game.drag = solving ? null : i; return; }
  startGesture();   // on empty board (or a link): pan; a second finger: pinch
}

function onPointerUp(event) {
  const wasPinch = gesture && gesture.pinch;
  endPointer(event);
  if (wasPinch || solving || game.drag === null || game.drag === undefined) return;
  const from = game.drag, to = nodeAt(event);
  game.drag = null;
  if (to < 0) return;
  if (to !== from) { game.sel = null; game.cursor = to; tryMove(from, to); }
  else choose(to);
}

function onKey(event) {
  if (event.target.tagName === "SELECT" || solving) return;
  const key = event.key, ctrl = event.ctrlKey || event.metaKey;
  if ((ctrl && key.toLowerCase() === "z" && !event.shiftKey) || (!ctrl && key === "u")) undo();
  else if ((ctrl && (key.toLowerCase() === "y" || (key.toLowerCase() === "z" && event.shiftKey))) || (!ctrl && key === "r")) redo();
  else if (!ctrl && key === "h") hint();
  else if (!ctrl && key === "c") check();
  else if (!ctrl && (key === "+" || key === "=")) zoomBy(ZOOM_STEP);
  else if (!ctrl && key === "-") zoomBy(1 / ZOOM_STEP);
  else if (!ctrl && key === "0") fit();
  else if (key in KEY_DIRS) {
    if (game.cursor === null) game.cursor = 0;
    const next = game.next[game.cursor][KEY_DIRS[key]];
    if (next < 0) { status("no island that way", ""); event.preventDefault(); return; }
    if (event.shiftKey) tryMove(game.cursor, next);   // Shift+arrow: link that way
    else { game.cursor = next; draw(); }
  } else if (key === " " || key === "Enter") {
    if (game.cursor === null) game.cursor = 0;
    choose(game.cursor);
  } else if (key === "Escape") { game.sel = null; draw(); }
  else return;
  event.preventDefault();
}

// ---- puzzles: the picker, the saved state, a position from the address -------------------

function storeKey(p) { return STORE + p.name + "/" + p.rows.join("/"); }

function save() {
  try {
    localStorage.setItem(storeKey(game.p), JSON.stringify({
      links: [...game.links], history: game.history, redo: game.redo,
      start: game.start, won: game.won, helped: game.helped}));
    localStorage.setItem(STORE + "last", game.p.name);
  } catch (e) { /* storage full or disabled: the game goes on unsaved */ }
}

function load(i, links) {
  if (solving) { clearTimeout(solving); solving = null; }
  const p = DATA.puzzles[i];
  game = Object.assign(geometry(p), {p, index: i, links: new Map(), history: [], redo: [], sel: null,
                                     cursor: null, drag: null, marked: new Set(), wrong: new Set(),
                                     start: Date.now(), won: null, helped: 0});
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(storeKey(p)) || "null"); } catch (e) { saved = null; }
  if (!links && !saved && p.position) links = p.position;   // a lost match's page opened on its own
  if (links) {
    for (const [x1, y1, x2, y2, n] of links) {
      const a = game.at.get(x1 + "," + y1), b = game.at.get(x2 + "," + y2);
      if (a !== undefined && b !== undefined) game.links.set(pairKey(a, b), (game.links.get(pairKey(a, b)) || 0) + n);
    }
  } else if (saved) {
    game.links = new Map(saved.links);
    Object.assign(game, {history: saved.history, redo: saved.redo, start: saved.start,
                         won: saved.won, helped: saved.helped || 0});
  }
  $("puzzle").value = String(i);
  view = null;   // a new board opens whole
  $("title").textContent = `${p.name}: ${p.w}x${p.h}, ${game.nodes.length} islands` +
    (p.difficulty ? `, ${levelText(p.difficulty)}` : "") + (p.unique === false ? ", several solutions" : "");
  if (game.won) { status(winText(), "won"); draw(); }
  else after(links ? "the position from the report: the links placed before the losing line" : "");
}

// What a grade means to a player: the deepest reasoning the solver needed.
function levelText(level) { return LEVELS[level] || level; }

function fillPicker() {
  const sizes = [...new Set(DATA.puzzles.map(p => p.w + "x" + p.h))];
  const levels = [...new Set(DATA.puzzles.map(p => p.difficulty).filter(Boolean))];
  $("size").append(option("", "any size"), ...sizes.map(s => option(s, s)));
  $("difficulty").append(option("", "any difficulty"), ...levels.map(d => option(d, levelText(d))));
  filter();
}

function filter() {
  const size = $("size").value, level = $("difficulty").value, pick = $("puzzle");
  pick.textContent = "";
  DATA.puzzles.forEach((p, i) => {
    if ((!size || p.w + "x" + p.h === size) && (!level || p.difficulty === level)) {
      pick.append(option(String(i), `${p.name} (${p.w}x${p.h}${p.difficulty ? ", " + levelText(p.difficulty) : ""})`));
    }
  });
}

// "#NAME" opens a puzzle; "#NAME&links=x1,y1,x2,y2,n;..." opens it with those links placed.
function fromAddress() {
  const raw = decodeURIComponent(location.hash.slice(1));
  if (!raw) return false;
  const [name, ...rest] = raw.split("&");
  const i = DATA.puzzles.findIndex(p => p.name === name);
  if (i < 0) return false;
  const spec = rest.find(r => r.startsWith("links="));
  const links = spec ? spec.slice(6).split(";").filter(Boolean).map(l => l.split(",").map(Number)) : null;
  load(i, links);
  // A reload then resumes the saved game rather than reopening the position.
  if (links) history.replaceState(null, "", location.pathname + location.search + "#" + encodeURIComponent(name));
  return true;
}

function restart() {
  if (solving) { clearTimeout(solving); solving = null; }
  try { localStorage.removeItem(storeKey(game.p)); } catch (e) { /* nothing saved */ }
  load(game.index);
}

function init() {
  fillPicker();
  $("size").addEventListener("change", () => { filter(); if ($("puzzle").options.length) load(+$("puzzle").value); });
  $("difficulty").addEventListener("change", () => { filter(); if ($("puzzle").options.length) load(+$("puzzle").value); });
  $("puzzle").addEventListener("change", () => load(+$("puzzle").value));
  const actions = {undo, redo, hint, check, solve, restart, fit,
                   "zoom-in": () => zoomBy(ZOOM_STEP), "zoom-out": () => zoomBy(1 / ZOOM_STEP)};
  for (const name in actions) $("btn-" + name).addEventListener("click", () => actions[name]());
  const svg = $("board");
  svg.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", endPointer);
  svg.addEventListener("wheel", onWheel, {passive: false});
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", fromAddress);
  window.addEventListener("resize", () => { if (game) applyView(); });
  if (fromAddress()) return;
  let last = -1;
  try { last = DATA.puzzles.findIndex(p => p.name === localStorage.getItem(STORE + "last")); } catch (e) { last = -1; }
  load(last >= 0 ? last : 0);
}

init();
