"""A Hashi bot with one slow function: it solves by the simplest complete strategy (depth-
first search over each candidate link's count, checked as it goes) and calls `slow_part()`,
which busy-loops 60 ms, just before printing its third line. `profile --bot` must name it
on that line."""

import sys
import time

SLOW_S = 0.060


def read_puzzle(stream):
    width = int(stream.readline())
    height = int(stream.readline())
    rows = [stream.readline().rstrip("\n").ljust(width, ".") for _ in range(height)]
    return {(x, y): int(rows[y][x]) for y in range(height) for x in range(width)
            if rows[y][x] != "."}


def candidates(nodes):
    """Each pair of islands in line with no island between them: right and down."""
    pairs = []
    for (x, y) in nodes:
        for dx, dy in ((1, 0), (0, 1)):
            k = 1
            while True:
                other = (x + dx * k, y + dy * k)
                if other in nodes:
                    pairs.append(((x, y), other))
                    break
                if not (0 <= other[0] <= 30 and 0 <= other[1] <= 30):
                    break
                k += 1
    return pairs


def crosses(a, b):
    """Whether a horizontal and a vertical link cross."""
    (h1, h2), (v1, v2) = (a, b) if a[0][1] == a[1][1] else (b, a)
    if h1[1] != h2[1] or v1[0] != v2[0]:
        return False
    return h1[0] < v1[0] < h2[0] and v1[1] < h1[1] < v2[1]


def connected(nodes, links):
    start = next(iter(nodes))
    seen, todo = {start}, [start]
    while todo:
        node = todo.pop()
        for (a, b), n in links.items():
            for here, there in ((a, b), (b, a)):
                if n and here == node and there not in seen:
                    seen.add(there)
                    todo.append(there)
    return len(seen) == len(nodes)


def solve(nodes):
    pairs = candidates(nodes)
    need = dict(nodes)
    links = {}

    def search(i):
        if i == len(pairs):
            return all(v == 0 for v in need.values()) and connected(nodes, links)
        a, b = pairs[i]
        for n in (2, 1, 0):
            if n > need[a] or n > need[b]:
                continue
            if n and any(m and crosses((a, b), other) for other, m in links.items()):
                continue
            links[(a, b)] = n
            need[a] -= n
            need[b] -= n
            done = all(need[p] == 0 for p in nodes if not any(p in q for q in pairs[i + 1:]))
            if done and search(i + 1):
                return True
            need[a] += n
            need[b] += n
            del links[(a, b)]
        return False

    return {pair: n for pair, n in links.items() if n} if search(0) else None


def slow_part():
    """The deliberately slow function: 60 ms of busy work."""
    end = time.perf_counter() + SLOW_S
    count = 0
    while time.perf_counter() < end:
        count += 1
    return count


def main():
    nodes = read_puzzle(sys.stdin)
    links = solve(nodes)
    if links is None:
        print("no solution", file=sys.stderr)
        sys.exit(1)
    for line, ((a, b), n) in enumerate(sorted(links.items()), 1):
        if line == 3:
            slow_part()
        print(a[0], a[1], b[0], b[1], n, flush=True)


if __name__ == "__main__":
    main()
