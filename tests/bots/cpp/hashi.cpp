// A small Hashi bot in C++ for the referee's language tests: depth-first search over the
// number of links on each possible bridge, with bounds propagated at every node, crossing
// bridges excluded, and two connectivity checks. Prints every line once solved.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

struct Edge { int a, b; };

static int width, height;
static std::vector<int> nx, ny, need;          // nodes: position and value
static std::vector<Edge> edges;
static std::vector<std::vector<int>> incident;  // node -> edges
static std::vector<std::vector<int>> crossing;  // edge -> edges it would cross

// A horizontal bridge h and a vertical bridge v cross strictly between their ends.
static bool crosses(const Edge &h, const Edge &v) {
    return ny[h.a] == ny[h.b] && nx[v.a] == nx[v.b] && nx[h.a] < nx[v.a] && nx[v.a] < nx[h.b]
        && ny[v.a] < ny[h.a] && ny[h.a] < ny[v.b];
}

static void readBoard() {
    std::string line;
    std::getline(std::cin, line); width = std::stoi(line);
    std::getline(std::cin, line); height = std::stoi(line);
    std::vector<std::vector<int>> at(height, std::vector<int>(width, -1));
    for (int y = 0; y < height; y++) {
        std::getline(std::cin, line);
        for (int x = 0; x < width && x < (int)line.size(); x++) {
            if (line[x] >= '1' && line[x] <= '8') {
                at[y][x] = (int)nx.size();
                nx.push_back(x); ny.push_back(y); need.push_back(line[x] - '0');
            }
        }
    }
    incident.assign(nx.size(), {});
    for (int i = 0; i < (int)nx.size(); i++) {
        for (int x = nx[i] + 1; x < width; x++)      // first node to the right
            if (at[ny[i]][x] >= 0) { edges.push_back({i, at[ny[i]][x]}); break; }
        for (int y = ny[i] + 1; y < height; y++)     // first node below
            if (at[y][nx[i]] >= 0) { edges.push_back({i, at[y][nx[i]]}); break; }
    }
    crossing.assign(edges.size(), {});
    for (int e = 0; e < (int)edges.size(); e++) {
        incident[edges[e].a].push_back(e);
        incident[edges[e].b].push_back(e);
        for (int f = 0; f < e; f++)
            if (crosses(edges[e], edges[f]) || crosses(edges[f], edges[e])) {
                crossing[e].push_back(f);
                crossing[f].push_back(e);
            }
    }
}

struct State { std::vector<int> lo, hi; };

// Tighten the bounds until nothing changes; false on a contradiction.
static bool propagate(State &s) {
    bool changed = true;
    while (changed) {
        changed = false;
        for (int e = 0; e < (int)edges.size(); e++)
            if (s.lo[e] > 0)
                for (int f : crossing[e]) {
                    if (s.lo[f] > 0) return false;
                    if (s.hi[f] > 0) { s.hi[f] = 0; changed = true; }
                }
        for (int n = 0; n < (int)nx.size(); n++) {
            int sumLo = 0, sumHi = 0;
            for (int e : incident[n]) { sumLo += s.lo[e]; sumHi += s.hi[e]; }
            if (sumLo > need[n] || sumHi < need[n]) return false;
            for (int e : incident[n]) {
                int low = need[n] - (sumHi - s.hi[e]), high = need[n] - (sumLo - s.lo[e]);
                if (low > s.lo[e]) { s.lo[e] = low; changed = true; }
                if (high < s.hi[e]) { s.hi[e] = high; changed = true; }
            }
        }
    }
    return true;
}

static int find(std::vector<int> &parent, int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

// Components joined by bridges that may (possible) or must (!possible) carry a link.
static std::vector<int> components(const State &s, bool possible) {
    std::vector<int> parent(nx.size());
    for (int i = 0; i < (int)parent.size(); i++) parent[i] = i;
    for (int e = 0; e < (int)edges.size(); e++)
        if ((possible ? s.hi[e] : s.lo[e]) > 0)
            parent[find(parent, edges[e].a)] = find(parent, edges[e].b);
    for (int i = 0; i < (int)parent.size(); i++) parent[i] = find(parent, i);
    return parent;
}

// False when the nodes can no longer form one group.
static bool connectable(const State &s) {
    std::vector<int> maybe = components(s, true);
    for (int i = 0; i < (int)nx.size(); i++) if (maybe[i] != maybe[0]) return false;
    std::vector<int> sure = components(s, false);
    std::vector<int> open(nx.size(), 0), size(nx.size(), 0);
    for (int n = 0; n < (int)nx.size(); n++) {
        size[sure[n]]++;
        for (int e : incident[n]) if (s.hi[e] > s.lo[e]) open[sure[n]] = 1;
    }
    for (int n = 0; n < (int)nx.size(); n++)   // a closed group short of everything
        if (sure[n] == n && !open[n] && size[n] < (int)nx.size()) return false;
    return true;
}

static bool search(State &s) {
    if (!propagate(s) || !connectable(s)) return false;
    int pick = -1, best = 1 << 30;
    for (int n = 0; n < (int)nx.size(); n++) {   // the node with the fewest open bridges
        int open = 0, first = -1;
        for (int e : incident[n]) if (s.hi[e] > s.lo[e]) { open++; if (first < 0) first = e; }
        if (open > 0 && open < best) { best = open; pick = first; }
    }
    if (pick < 0) return true;
    for (int v = s.hi[pick]; v >= s.lo[pick]; v--) {
        State t = s;
        t.lo[pick] = t.hi[pick] = v;
        if (search(t)) { s = t; return true; }
    }
    return false;
}

int main() {
    readBoard();
    State s{std::vector<int>(edges.size(), 0), std::vector<int>(edges.size(), 2)};
    if (!search(s)) { std::cerr << "no solution" << std::endl; return 1; }
    for (int e = 0; e < (int)edges.size(); e++)
        if (s.lo[e] > 0) {
            std::printf("%d %d %d %d %d\n", nx[edges[e].a], ny[edges[e].a], nx[edges[e].b],
                        ny[edges[e].b], s.lo[e]);
            std::fflush(stdout);
        }
    std::string rest;
    std::getline(std::cin, rest);   // stdin stays open: wait for the referee to end the match
    return 0;
}
