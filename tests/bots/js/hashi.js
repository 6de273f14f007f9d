// A small Hashi bot in JavaScript (Node) for the referee's language tests: depth-first
// search over the number of links on each possible bridge, with bounds propagated at every
// node, crossing bridges excluded, and two connectivity checks. Prints every line once
// solved.
'use strict';
const fs = require('fs');

let pending = '';
function readLine() {            // stdin stays open: read only as far as the next newline
    const buffer = Buffer.alloc(4096);
    while (!pending.includes('\n')) {
        const got = fs.readSync(0, buffer, 0, buffer.length, null);
        if (got === 0) break;
        pending += buffer.toString('utf8', 0, got);
    }
    const end = pending.indexOf('\n');
    const line = end < 0 ? pending : pending.slice(0, end);
    pending = end < 0 ? '' : pending.slice(end + 1);
    return line.replace(/\r$/, '');
}

function readBoard() {
    const width = parseInt(readLine(), 10), height = parseInt(readLine(), 10);
    const at = [], nodes = [];
    for (let y = 0; y < height; y++) {
        const line = readLine();
        at.push([]);
        for (let x = 0; x < width; x++) {
            const c = line[x] || '.';
            at[y].push(c >= '1' && c <= '8' ? nodes.length : -1);
            if (at[y][x] >= 0) nodes.push({x, y, need: c.charCodeAt(0) - 48});
        }
    }
    const edges = [];
    nodes.forEach((node, i) => {
        for (let x = node.x + 1; x < width; x++)      // first node to the right
            if (at[node.y][x] >= 0) { edges.push([i, at[node.y][x]]); break; }
        for (let y = node.y + 1; y < height; y++)     // first node below
            if (at[y][node.x] >= 0) { edges.push([i, at[y][node.x]]); break; }
    });
    // a horizontal bridge h and a vertical bridge v cross strictly between their ends
    const crosses = (h, v) => nodes[h[0]].y === nodes[h[1]].y && nodes[v[0]].x === nodes[v[1]].x
        && nodes[h[0]].x < nodes[v[0]].x && nodes[v[0]].x < nodes[h[1]].x
        && nodes[v[0]].y < nodes[h[0]].y && nodes[h[0]].y < nodes[v[1]].y;
    const incident = nodes.map(() => []), crossing = edges.map(() => []);
    edges.forEach((e, i) => {
        incident[e[0]].push(i);
        incident[e[1]].push(i);
        for (let f = 0; f < i; f++)
            if (crosses(e, edges[f]) || crosses(edges[f], e)) {
                crossing[i].push(f);
                crossing[f].push(i);
            }
    });
    return {nodes, edges, incident, crossing};
}

// Tighten the bounds until nothing changes; false on a contradiction.
function propagate(b, lo, hi) {
    let changed = true;
    while (changed) {
        changed = false;
        for (let e = 0; e < b.edges.length; e++)
            if (lo[e] > 0)
                for (const f of b.crossing[e]) {
                    if (lo[f] > 0) return false;
                    if (hi[f] > 0) { hi[f] = 0; changed = true; }
                }
        for (let n = 0; n < b.nodes.length; n++) {
            const need = b.nodes[n].need;
            let sumLo = 0, sumHi = 0;
            for (const e of b.incident[n]) { sumLo += lo[e]; sumHi += hi[e]; }
            if (sumLo > need || sumHi < need) return false;
            for (const e of b.incident[n]) {
                const low = need - (sumHi - hi[e]), high = need - (sumLo - lo[e]);
                if (low > lo[e]) { lo[e] = low; changed = true; }
                if (high < hi[e]) { hi[e] = high; changed = true; }
            }
        }
    }
    return true;
}

// Components joined by bridges whose bound (hi: may carry a link, lo: must) is positive.
function components(b, bounds) {
    const parent = b.nodes.map((_, i) => i);
    const find = (i) => { while (parent[i] !== i) i = parent[i] = parent[parent[i]]; return i; };
    b.edges.forEach((e, i) => { if (bounds[i] > 0) parent[find(e[0])] = find(e[1]); });
    return parent.map((_, i) => find(i));
}

// False when the nodes can no longer form one group.
function connectable(b, lo, hi) {
    const maybe = components(b, hi);
    if (maybe.some((c) => c !== maybe[0])) return false;
    const sure = components(b, lo), open = [], size = [];
    b.nodes.forEach((_, n) => {
        size[sure[n]] = (size[sure[n]] || 0) + 1;
        if (b.incident[n].some((e) => hi[e] > lo[e])) open[sure[n]] = true;
    });
    // a closed group short of everything
    return !sure.some((c, n) => c === n && !open[n] && size[n] < b.nodes.length);
}

function search(b, lo, hi) {
    if (!propagate(b, lo, hi) || !connectable(b, lo, hi)) return null;
    let pick = -1, best = Infinity;
    b.nodes.forEach((_, n) => {       // the node with the fewest open bridges
        const open = b.incident[n].filter((e) => hi[e] > lo[e]);
        if (open.length > 0 && open.length < best) { best = open.length; pick = open[0]; }
    });
    if (pick < 0) return lo;
    for (let v = hi[pick]; v >= lo[pick]; v--) {
        const tlo = lo.slice(), thi = hi.slice();
        tlo[pick] = thi[pick] = v;
        const solved = search(b, tlo, thi);
        if (solved) return solved;
    }
    return null;
}

const board = readBoard();
const links = search(board, board.edges.map(() => 0), board.edges.map(() => 2));
if (!links) {
    process.stderr.write('no solution\n');
    process.exit(1);
}
const out = [];
board.edges.forEach((e, i) => {
    const a = board.nodes[e[0]], c = board.nodes[e[1]];
    if (links[i] > 0) out.push(`${a.x} ${a.y} ${c.x} ${c.y} ${links[i]}\n`);
});
fs.writeSync(1, out.join(''));
readLine();   // stdin stays open: wait for the referee to end the match
