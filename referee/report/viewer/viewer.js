// The match viewer: reads the run's JSON blob once, draws a match's SVG when it is opened.
// A match's links were judged by the referee's rules in Python: `steps` holds the accepted
// links in order (x1,y1,x2,y2,n flat), `bad` the losing link if the rules named one.
// Frame f shows the board after output line f; the last frame shows the deciding line.
"use strict";

const RUN = JSON.parse(document.getElementById("run-data").textContent);
const NS = "http://www.w3.org/2000/svg";
const CELL = 40;                 // SVG units per cell
const RADIUS = 15;               // node circle
const RING = RADIUS + 4;         // the ring around a losing link's ends (its stroke: 4)
const MARGIN = RING + 5;         // from an edge island's centre to the board's edge: its ring whole
const GAP = 5;                   // half the distance between the two strokes of a double link
const PLAY_MS = 120;             // delay between frames when playing
const BOARD_PX = 720, CELL_PX = 44;   // the board's width on the page: at most, per cell

let view = null;                 // the open match: {i, m, frame, nodes, ...}
let timer = null;

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function h(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function limitFor(line) {          // 1-based output line
  return line === 1 ? RUN.limits.first_line_ms : RUN.limits.turn_ms;
}

function ms(v) {
  if (v < 0.001) return "<0.001";
  return v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v.toFixed(3);
}

function placedCount(m) { return m.steps.length / 5; }

function linkText(s, k) {
  return `(${s[k]},${s[k + 1]})-(${s[k + 2]},${s[k + 3]}) x${s[k + 4]}`;
}

// A lost match's position in the player page `run --html` writes beside this one.
function playerLink(m) {
  const page = location.pathname.split("/").pop().replace(/\.[^.]*$/, "") + ".play.html";  // as Path.with_suffix
  const links = [];
  for (let k = 0; k < m.steps.length; k += 5) links.push(m.steps.slice(k, k + 5).join(","));
  const a = h("a", {id: "play-link", href: page + "#" + encodeURIComponent(m.name + "&links=" + links.join(";"))},
              "open this position in the player");
  const p = h("p", {class: "replay"});
  p.append(a);
  return p;
}

// ---- opening a match -------------------------------------------------------------

function openMatch(i) {
  stop();
  const m = RUN.matches[i];
  const pane = document.getElementById("matchpane");
  pane.textContent = "";
  const title = h("h2");
  title.append(h("span", {}, m.name + " "),
               h("span", {class: "verdict " + (m.won ? "win" : "lost")}, m.verdict));
  if (m.bot) title.append(h("span", {class: "bot", id: "match-bot"}, " bot " + m.bot));
  pane.append(title);
  if (m.others && m.others.length) {          // the other bots' matches on this puzzle
    const others = h("p", {class: "others"});
    for (const j of m.others) {
      const o = RUN.matches[j];
      others.append(h("a", {href: "#" + j, class: "other"}, `bot ${o.bot}: ${o.verdict}` +
                      (o.lat.length ? `, first line ${ms(o.lat[0])} ms` : "")));
    }
    pane.append(others);
  }
  const where = m.line !== null ? `at line ${m.turn}` : `awaiting line ${m.turn}`;
  pane.append(h("p", {class: "reason"}, `${where}: ${m.reason}`));
  if (m.replay) pane.append(h("p", {class: "replay mono"}, m.replay));
  if (!m.won) pane.append(playerLink(m));

  const controls = h("div", {class: "controls"});
  const buttons = [["first", "|\u25C0", () => go(0)], ["prev", "\u25C0", () => go(view.frame - 1)],
                   ["play", "play", togglePlay], ["next", "\u25B6", () => go(view.frame + 1)],
                   ["last", "\u25B6|", () => go(m.frames)]];
  for (const [id, label, action] of buttons) {
    const b = h("button", {id: "btn-" + id, title: id}, label);
    b.addEventListener("click", action);
    controls.append(b);
  }
  const slider = h("input", {type: "range", id: "turn", min: 0, max: m.frames, value: m.frames});
  slider.addEventListener("input", () => go(+slider.value));
  const frameLabel = h("span", {class: "frame mono", id: "frame"});
  controls.append(slider, frameLabel);
  pane.append(controls);
  const status = h("p", {class: "status", id: "status"});
  pane.append(status);

  const chart = drawChart(m);
  pane.append(chart.svg);
  const board = drawBoard(m);
  pane.append(board.svg);
  const legend = h("div", {class: "legend"});
  legend.innerHTML = '<span><i style="background:#e6f4ea;border:2px solid #2f855a"></i>full node</span>' +
    '<span><i style="border:2px solid #c05621"></i>node short of links</span>' +
    '<span><i style="background:#d69e2e"></i>latest link</span>' +
    '<span><i style="background:#c53030"></i>losing link</span>' +
    '<span>&larr; &rarr; step, Home/End</span>';
  pane.append(legend);
  if (m.stderr) {
    const det = h("details", {class: "stderr"});
    det.append(h("summary", {}, "stderr (end)"), h("pre", {}, m.stderr));
    pane.append(det);
  }

  view = {i, m, frame: -1, slider, frameLabel, status, ...board, chart};
  for (const row of document.querySelectorAll("#matches tr.current")) row.classList.remove("current");
  const row = document.querySelector(`#matches tr[data-i="${i}"]`);
  if (row) { row.classList.add("current"); row.scrollIntoView({block: "nearest"}); }
  if (location.hash !== "#" + i) history.replaceState(null, "", "#" + i);
  go(m.frames);
}

function drawBoard(m) {
  const width = (m.w - 1) * CELL + 2 * MARGIN, height = (m.h - 1) * CELL + 2 * MARGIN;
  const svg = el("svg", {class: "board", id: "board",
                         viewBox: `${-MARGIN} ${-MARGIN} ${width} ${height}`});
  svg.style.maxWidth = Math.min(BOARD_PX, width / CELL * CELL_PX) + "px";
  const dots = el("g", {class: "dots"}, svg);
  const links = el("g", {class: "links", id: "links"}, svg);
  const mark = el("g", {class: "offending", id: "offending"}, svg);
  const nodeLayer = el("g", {class: "nodes"}, svg);
  const nodes = new Map();            // "x,y" -> {g, value}
  const dotPath = [];
  for (let y = 0; y < m.h; y++) {
    const row = m.rows[y];
    for (let x = 0; x < m.w; x++) {
      const c = row[x];
      if (c === ".") { dotPath.push(`M${x * CELL - 1.5},${y * CELL}h3`); continue; }
      const g = el("g", {class: "node", transform: `translate(${x * CELL},${y * CELL})`,
                         "data-x": x, "data-y": y}, nodeLayer);
      el("circle", {r: RADIUS}, g);
      el("text", {}, g).textContent = c;
      el("title", {}, g).textContent = `(${x},${y}) value ${c}`;
      nodes.set(x + "," + y, {g, value: +c});
    }
  }
  el("path", {d: dotPath.join(""), class: "dot", stroke: "#c3cad2", "stroke-width": 3}, dots);
  return {svg, links, mark, nodes};
}

// A link between two node centres, shortened to the circles, as one or two strokes.
function strokes(parent, ax, ay, bx, by, n) {
  const horizontal = ay === by;
  const x1 = ax * CELL + (horizontal ? RADIUS : 0), y1 = ay * CELL + (horizontal ? 0 : RADIUS);
  const x2 = bx * CELL - (horizontal ? RADIUS : 0), y2 = by * CELL - (horizontal ? 0 : RADIUS);
  const offsets = n === 2 ? [-GAP, GAP] : [0];
  for (const o of offsets) {
    const dx = horizontal ? 0 : o, dy = horizontal ? o : 0;
    el("line", {x1: x1 + dx, y1: y1 + dy, x2: x2 + dx, y2: y2 + dy}, parent);
  }
}

// ---- stepping ----------------------------------------------------------------------

function go(frame) {
  const m = view.m;
  frame = Math.max(0, Math.min(m.frames, frame));
  if (frame === view.frame) return;
  view.frame = frame;
  const placed = Math.min(frame, placedCount(m));
  const pairs = new Map();            // "ax,ay,bx,by" -> [count, last step index]
  const degree = new Map();
  const s = m.steps;
  for (let k = 0; k < placed * 5; k += 5) {
    const key = `${s[k]},${s[k + 1]},${s[k + 2]},${s[k + 3]}`;
    const had = pairs.get(key);
    pairs.set(key, [(had ? had[0] : 0) + s[k + 4], k]);
    for (const end of [`${s[k]},${s[k + 1]}`, `${s[k + 2]},${s[k + 3]}`])
      degree.set(end, (degree.get(end) || 0) + s[k + 4]);
  }
  view.links.textContent = "";
  const lastK = (placed - 1) * 5;
  for (const [key, [count, k]] of pairs) {
    const [ax, ay, bx, by] = key.split(",").map(Number);
    const cls = "link " + (count === 2 ? "double" : "single") + (k === lastK && frame === placed ? " last" : "");
    const g = el("g", {class: cls, "data-pair": key}, view.links);
    strokes(g, ax, ay, bx, by, count);
  }
  for (const [key, node] of view.nodes) {
    const full = (degree.get(key) || 0) >= node.value;
    node.g.setAttribute("class", full ? "node full" : "node short");
  }
  view.mark.textContent = "";
  const decided = frame === m.frames;
  if (decided && m.bad) {
    const [ax, ay, bx, by, n] = m.bad;
    if (ax === bx || ay === by) strokes(view.mark, ax, ay, bx, by, n);
    for (const [x, y] of [[ax, ay], [bx, by]]) el("circle", {cx: x * CELL, cy: y * CELL, r: RING}, view.mark);
  }
  view.slider.value = frame;
  view.frameLabel.textContent = `line ${frame} / ${m.frames}`;
  view.status.textContent = statusText(m, frame);
  view.status.className = "status" + (decided && !m.won ? " lost" : "");
  moveCursor(frame);
}

function statusText(m, frame) {
  const placed = placedCount(m);
  const latency = i => m.lat[i - 1] === undefined ? "" : ` \u00b7 ${ms(m.lat[i - 1])} ms of ${ms(limitFor(i))}`;
  let text = "";
  if (frame === 0) text = "before the first line";
  else if (frame <= placed) text = `line ${frame}: ${linkText(m.steps, (frame - 1) * 5)}${latency(frame)}`;
  else text = `line ${frame}: ${JSON.stringify(m.line)}${latency(frame)}`;
  if (frame === m.frames) text += ` \u2014 ${m.verdict}: ${m.reason}`;
  return text;
}

function togglePlay() {
  if (timer) return stop();
  if (view.frame >= view.m.frames) go(0);
  timer = setInterval(() => {
    if (view.frame >= view.m.frames) return stop();
    go(view.frame + 1);
  }, PLAY_MS);
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
}

// ---- the latency chart: each line's delay (log scale) against its limit ---------------

const CH = {w: 640, h: 130, left: 44, right: 8, top: 8, bottom: 18, lo: -3, hi: 4};  // 10^-3 .. 10^4 ms

function chartY(v) {
  const l = Math.log10(Math.max(v, Math.pow(10, CH.lo)));
  const t = (Math.min(l, CH.hi) - CH.lo) / (CH.hi - CH.lo);
  return CH.h - CH.bottom - t * (CH.h - CH.top - CH.bottom);
}

function drawChart(m) {
  const svg = el("svg", {class: "chart", id: "chart", viewBox: `0 0 ${CH.w} ${CH.h}`});
  const n = Math.max(m.lat.length, 1);
  const bw = (CH.w - CH.left - CH.right) / n;
  const base = CH.h - CH.bottom;
  for (let e = CH.lo; e <= CH.hi; e++) {
    const y = chartY(Math.pow(10, e));
    el("line", {class: "grid", x1: CH.left, x2: CH.w - CH.right, y1: y, y2: y}, svg);
    el("text", {x: CH.left - 4, y: y + 3, "text-anchor": "end"}, svg).textContent =
      e < 0 ? Math.pow(10, e).toFixed(-e) : String(Math.pow(10, e));
  }
  el("text", {x: 2, y: CH.h - 4}, svg).textContent = "ms (log)";
  const bars = [];
  m.lat.forEach((v, i) => {
    const y = chartY(v);
    const over = v > limitFor(i + 1);
    const r = el("rect", {class: "bar" + (over ? " over" : ""), x: CH.left + i * bw + bw * 0.1,
                          y, width: Math.max(bw * 0.8, 0.5), height: Math.max(base - y, 0.5)}, svg);
    el("title", {}, r).textContent = `line ${i + 1}: ${ms(v)} ms (limit ${ms(limitFor(i + 1))} ms)`;
    bars.push(r);
  });
  // The limit: the first line's for line 1, the turn limit after it.
  const yFirst = chartY(RUN.limits.first_line_ms), yTurn = chartY(RUN.limits.turn_ms);
  const x0 = CH.left, x1 = CH.left + bw, x2 = CH.w - CH.right;
  const d = n > 1 || m.lat.length === 0 ? `M${x0},${yFirst}H${x1}V${yTurn}H${x2}` : `M${x0},${yFirst}H${x2}`;
  el("path", {class: "limit", d}, svg);
  el("text", {x: x2, y: yTurn - 3, "text-anchor": "end"}, svg).textContent = "limit";
  const cursor = el("line", {class: "cursor", y1: CH.top, y2: base}, svg);
  svg.addEventListener("click", ev => {
    const box = svg.getBoundingClientRect();
    const x = (ev.clientX - box.left) / box.width * CH.w;
    go(Math.floor((x - CH.left) / bw) + 1);
  });
  return {svg, cursor, bw};
}

function moveCursor(frame) {
  const c = view.chart;
  const x = CH.left + (frame - 0.5) * c.bw;
  c.cursor.setAttribute("x1", x);
  c.cursor.setAttribute("x2", x);
  c.cursor.style.display = frame > 0 ? "" : "none";
}

// ---- the page ------------------------------------------------------------------------

document.querySelector("#matches tbody").addEventListener("click", ev => {
  const row = ev.target.closest("tr");
  if (row) openMatch(+row.dataset.i);
});

document.getElementById("lost-only").addEventListener("change", ev => {
  document.getElementById("matches").classList.toggle("lost-only", ev.target.checked);
});

document.addEventListener("keydown", ev => {
  if (!view || ev.target.tagName === "INPUT") return;   // a focused slider steps by itself
  const keys = {ArrowLeft: () => go(view.frame - 1), ArrowRight: () => go(view.frame + 1),
                Home: () => go(0), End: () => go(view.m.frames)};
  if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
});

window.addEventListener("hashchange", () => {
  const i = parseInt(location.hash.slice(1), 10);
  if (i >= 0 && i < RUN.matches.length && (!view || view.i !== i)) openMatch(i);
});

(function start() {
  if (!RUN.matches.length) return;
  const asked = parseInt(location.hash.slice(1), 10);
  const lost = RUN.matches.findIndex(m => !m.won);
  openMatch(asked >= 0 && asked < RUN.matches.length ? asked : lost >= 0 ? lost : 0);
})();
