#!/usr/bin/env python
# Built by build.py from the bot/ package: edit bot/, not this file. Each module below
# is bot/'s code without its docstrings, comments and spare whitespace: read bot/ for them.
import contextlib as __stickytape_contextlib

@__stickytape_contextlib.contextmanager
def __stickytape_temporary_dir():
    import tempfile
    import shutil
    dir_path = tempfile.mkdtemp()
    try:
        yield dir_path
    finally:
        shutil.rmtree(dir_path)

with __stickytape_temporary_dir() as __stickytape_working_dir:
    def __stickytape_write_module(path, contents):
        import os, os.path

        def make_package(path):
            parts = path.split("/")
            partial_path = __stickytape_working_dir
            for part in parts:
                partial_path = os.path.join(partial_path, part)
                if not os.path.exists(partial_path):
                    os.mkdir(partial_path)
                    with open(os.path.join(partial_path, "__init__.py"), "wb") as f:
                        f.write(b"\n")

        make_package(os.path.dirname(path))

        full_path = os.path.join(__stickytape_working_dir, path)
        with open(full_path, "wb") as module_file:
            module_file.write(contents)

    import sys as __stickytape_sys
    __stickytape_sys.path.insert(0, __stickytape_working_dir)

    __stickytape_write_module('bot/__init__.py', rb'''import importlib
from bot.puzzle import PuzzleError,Puzzle,parse
from bot.solver import Unsolvable,count_solutions,find_solutions,solve
from bot.work import Limit,OverLimit,Stats
__all__=['Limit','OverLimit','PuzzleError','Puzzle','Stats','Unsolvable','count_solutions','find_solutions','parse','solve']
def __getattr__(name):
	if name=='explain':return getattr(importlib.import_module('bot.explainer'),'explain')
	raise AttributeError(f"module 'bot' has no attribute {name!r}")
''')
    __stickytape_write_module('bot/puzzle.py', rb'''NODE_CHARS='12345678'
class PuzzleError(ValueError):pass
class Puzzle:
	__slots__='width','height','pos','value','ends','horizontal','crossings','node_edges','edges_at'
	def __init__(self,width,height,nodes):
		self.width=width;self.height=height;self.pos=tuple((x,y)for(x,y,_)in nodes);self.value=tuple(v for(_,_,v)in nodes);ends,horizontal=_find_edges(self.pos);self.ends=tuple(ends);self.horizontal=tuple(horizontal);self.crossings=_find_crossings(width,height,self.pos,self.ends,self.horizontal);node_edges=[[]for _ in self.pos];edges_at=[[]for _ in self.pos]
		for(e,(a,b))in enumerate(self.ends):node_edges[a].append((e,b));node_edges[b].append((e,a));edges_at[a].append(e);edges_at[b].append(e)
		self.node_edges=tuple(map(tuple,node_edges));self.edges_at=tuple(map(tuple,edges_at))
	def __len__(self):return len(self.pos)
	def edge_between(self,a,b):
		for(e,other)in self.node_edges[a]:
			if other==b:return e
		return None
def _find_edges(pos):
	right=[None]*len(pos);below=[None]*len(pos);last_in_column={}
	for(i,(x,y))in enumerate(pos):
		if i and pos[i-1][1]==y:right[i-1]=i
		above=last_in_column.get(x)
		if above is not None:below[above]=i
		last_in_column[x]=i
	ends,horizontal=[],[]
	for i in range(len(pos)):
		if right[i]is not None:ends.append((i,right[i]));horizontal.append(True)
		if below[i]is not None:ends.append((i,below[i]));horizontal.append(False)
	return ends,horizontal
def _find_crossings(width,height,pos,ends,horizontal):
	covered=[-1]*(width*height)
	for(e,(a,b))in enumerate(ends):
		if horizontal[e]:(x1,y),(x2,_)=pos[a],pos[b];covered[y*width+x1+1:y*width+x2]=[e]*(x2-x1-1)
	crossings=[[]for _ in ends]
	for(e,(a,b))in enumerate(ends):
		if not horizontal[e]:
			(x,y1),(_,y2)=pos[a],pos[b]
			for h in covered[(y1+1)*width+x:y2*width+x:width]:
				if h>=0:crossings[e].append(h);crossings[h].append(e)
	return tuple(map(tuple,crossings))
def parse(text):
	lines=text.splitlines();width=_positive_int(lines,0,'width');height=_positive_int(lines,1,'height');nodes=[]
	for y in range(height):
		number=y+3
		if y+2>=len(lines):raise PuzzleError(f"line {number}: missing row {y+1} of {height}")
		row=lines[y+2].strip()
		if len(row)!=width:raise PuzzleError(f"line {number}: row has {len(row)} characters, expected {width}")
		for(x,c)in enumerate(row):
			if c=='.':continue
			if c in NODE_CHARS:nodes.append((x,y,int(c)))
			else:raise PuzzleError(f"line {number}, column {x+1}: unexpected character {c!r} (expected '.' or a digit 1-8)")
	for(number,line)in enumerate(lines[height+2:],start=height+3):
		if line.strip():raise PuzzleError(f"line {number}: unexpected text after the {height} rows")
	return Puzzle(width,height,nodes)
def _positive_int(lines,index,name):
	if index>=len(lines):raise PuzzleError(f"line {index+1}: missing {name}")
	word=lines[index].strip()
	if not(word.isascii()and word.isdigit())or int(word)<1:raise PuzzleError(f"line {index+1}: {name} must be a positive integer, got {word!r}")
	return int(word)
''')
    __stickytape_write_module('bot/solver.py', rb'''import sys
from bot.assumption import Budget,OutOfBranches,first_solution,solutions
from bot.grid import Grid
from bot.learning import learned_solutions
from bot.tuning import NODE_SEARCH_BRANCHES,SEED
from bot.work import BRANCHING,Stats
from bot.puzzle import parse
class Unsolvable(Exception):pass
def _grid(text):puzzle=parse(text);sys.setrecursionlimit(max(sys.getrecursionlimit(),1000+8*len(puzzle.ends)));return Grid(puzzle)
def _stats(stats,within):
	stats=Stats()if stats is None else stats
	if within is not None:stats.keep_to(within)
	return stats
def solve(text,stats=None,stage=BRANCHING,within=None,sure=None,seed=SEED,press=None):
	stats=_stats(stats,within);grid=_grid(text)
	if stage==BRANCHING:links=_first_links(grid,stats,sure,seed,press)
	else:links=next((g.links()for g in solutions(grid,stats,stage)if g.valid()),None)
	if links is None:raise Unsolvable('the puzzle has no solution')
	return links
def _first_links(grid,stats,sure,seed,press):
	try:return first_solution(grid,stats,Budget(NODE_SEARCH_BRANCHES),sure=sure)
	except OutOfBranches:return next((found.links()for found in learned_solutions(grid,stats,sure,seed,True,press)),None)
def find_solutions(text,limit=2,stats=None,within=None,seed=SEED):
	stats=_stats(stats,within);grid=_grid(text);found=[];search=solutions(grid,stats,BRANCHING,budget=Budget(NODE_SEARCH_BRANCHES))
	try:
		for solved in search:
			if solved.valid():
				found.append(sorted(solved.links()))
				if len(found)>=limit:return found
		return found
	except OutOfBranches:pass
	finally:search.close()
	found=[]
	for solved in learned_solutions(grid,stats,seed=seed,walk=True):
		links=sorted(solved.links())
		if links not in found:
			found.append(links)
			if len(found)>=limit:break
	return found
def count_solutions(text,limit=2,stats=None,within=None,seed=SEED):return len(find_solutions(text,limit,stats,within,seed))
''')
    __stickytape_write_module('bot/assumption.py', rb'''from heapq import heapify,heappop,heappush
from itertools import product
from bot.grid import Contradiction
from bot.intersection import looks,propagate
from bot.work import BRANCHING,ELIMINATION,RULES,STAGE_NAMES,Stats
from bot.tuning import GLOBAL_EVERY,ISLANDS_PER_GLOBAL,NODE_SEARCH_BRANCHES,NODE_SEARCH_STALL,NODE_SEARCH_STRETCH,PROBE_OPTIONS,SCORE_HEAP_FROM
class Memory:
	__slots__='conflicts','blamed','scores','scored_at','ranked'
	def __init__(self,nodes):self.conflicts=[1]*nodes;self.blamed=set();self.scores=[.0]*nodes;self.scored_at=-1;self.ranked=[]if nodes>=SCORE_HEAP_FROM else None
	def blame(self,i,neighbours,weight=1):
		conflicts,blamed=self.conflicts,self.blamed;conflicts[i]+=weight;blamed.add(i)
		for j in neighbours:conflicts[j]+=weight;blamed.add(j)
	def reverted(self,length,trail,ends):
		if length<self.scored_at:undone=trail[length:self.scored_at];self.blamed.update([i for entry in undone for i in ends[entry[0]]]);self.scored_at=length
	def cloned(self):other=Memory(len(self.conflicts));other.conflicts=self.conflicts[:];return other
def memory(grid):
	if grid.memory is None:grid.memory=Memory(len(grid.puzzle))
	return grid.memory
def options(grid,i):lo,hi=grid.lo,grid.hi;edges=[e for e in grid.puzzle.edges_at[i]if lo[e]!=hi[e]];bounds=tuple((lo[e],hi[e])for e in edges);return edges,_completions(bounds,grid.puzzle.value[i]-grid.got[i])
_COMPLETIONS={}
def _completions(bounds,missing):
	key=bounds,missing;found=_COMPLETIONS.get(key)
	if found is None:target=missing+sum(low for(low,_)in bounds);ranges=[range(low,high+1)for(low,high)in bounds];found=_COMPLETIONS[key]=tuple(c for c in product(*ranges)if sum(c)==target)
	return found
def assume(grid,edges,counts):
	for(e,n)in zip(edges,counts):grid.raise_lo(e,n);grid.lower_hi(e,n)
def _changes(grid,edges,counts,stats,survived=None,outcome=None):
	stats.assumptions+=1;mark=grid.mark();completed=looks(grid).completed;completed.clear()
	try:
		assume(grid,edges,counts);propagate(grid,stats,probing=survived is not None)
		if survived is not None:
			at,edges_at=grid.lo.__getitem__,grid.puzzle.edges_at
			for j in completed:survived.add((j,tuple(map(at,edges_at[j]))))
		if outcome is not None:lo,hi=grid.lo,grid.hi;outcome.extend((e,lo[e],hi[e])for e in{e for(e,_,_)in grid.trail[mark[0]:]})
		return len(grid.trail)-mark[0]
	except Contradiction:return None
	finally:grid.revert(mark)
def _open_nodes_by_options(grid):
	found=[]
	for i in range(len(grid.puzzle)):
		if grid.got[i]!=grid.cap[i]:edges,choices=options(grid,i);found.append((len(choices),i,edges,choices))
	found.sort();return found
def eliminate(grid,stats):
	progress=False;changed=True
	while changed and not grid.solved():
		changed=False
		for(_,_,edges,choices)in _open_nodes_by_options(grid):
			survivors=[c for c in choices if _changes(grid,edges,c,stats)is not None]
			if not survivors:raise Contradiction()
			if _narrow(grid,edges,survivors):stats.eliminations+=len(choices)-len(survivors);propagate(grid,stats);changed=progress=True;break
	return progress
def _narrow(grid,edges,survivors):
	narrowed=False
	for(k,e)in enumerate(edges):narrowed|=grid.raise_lo(e,min(c[k]for c in survivors));narrowed|=grid.lower_hi(e,max(c[k]for c in survivors))
	return narrowed
def probe(grid,stats,nodes,reach=None):
	got,cap=grid.got,grid.cap;queue=[i for i in nodes if got[i]!=cap[i]];queued=set(queue);progress=False;survived=set()
	while queue:
		i=queue.pop();queued.discard(i)
		if got[i]==cap[i]or count_options(grid,i)>PROBE_OPTIONS:continue
		edges,choices=options(grid,i);survivors=[];product=1;outcomes={}
		for(k,c)in enumerate(choices):
			if not survivors and k==len(choices)-1:survivors.append(c)
			elif survived and _completed(grid,i,edges,c)in survived:survivors.append(c);product=None
			else:
				outcome=[]if k==0 else None;changes=_changes(grid,edges,c,stats,survived,outcome)
				if changes is not None:
					if outcome is not None:outcomes[c]=outcome
					survivors.append(c)
					if product is not None:product*=changes+1
		if len(survivors)==len(choices):
			if reach is not None and product is not None:reach[i]=product
			continue
		stats.eliminations+=len(choices)-len(survivors);position=len(grid.trail)
		if len(survivors)==1 and survivors[0]in outcomes:_replay(grid,outcomes[survivors[0]])
		else:_narrow(grid,edges,survivors);propagate(grid,stats,probing=True)
		survived.clear();progress=True
		for j in grid.changed_since(position):
			if got[j]!=cap[j]and j not in queued:queued.add(j);queue.append(j)
	if progress:propagate(grid,stats)
	return progress
def _replay(grid,bounds):
	for(e,low,high)in bounds:grid.raise_lo(e,low);grid.lower_hi(e,high)
	grid.drop_pending();grid.joined=False;cursors=looks(grid);cursors.isolated=cursors.balanced=len(grid.trail)
def _completed(grid,i,edges,counts):chosen=dict(zip(edges,counts));lo=grid.lo;return i,tuple([chosen.get(e,lo[e])for e in grid.puzzle.edges_at[i]])
def choose_node(grid,reach=None):
	scores=_scores(grid);learned=memory(grid)
	if learned.ranked is None:best=scores.index(min(scores));best_key=scores[best],best
	else:best_key=_lowest(learned)
	for(i,product)in(reach or{}).items():
		key=scores[i]/product**.5,i
		if key<best_key:best_key=key
	return options(grid,best_key[1])
def _scores(grid):
	learned=memory(grid);scores,got,cap,conflicts=learned.scores,grid.got,grid.cap,learned.conflicts;ranked=learned.ranked
	if learned.scored_at<0:
		for i in range(len(scores)):scores[i]=count_options(grid,i)/conflicts[i]**2 if got[i]!=cap[i]else _CLOSED
		if ranked is not None:ranked.clear()
	else:
		for i in grid.changed_since(learned.scored_at)|learned.blamed:
			score=count_options(grid,i)/conflicts[i]**2 if got[i]!=cap[i]else _CLOSED
			if score!=scores[i]:
				scores[i]=score
				if ranked is not None:heappush(ranked,(score,i))
	if ranked is not None and(not ranked or len(ranked)>4*len(scores)):ranked[:]=[(score,i)for(i,score)in enumerate(scores)];heapify(ranked)
	learned.blamed.clear();learned.scored_at=len(grid.trail);return scores
def _lowest(learned):
	ranked,scores=learned.ranked,learned.scores
	while ranked[0][0]!=scores[ranked[0][1]]:heappop(ranked)
	return ranked[0]
_CLOSED=float('inf')
def count_options(grid,i):
	lo,hi=grid.lo,grid.hi;key=16+grid.puzzle.value[i]-grid.got[i]
	for e in grid.puzzle.edges_at[i]:
		if lo[e]!=hi[e]:key=key*16+lo[e]*4+hi[e]
	count=_COUNTS.get(key)
	if count is None:count=_COUNTS[key]=len(options(grid,i)[1])
	return count
_COUNTS={}
def _ordered(grid,edges,choices):
	lo=grid.lo
	def spread(counts):return sum(1 for(e,n)in zip(edges,counts)if n>lo[e])
	return sorted(choices,key=spread,reverse=True)
class OutOfBranches(Exception):pass
class Budget:
	__slots__='branches','most','used','deepest','deepened'
	def __init__(self,branches=NODE_SEARCH_BRANCHES,most=None):self.branches=branches;self.most=branches*NODE_SEARCH_STRETCH if most is None else most;self.used=0;self.deepest=-1;self.deepened=0
	def spend(self,depth):
		if depth>self.deepest:self.deepest,self.deepened=depth,self.used
		stalled=self.used-self.deepened>=NODE_SEARCH_STALL
		if self.used>=self.most or self.used>=self.branches and stalled:return False
		self.used+=1;return True
def first_solution(grid,stats,budget=None,sure=None):
	budget=Budget()if budget is None else budget
	for found in solutions(grid,stats,BRANCHING,budget=budget,sure=sure):
		if found.valid():return found.links()
	return None
def solutions(grid,stats,stage=BRANCHING,depth=0,budget=None,since=-1,sure=None):
	stats.max_depth=max(stats.max_depth,depth);memory(grid);mark=grid.mark();reach={}
	try:
		try:
			whole=depth%max(GLOBAL_EVERY,len(grid.puzzle)//ISLANDS_PER_GLOBAL)==0;propagate(grid,stats,whole=whole,probing=stage==BRANCHING)
			if stage==ELIMINATION and not grid.solved()and eliminate(grid,stats):stats.stage=max(stats.stage,ELIMINATION)
			if stage==BRANCHING and not grid.solved():
				if probe(grid,stats,grid.changed_since(since),reach):stats.stage=max(stats.stage,ELIMINATION)
				elif whole:propagate(grid,stats)
		except Contradiction:return
		if sure is not None:sure(grid.links())
		if grid.solved():yield grid
		elif stage>=BRANCHING:yield from _branch(grid,stats,stage,depth,budget,reach)
	finally:grid.revert(mark)
def _branch(grid,stats,stage,depth,budget,reach):
	if budget is not None and not budget.spend(depth):raise OutOfBranches()
	stats.stage=BRANCHING;stats.branch();edges,choices=choose_node(grid,reach)
	for counts in _ordered(grid,edges,choices):
		stats.assumptions+=1;mark=grid.mark()
		try:assume(grid,edges,counts)
		except Contradiction:stats.eliminations+=1;grid.revert(mark);continue
		yield from solutions(grid,stats,stage,depth+1,budget,mark[0]);grid.revert(mark)
''')
    __stickytape_write_module('bot/grid.py', rb'''class Contradiction(Exception):pass
REGION,CUT,SLACK,CLOSED='region','cut','slack','closed'
class Grid:
	__slots__='puzzle','ends','value','crossings','lo','hi','got','cap','trail','parent','size','need','next_member','joins','dirty','queued','joined','cut','looks','memory','spare','waste'
	def __init__(self,puzzle):
		self.puzzle=puzzle;self.ends,self.value,self.crossings=puzzle.ends,puzzle.value,puzzle.crossings;value=puzzle.value;self.lo=[0]*len(puzzle.ends);self.hi=[min(2,value[a],value[b])for(a,b)in puzzle.ends];self.got=[0]*len(puzzle);self.cap=[0]*len(puzzle)
		for((a,b),high)in zip(puzzle.ends,self.hi):self.cap[a]+=high;self.cap[b]+=high
		self.trail=[];self.parent=list(range(len(puzzle)));self.size=[1]*len(puzzle);self.need=list(value);self.next_member=list(range(len(puzzle)));self.joins=[];self.dirty=list(range(len(puzzle)));self.queued=bytearray([1])*len(puzzle);self.joined=self.cut=True;self.looks=self.memory=None;self.spare=sum(value)//2-(len(puzzle)-1);self.waste=0
	def clone(self):other=Grid.__new__(Grid);other.puzzle=self.puzzle;other.ends,other.value,other.crossings=self.ends,self.value,self.crossings;other.lo,other.hi=self.lo[:],self.hi[:];other.got,other.cap=self.got[:],self.cap[:];other.trail=[];other.parent,other.size,other.need=self.parent[:],self.size[:],self.need[:];other.next_member,other.joins=self.next_member[:],[];other.dirty,other.queued=self.dirty[:],bytearray(self.queued);other.joined,other.cut=self.joined,self.cut;other.spare,other.waste=self.spare,self.waste;other.looks=self.looks.cloned(len(self.trail))if self.looks is not None else None;other.memory=self.memory.cloned()if self.memory is not None else None;return other
	def mark(self):looks=self.looks;return len(self.trail),self.joined,self.cut,looks.mark()if looks is not None else None,tuple(self.dirty)
	def revert(self,mark):
		trail,lo,hi,got,cap,ends=self.trail,self.lo,self.hi,self.got,self.cap,self.ends;parent,size,next_member,joins=self.parent,self.size,self.next_member,self.joins;need=self.need;length,self.joined,self.cut,looked,pending=mark
		if self.looks is not None:self.looks.restore(looked)
		if self.memory is not None:self.memory.reverted(length,trail,ends)
		for _ in range(len(trail)-length):
			e,old_lo,old_hi=trail.pop();a,b=ends[e];d=lo[e]-old_lo
			if d:
				lo[e]=old_lo;got[a]-=d;got[b]-=d;root,child=joins.pop();need[root]+=2*d;self.waste-=d-(child>=0)
				if child>=0:parent[child]=child;size[root]-=size[child];need[root]-=need[child];next_member[root],next_member[child]=next_member[child],next_member[root]
			else:d=hi[e]-old_hi;hi[e]=old_hi;cap[a]-=d;cap[b]-=d
		self.drop_pending();queued,dirty=self.queued,self.dirty
		for i in pending:
			if not queued[i]:queued[i]=1;dirty.append(i)
	def drop_pending(self):
		for i in self.dirty:self.queued[i]=0
		self.dirty.clear()
	def changed_since(self,position):
		if position<0:return range(len(self.puzzle))
		ends=self.ends;return{i for(e,_,_)in self.trail[position:]for i in ends[e]}
	def raise_lo(self,e,n):
		old=self.lo[e]
		if n<=old:return False
		if n>self.hi[e]:raise Contradiction()
		self.trail.append((e,old,self.hi[e]));self.lo[e]=n;self.joined=True;a,b=self.ends[e];got,value=self.got,self.value;got[a]+=n-old;got[b]+=n-old;queued=self.queued
		if not queued[a]:queued[a]=1;self.dirty.append(a)
		if not queued[b]:queued[b]=1;self.dirty.append(b)
		parent,size,need=self.parent,self.size,self.need;root=a
		while parent[root]!=root:root=parent[root]
		child=-1
		if old==0:
			other=b
			while parent[other]!=other:other=parent[other]
			if root!=other:
				if size[root]<size[other]:root,other=other,root
				parent[other]=root;size[root]+=size[other];need[root]+=need[other];nxt=self.next_member;nxt[root],nxt[other]=nxt[other],nxt[root];child=other
		self.joins.append((root,child));need[root]-=2*(n-old);self.waste+=n-old-(child>=0)
		if got[a]>value[a]:raise Contradiction(a)
		if got[b]>value[b]:raise Contradiction(b)
		if not need[root]and size[root]<len(value):raise Contradiction(a,CLOSED)
		if old==0:
			for f in self.crossings[e]:self.lower_hi(f,0)
		return True
	def lower_hi(self,e,n):
		old=self.hi[e]
		if n>=old:return False
		if n<self.lo[e]:raise Contradiction()
		self.trail.append((e,self.lo[e],old));self.hi[e]=n
		if n==0:self.cut=True
		a,b=self.ends[e];cap,value=self.cap,self.value;cap[a]-=old-n;cap[b]-=old-n;queued=self.queued
		if not queued[a]:queued[a]=1;self.dirty.append(a)
		if not queued[b]:queued[b]=1;self.dirty.append(b)
		if cap[a]<value[a]:raise Contradiction(a)
		if cap[b]<value[b]:raise Contradiction(b)
		return True
	def draw(self,e,n):self.raise_lo(e,self.lo[e]+n)
	def solved(self):return self.lo==self.hi
	def links(self):pos=self.puzzle.pos;return[(*pos[a],*pos[b],n)for((a,b),n)in zip(self.puzzle.ends,self.lo)if n]
	def valid(self):
		p=self.puzzle
		if self.lo==self.hi:return solves(p,self.lo)
		for(i,v)in enumerate(p.value):
			if self.got[i]>v or self.cap[i]<v:return False
		for(e,n)in enumerate(self.lo):
			if n and any(self.lo[f]for f in p.crossings[e]):return False
			if not self.lo[e]<=self.hi[e]:return False
		if len(p)<2:return True
		label,need,size=components(self,self.lo)
		if any(n==0 and s<len(p)for(n,s)in zip(need,size)):return False
		return len(components(self,self.hi)[2])==1
def solves(puzzle,links):
	n=len(puzzle);degree=[0]*n;drawn=[[]for _ in range(n)]
	for(e,((a,b),count))in enumerate(zip(puzzle.ends,links)):
		if count:
			if any(links[f]for f in puzzle.crossings[e]):return False
			degree[a]+=count;degree[b]+=count;drawn[a].append(b);drawn[b].append(a)
	if degree!=list(puzzle.value):return False
	if n<2:return True
	seen=bytearray(n);seen[0]=1;reached=[0]
	for i in reached:
		for j in drawn[i]:
			if not seen[j]:seen[j]=1;reached.append(j)
	return len(reached)==n
def components(grid,bound):
	p=grid.puzzle;value,got,node_edges=p.value,grid.got,p.node_edges;label=[-1]*len(p);need,size=[],[]
	for start in range(len(p)):
		if label[start]>=0:continue
		group=len(need);label[start]=group;stack=[start];lacking=count=0
		while stack:
			i=stack.pop();lacking+=value[i]-got[i];count+=1
			for(e,j)in node_edges[i]:
				if bound[e]and label[j]<0:label[j]=group;stack.append(j)
		need.append(lacking);size.append(count)
	return label,need,size
''')
    __stickytape_write_module('bot/intersection.py', rb'''from bot.grid import CUT,REGION,SLACK,Contradiction
from bot.tuning import MEND_SHARE,PARITY_PAYS,PROBE_BALANCE_AFTER,PROBE_BALANCE_RARELY,REGION_WALK
class Looks:
	__slots__='balanced','isolated','connected','slackened','slack_left','completed','parity_looks','parity_hits','spanning','spanned'
	def __init__(self):self.balanced=self.isolated=self.connected=self.slackened=-1;self.slack_left=None;self.completed=[];self.parity_looks=self.parity_hits=0;self.spanning=None;self.spanned=0
	def mark(self):return self.balanced,self.isolated,self.connected,self.slackened,self.slack_left
	def restore(self,state):self.balanced,self.isolated,self.connected,self.slackened,self.slack_left=(-1,-1,-1,-1,None)if state is None else state
	def cloned(self,length):
		other=Looks();other.balanced=0 if self.balanced==length else-1;other.isolated=0 if self.isolated==length else-1;other.connected=0 if self.connected==length else-1
		if self.slackened==length:other.slackened,other.slack_left=0,self.slack_left
		other.parity_looks,other.parity_hits=self.parity_looks,self.parity_hits
		if other.connected==0 and self.spanning is not None:other.spanning,other.spanned=bytearray(self.spanning),self.spanned
		return other
def looks(grid):
	if grid.looks is None:grid.looks=Looks()
	return grid.looks
def settle(grid):
	dirty,queued,completed=grid.dirty,grid.queued,looks(grid).completed;got,cap,value=grid.got,grid.cap,grid.puzzle.value;lo,hi,edges_at=grid.lo,grid.hi,grid.puzzle.edges_at;raise_lo,lower_hi=grid.raise_lo,grid.lower_hi
	while dirty:
		i=dirty.pop();queued[i]=0
		try:
			if got[i]==cap[i]:
				if got[i]!=value[i]:raise Contradiction(i)
				completed.append(i);continue
			spare=cap[i]-value[i];room=value[i]-got[i]
			if spare>1 and room>1:continue
			for e in edges_at[i]:
				low,high=lo[e],hi[e]
				if low==high:continue
				if high-spare>low:raise_lo(e,high-spare)
				if low+room<high:lower_hi(e,low+room)
		except Contradiction as dead:_blame(grid,dead.args[0]if dead.args else i);raise
def _blame(grid,i):
	if grid.memory is not None:grid.memory.blame(i,[j for(_,j)in grid.puzzle.node_edges[i]])
def balance(grid):
	p=grid.puzzle;lo,hi,got,value,node_edges=grid.lo,grid.hi,grid.got,p.value,p.node_edges;cursors=looks(grid)
	if cursors.balanced==len(grid.trail):return
	walk=len(p)if cursors.balanced<0 else REGION_WALK;starts=_decided_since(grid,cursors.balanced);seen=bytearray(len(p));side=bytearray(len(p))
	for start in starts:
		if seen[start]or got[start]==value[start]:continue
		seen[start]=1;region=[start];missing=[0,0];two_sides=True;limit=walk
		for i in region:
			here=side[i];missing[here]+=value[i]-got[i]
			for(e,j)in node_edges[i]:
				if lo[e]!=hi[e]:
					if not seen[j]:seen[j]=1;side[j]=1-here;region.append(j)
					elif seen[j]==GAVE_UP:limit=-1
					elif side[j]==here:two_sides=False
			if len(region)>limit:
				for j in region:seen[j]=GAVE_UP
				break
		else:
			if missing[0]!=missing[1]if two_sides else(missing[0]+missing[1])%2:raise Contradiction(start,REGION)
	cursors.balanced=len(grid.trail)
def _decided_since(grid,position):
	if position<0:return range(len(grid.puzzle))
	lo,hi,ends=grid.lo,grid.hi,grid.puzzle.ends;return{i for(e,_,_)in grid.trail[position:]if lo[e]==hi[e]for i in ends[e]}
GAVE_UP=2
def isolate(grid):
	p=grid.puzzle;cursors=looks(grid);starts=_joined_since(grid,cursors.isolated);cursors.isolated=len(grid.trail);whole=len(p);lo,hi,got,value,node_edges=grid.lo,grid.hi,grid.got,p.value,p.node_edges;parent,size,need,next_member=grid.parent,grid.size,grid.need,grid.next_member;changed=False
	for group in _roots(grid,starts):
		lacking=need[group]
		if lacking>4:continue
		i=group
		while True:
			if got[i]!=value[i]:
				for(e,j)in node_edges[i]:
					low,high=lo[e],hi[e]
					if low==high:continue
					other=j
					while parent[other]!=other:other=parent[other]
					if other==group:total,joined=lacking,size[group]
					else:
						if lacking+value[j]-got[j]>2*(high-low):continue
						total=lacking+need[other];joined=size[group]+size[other]
					if joined==whole or total>2*(high-low):continue
					if total%2==0 and total>0:changed|=grid.lower_hi(e,low+total//2-1)
			i=next_member[i]
			if i==group:break
	return changed
def slack(grid):
	left=grid.spare-grid.waste
	if left>1:return False
	if left<0:raise Contradiction(None,SLACK)
	cursors=looks(grid)
	if cursors.slack_left==left:starts=_joined_since(grid,cursors.slackened);cursors.slackened=len(grid.trail);return _slack_in_groups(grid,starts,left)
	cursors.slackened,cursors.slack_left=len(grid.trail),left;lo,hi,ends,parent=grid.lo,grid.hi,grid.puzzle.ends,grid.parent;changed=False
	for(e,high)in enumerate(hi):
		low=lo[e]
		if low==high or high<=low+left:continue
		if low:changed|=grid.lower_hi(e,low+left);continue
		a,b=ends[e]
		while parent[a]!=a:a=parent[a]
		while parent[b]!=b:b=parent[b]
		limit=left if a==b else left+1
		if limit<high:changed|=grid.lower_hi(e,limit)
	return changed
def _slack_in_groups(grid,starts,left):
	lo,hi,parent,next_member=grid.lo,grid.hi,grid.parent,grid.next_member;node_edges=grid.puzzle.node_edges;changed=False
	for group in _roots(grid,starts):
		i=group
		while True:
			for(e,j)in node_edges[i]:
				if hi[e]>left and not lo[e]:
					other=j
					while parent[other]!=other:other=parent[other]
					if other==group:changed|=grid.lower_hi(e,left)
			i=next_member[i]
			if i==group:break
	return changed
def _roots(grid,starts):
	parent=grid.parent;looked=set()
	for start in starts:
		group=start
		while parent[group]!=group:group=parent[group]
		if group not in looked:looked.add(group);yield group
def _joined_since(grid,position):
	if position<0:return range(len(grid.puzzle))
	lo,ends=grid.lo,grid.puzzle.ends;return{ends[e][0]for(e,old_lo,_)in grid.trail[position:]if lo[e]!=old_lo}
def connect(grid):
	p=grid.puzzle;n=len(p)
	if n<2:return False
	cursors=looks(grid)
	if cursors.connected<0:cursors.connected=len(grid.trail);return _draw_bridges(grid)
	hi,ends,spanning=grid.hi,p.ends,cursors.spanning
	if spanning is None or cursors.spanned>2*n:cursors.connected=len(grid.trail);_span(grid);return False
	mended={e for(e,_,old_hi)in grid.trail[cursors.connected:]if old_hi and not hi[e]and spanning[e]};cursors.connected=len(grid.trail)
	if len(mended)*MEND_SHARE>n:_span(grid);return False
	for e in mended:spanning[e]=0
	for e in mended:
		path=_path(grid,*ends[e])
		if path is None:
			for f in mended:spanning[f]=1
			raise Contradiction(None,CUT)
		for f in path:
			if not spanning[f]:spanning[f]=1;cursors.spanned+=1
		cursors.spanned-=1
	return False
def _path(grid,a,b):
	hi,node_edges=grid.hi,grid.puzzle.node_edges;via=[-1]*len(node_edges);side=bytearray(len(node_edges));side[a],side[b]=1,2;layers=[[a],[b]]
	while layers[0]and layers[1]:
		walk=0 if len(layers[0])<=len(layers[1])else 1;mine=walk+1;reached=[]
		for x in layers[walk]:
			for(e,y)in node_edges[x]:
				if hi[e]:
					seen=side[y]
					if not seen:side[y]=mine;via[y]=e;reached.append(y)
					elif seen!=mine:return _back(grid,via,x)+[e]+_back(grid,via,y)
		layers[walk]=reached
	return None
def _back(grid,via,x):
	ends,path=grid.puzzle.ends,[];e=via[x]
	while e>=0:path.append(e);a,b=ends[e];x=a if b==x else b;e=via[x]
	return path
def _span(grid):
	p=grid.puzzle;hi,node_edges=grid.hi,p.node_edges;cursors=looks(grid);cursors.spanning=None;spanning=bytearray(len(p.ends));seen=bytearray(len(p));seen[0]=1;reached=[0]
	for x in reached:
		for(e,y)in node_edges[x]:
			if hi[e]and not seen[y]:seen[y]=1;spanning[e]=1;reached.append(y)
	if len(reached)<len(p):raise Contradiction(None,CUT)
	cursors.spanning,cursors.spanned=spanning,len(reached)-1
def _draw_bridges(grid):
	p=grid.puzzle;n=len(p);cursors=looks(grid);cursors.spanning=None;spanning=bytearray(len(p.ends));order,low=[-1]*n,[0]*n;bridges,reached=bridges_from(p.node_edges,grid.hi,0,order,low,0,spanning)
	if reached<n:raise Contradiction(None,CUT)
	cursors.spanning,cursors.spanned=spanning,n-1;changed=False
	for e in bridges:changed|=grid.raise_lo(e,1)
	return changed
def bridges_from(node_edges,bound,root,order,low,clock,tree=None):
	order[root]=low[root]=clock;clock+=1;bridges=[];stack=[(root,-1,iter(node_edges[root]))]
	while stack:
		i,via,edges=stack[-1]
		for(e,j)in edges:
			if not bound[e]or e==via:continue
			if order[j]<0:
				order[j]=low[j]=clock;clock+=1
				if tree is not None:tree[e]=1
				stack.append((j,e,iter(node_edges[j])));break
			if order[j]<low[i]:low[i]=order[j]
		else:
			stack.pop()
			if stack:
				parent=stack[-1][0]
				if low[i]<low[parent]:low[parent]=low[i]
				if low[i]>order[parent]:bridges.append(via)
	return bridges,clock
def propagate(grid,stats=None,whole=True,probing=False,slack_too=True,walks_too=True):
	while True:
		if stats is not None:stats.round()
		settle(grid)
		if not whole:
			if grid.solved()and grid.cut:grid.cut=False;connect(grid)
			return
		if grid.joined and not grid.solved():
			grid.joined=False;changed=isolate(grid)
			if slack_too and grid.waste+1>=grid.spare:changed|=slack(grid)
			if changed:continue
		if not walks_too:return
		if grid.cut and(not probing or grid.solved()):
			grid.cut=False
			if connect(grid):continue
		if not probing:balance(grid)
		elif _balance_due(grid):_balance_in_probe(grid)
		return
def _balance_due(grid):
	cursors=looks(grid)
	if cursors.balanced<0:return True
	after=PROBE_BALANCE_AFTER
	if cursors.parity_hits*PARITY_PAYS<cursors.parity_looks:after=PROBE_BALANCE_RARELY
	return len(grid.trail)-cursors.balanced>=after
def _balance_in_probe(grid):
	cursors=looks(grid);cursors.parity_looks+=1
	try:balance(grid)
	except Contradiction:cursors.parity_hits+=1;raise
''')
    __stickytape_write_module('bot/tuning.py', rb'''REGION_WALK=60
PROBE_BALANCE_AFTER=20
PARITY_PAYS=20
PROBE_BALANCE_RARELY=70
MEND_SHARE=50
NODE_SEARCH_BRANCHES=40
NODE_SEARCH_STALL=5
NODE_SEARCH_STRETCH=5
GLOBAL_EVERY=2
ISLANDS_PER_GLOBAL=100
PROBE_OPTIONS=2
SCORE_HEAP_FROM=500
LEARN_SLACK_SPARE=6
ACTIVITY_DECAY=.95
RESTART_WINDOW=50
RESTART_MARGIN=.7
BLOCK_DEPTH=1.4
DEPTH_WINDOW=5000
BLOCK_AFTER=100
NODE_WEIGHT=.3
SHAKE=.5
SEED=1
PROVE_FOR=.01
WALK_SPARE=20
WALK_AFTER=300
WALK_EVERY=200
WALK_MOVES=4000
WALK_FILL_MOVES=30000
WALK_REACH=400
WALK_WORSE=300
WALK_FOCUS=.5
WALK_FOCUS_EVERY=50
WALK_LOOSE_EVERY=200
''')
    __stickytape_write_module('bot/work.py', rb'''RULES,ELIMINATION,BRANCHING=1,2,3
STAGE_NAMES={RULES:'rules',ELIMINATION:'elimination',BRANCHING:'branching'}
_NONE=float('inf')
class Limit:
	__slots__='rounds','branches'
	def __init__(self,rounds=None,branches=None):self.rounds=rounds;self.branches=branches
	def __repr__(self):return f"Limit(rounds={self.rounds}, branches={self.branches})"
class OverLimit(Exception):pass
class Stats:
	__slots__='rounds','assumptions','eliminations','branches','max_depth','stage','most_rounds','most_branches';COUNTERS='rounds','assumptions','eliminations','branches','max_depth','stage'
	def __init__(self,limit=None):self.rounds=self.assumptions=self.eliminations=0;self.branches=self.max_depth=0;self.stage=RULES;self.keep_to(limit)
	def keep_to(self,limit):rounds=limit.rounds if limit is not None else None;branches=limit.branches if limit is not None else None;self.most_rounds=_NONE if rounds is None else rounds;self.most_branches=_NONE if branches is None else branches
	def round(self):
		self.rounds+=1
		if self.rounds>self.most_rounds:raise OverLimit(f"over {self.most_rounds} propagation rounds")
	def branch(self):
		self.branches+=1
		if self.branches>self.most_branches:raise OverLimit(f"over {self.most_branches} branches")
	def as_dict(self):return{name:getattr(self,name)for name in self.COUNTERS}
''')
    __stickytape_write_module('bot/learning.py', rb'''import random
import time
from bot.grid import Contradiction
from bot.intersection import looks,propagate
from bot.reasons import diagnose,node_reason,reason_for
from bot.assumption import choose_node,memory,probe
from bot.local import Walk,filled
from bot.restarts import Restarts
from bot.tuning import ACTIVITY_DECAY,LEARN_SLACK_SPARE,NODE_WEIGHT,PROVE_FOR,SEED,SHAKE,WALK_AFTER,WALK_EVERY,WALK_MOVES,WALK_SPARE
_DECISION=-1
def negate(fact):kind=fact&3;return fact-kind+3-kind
def is_true(lo,hi,fact):
	kind=fact&3
	if kind<2:return lo[fact>>2]>kind
	return hi[fact>>2]<=3-kind
def enforce(grid,fact):
	e,kind=fact>>2,fact&3
	if kind<2:grid.raise_lo(e,kind+1)
	else:grid.lower_hi(e,3-kind)
def entry_facts(e,old_lo,old_hi,new_lo,new_hi):
	if new_lo!=old_lo:return[4*e+k for k in range(new_lo-1,old_lo-1,-1)]
	return[4*e+3-k for k in range(new_hi,old_hi)]
def learned_solutions(grid,stats,sure=None,seed=SEED,walk=False,press=None):
	grid.memory=None
	try:
		propagate(grid,stats)
		if not grid.solved():probe(grid,stats,range(len(grid.puzzle)))
	except Contradiction:return
	helper=None
	if walk and grid.spare*WALK_SPARE<len(grid.puzzle):helper=Walk(grid,seed)
	press=press if sure is not None else None
	if helper is not None and press is not None:helper.stop=press.due
	learner=Learner(grid,stats,sure,seed,helper,press)
	if helper is None:learner.target=filled(grid,seed)or learner.target
	for found in learner.solutions():
		if found.valid():yield found
class Learner:
	def __init__(self,grid,stats,sure=None,seed=SEED,walk=None,press=None):self.grid=grid;self.walk=walk;self.walk_at=WALK_AFTER;self.walk_mark=None;self.stats=stats;self.slack_too=grid.spare<=LEARN_SLACK_SPARE;self.sure=sure;self.told=-1;self.press=press;edges=len(grid.puzzle.ends);value=grid.puzzle.value;self.top=[min(2,value[a],value[b])for(a,b)in grid.puzzle.ends];self.fact_pos=[-1]*(4*edges);self.fact_level=[0]*(4*edges);self.level_starts=[];self.level_marks=[];self.why={};self.nogoods=[];self.watches=[[]for _ in range(4*edges)];self.scanned=len(grid.trail);self.activity=[.0]*edges;self.bump=1.;self.phase=[-1]*edges;self.target=[-1]*edges;self.best=0;self.fullest=None;self.refilled=None;self.restarts=Restarts();self.rng=random.Random(seed)
	def solutions(self):
		grid=self.grid;restarts=self.restarts
		while True:
			conflict=self._propagate()
			if conflict is not None:
				if not self._settle(conflict):return
				if self.walk is not None and self._walk_turn():yield grid;self._unwalk()
				continue
			if not self.level_starts:self._tell_sure()
			elif self.press is not None and self.press.due():
				likeliest=self._likeliest()
				if likeliest:
					if not self._answer_press(likeliest):return
					continue
			if self.level_starts and restarts.due():restarts.restarted();self._shake();self._backjump(0);continue
			if grid.solved():
				self.sure=None;yield grid;decisions=[self._decision_fact(level)for level in range(len(self.level_starts))]
				if not decisions or not self._settle(decisions):return
				continue
			if not self._settle(self._decide()):return
	def _walk_turn(self):
		if self.restarts.conflicts<self.walk_at:return False
		self.walk_at=self.restarts.conflicts+WALK_EVERY
		if self.fullest is not self.refilled:self.refilled=self.fullest;self.walk.refill(self.fullest)
		counts=self.walk.run(WALK_MOVES)
		if counts is None:
			if self.walk.best is not None:self.target=self.walk.best[:];self.restarts.restarted();self._shake();self._backjump(0)
			return False
		self._backjump(0);grid=self.grid;mark=self.walk_mark=grid.mark()
		try:
			for(e,n)in enumerate(counts):grid.raise_lo(e,n);grid.lower_hi(e,n)
		except Contradiction:self._forget(mark[0]);grid.revert(mark);self.walk=None;return False
		self.sure=None;return True
	def _likeliest(self):
		lo,fact_level,fact_pos,target=self.grid.lo,self.fact_level,self.fact_pos,self.target;ranked=[]
		for(e,low)in enumerate(lo):
			if low:
				fact=4*e+low-1;level=fact_level[fact]
				if level:ranked.append((target[e]<low,level,-fact_pos[fact],fact))
		ranked.sort();return[fact for(*_,fact)in ranked]
	def _answer_press(self,facts):
		grid=self.grid;until=time.monotonic()+PROVE_FOR;self._backjump(0);links=sum(grid.lo)
		for fact in facts:
			for side in(negate(fact),fact):
				if time.monotonic()>until or not self._open(fact):break
				met=self._assume(side)
				if met is None:return False
				if sum(grid.lo)>links:return True
				if met:break
		still=[fact for fact in facts if self._open(fact)];return self._guess(still[0])if still else True
	def _open(self,fact):lo,hi=self.grid.lo,self.grid.hi;return not is_true(lo,hi,fact)and not is_true(lo,hi,negate(fact))
	def _assume(self,fact):
		grid=self.grid;self.level_marks.append(grid.mark());self.level_starts.append(len(grid.trail));self.why[len(grid.trail)]=_DECISION
		try:enforce(grid,fact)
		except Contradiction as dead:conflict=self._diagnose(dead)
		else:conflict=self._propagate()
		met=conflict is not None
		while conflict is not None:
			if not self._settle(conflict):return None
			conflict=self._propagate()
		self._backjump(0);return met
	def _guess(self,fact):
		self._backjump(0);self.press.guessed()
		try:enforce(self.grid,fact)
		except Contradiction:return False
		if self.walk is not None:stop=self.walk.stop;self.walk=Walk(self.grid,self.rng.random());self.walk.stop=stop;self.refilled=None
		return True
	def _unwalk(self):self._forget(self.walk_mark[0]);self.grid.revert(self.walk_mark)
	def _tell_sure(self):
		trail=self.grid.trail
		if self.sure is not None and len(trail)>self.told:self.told=len(trail);self.sure(self.grid.links())
	def _settle(self,conflict):
		while conflict is not None:
			if not self._jump_to_conflict(conflict):return False
			conflict=self._learn(conflict)
		return True
	def _decision_fact(self,level):grid=self.grid;trail=grid.trail;position=self.level_starts[level];e,old_lo,old_hi=trail[position];new_lo,new_hi=next(((lo,hi)for(f,lo,hi)in trail[position+1:]if f==e),(grid.lo[e],grid.hi[e]));return entry_facts(e,old_lo,old_hi,new_lo,new_hi)[0]
	def _decide(self):
		grid=self.grid;lo,hi=grid.lo,grid.hi;edges,_=choose_node(grid);e=max(edges,key=self.activity.__getitem__);stats=self.stats;stats.branch();self.level_marks.append(grid.mark());self.level_starts.append(len(grid.trail))
		if len(self.level_starts)>stats.max_depth:stats.max_depth=len(self.level_starts)
		count=self.target[e]
		if not lo[e]<=count<=hi[e]:count=self.phase[e]
		if not lo[e]<=count<=hi[e]:count=1 if lo[e]==0 else lo[e]
		fact=4*e+count-1 if count>lo[e]else 4*e+3-count;self.why[len(grid.trail)]=_DECISION
		try:enforce(grid,fact)
		except Contradiction as dead:return self._diagnose(dead)
		return None
	def _propagate(self):
		grid,stats=self.grid,self.stats;walks=False
		try:
			while True:
				looks(grid).completed.clear();propagate(grid,stats,slack_too=self.slack_too,walks_too=walks)
				if self.scanned==len(grid.trail):
					if walks:return None
					walks=True;continue
				walks=False;conflict=self._watch()
				if conflict is not None:return conflict
		except Contradiction as dead:return self._diagnose(dead)
	def _diagnose(self,dead):
		self._scan();conflict=diagnose(self.grid,self.top,*dead.args)
		if conflict is None:conflict=[self._decision_fact(level)for level in range(len(self.level_starts))]
		return conflict
	def _scan(self):
		grid=self.grid;trail,fact_pos,fact_level,lo,hi=grid.trail,self.fact_pos,self.fact_level,grid.lo,grid.hi;level=len(self.level_starts);made=[];after={}
		for position in range(len(trail)-1,self.scanned-1,-1):
			e,old_lo,old_hi=trail[position];new_lo,new_hi=after.get(e)or(lo[e],hi[e]);base=4*e
			if new_lo!=old_lo:fact,last=base+new_lo-1,base+old_lo
			else:fact,last=base+3-new_hi,base+4-old_hi
			while fact>=last:fact_pos[fact]=position;fact_level[fact]=level;made.append(fact);fact-=1
			after[e]=old_lo,old_hi
		self.scanned=len(trail);return made
	def _watch(self):
		grid,watches,nogoods,why=self.grid,self.watches,self.nogoods,self.why;lo,hi=grid.lo,grid.hi
		for fact in self._scan():
			watching=watches[fact]
			if not watching:continue
			keep=[]
			for(k,index)in enumerate(watching):
				facts=nogoods[index]
				if facts[0]==fact:facts[0],facts[1]=facts[1],facts[0]
				other=facts[0];kind=other&3
				if lo[other>>2]>3-kind if kind>1 else hi[other>>2]<=kind:keep.append(index);continue
				for j in range(2,len(facts)):
					other_fact=facts[j];kind=other_fact&3
					if lo[other_fact>>2]<=kind if kind<2 else hi[other_fact>>2]>3-kind:facts[1],facts[j]=facts[j],facts[1];watches[facts[1]].append(index);break
				else:
					keep.append(index)
					if is_true(lo,hi,other):keep.extend(watching[k+1:]);watching[:]=keep;self._scan();return list(facts)
					why[len(grid.trail)]=index
					try:enforce(grid,negate(other))
					except Contradiction as dead:keep.extend(watching[k+1:]);watching[:]=keep;return self._diagnose(dead)
			watching[:]=keep
		return None
	def _add_nogood(self,facts):
		index=len(self.nogoods);self.nogoods.append(facts)
		if len(facts)>1:self.watches[facts[0]].append(index);self.watches[facts[1]].append(index)
		return index
	def _file(self,facts,level,here,learned):
		fact_level=self.fact_level
		for fact in facts:
			at=fact_level[fact]
			if at==level:here.add(fact)
			elif at>0:learned.add(fact)
	def _jump_to_conflict(self,conflict):
		deepest=max(map(self.fact_level.__getitem__,conflict),default=0)
		if deepest==0:return False
		self._backjump(deepest);return True
	def _learn(self,conflict):
		self.stats.eliminations+=1;grid=self.grid;trail,lo,hi=grid.trail,grid.lo,grid.hi;level=len(self.level_starts);depth=len(trail)
		if len(trail)>self.best:self.best=len(trail);self.target=self.fullest=[low if low==high else-1 for(low,high)in zip(lo,hi)]
		learned,here=set(),set();drawn={};self._file(conflict,level,here,learned);kept=set();fact_pos=self.fact_pos
		while len(here)+len(kept)>1 and here:
			position=max(map(fact_pos.__getitem__,here));e=trail[position][0];every=[f for f in range(4*e+3,4*e-1,-1)if fact_pos[f]==position and is_true(lo,hi,f)];made=[f for f in every if f in here];how=self.why.get(position);here.difference_update(made)
			if how==_DECISION:kept.add(made[0]);continue
			if how is not None:set_by_it={negate(f)for f in every};reason=[f for f in self.nogoods[how]if f not in set_by_it]
			else:
				reason=node_reason(grid,self.top,every[0],fact_pos,position)
				if reason is None:self._undo_to(position);kind=every[0]&3;new_lo,new_hi=(kind+1,hi[e])if kind<2 else(lo[e],3-kind);reason=reason_for(grid,self.top,e,new_lo,new_hi,drawn)
			if reason is None:kept.add(made[0]);continue
			self._file(reason,level,here,learned)
		uip=list(here|kept);level_of=self.fact_level.__getitem__;self.restarts.conflict(depth,1+len(set(map(level_of,learned))));self._bump(uip,learned);others=sorted(learned,key=level_of,reverse=True)
		if len(uip)==1:target=level_of(others[0])if others else 0
		else:target=level-1
		self._backjump(target);facts=uip+others;index=self._add_nogood(facts)
		if len(uip)!=1:return None
		self.why[len(grid.trail)]=index
		try:enforce(grid,negate(uip[0]))
		except Contradiction as dead:return self._diagnose(dead)
		return None
	def _undo_to(self,length):
		grid=self.grid
		if length>=len(grid.trail):return
		self._forget(length);grid.revert((length,True,True,None,()))
	def _forget(self,length):
		grid=self.grid;trail,lo,hi,phase,why=grid.trail,grid.lo,grid.hi,self.phase,self.why
		for position in range(length,len(trail)):
			e=trail[position][0]
			if lo[e]==hi[e]:phase[e]=lo[e]
			why.pop(position,None)
		if self.scanned>length:self.scanned=length
	def _backjump(self,level):
		if level>=len(self.level_starts):return
		grid=self.grid;mark=self.level_marks[level];self._forget(mark[0])
		if len(grid.trail)>=mark[0]:grid.revert(mark)
		del self.level_starts[level:];del self.level_marks[level:];self.scanned=len(grid.trail)
	def _shake(self):learned=memory(self.grid);rng=self.rng;learned.conflicts=[c*(1+SHAKE*rng.random())for c in learned.conflicts];learned.scored_at=-1
	def _bump(self,*groups):
		activity=self.activity;self.bump/=ACTIVITY_DECAY;bump=self.bump;edges={f>>2 for group in groups for f in group};learned,ends=memory(self.grid),self.grid.puzzle.ends
		for e in edges:activity[e]+=bump;learned.blame(ends[e][0],ends[e][1:],NODE_WEIGHT)
		if bump>1e100:self.activity=[a*1e-100 for a in activity];self.bump*=1e-100
''')
    __stickytape_write_module('bot/reasons.py', rb'''from itertools import chain
from bot.grid import CLOSED,CUT,REGION,SLACK
from bot.intersection import bridges_from
AT_LEAST_1,AT_LEAST_2,AT_MOST_1,AT_MOST_0=range(4)
def bound_facts(grid,top,e,lows=True,highs=True):
	facts=[];low,high=grid.lo[e],grid.hi[e]
	if lows and low:facts.append(4*e+low-1)
	if highs and high<top[e]:facts.append(4*e+3-high)
	return facts
def reason_for(grid,top,e,new_lo,new_hi,drawn=None):
	p=grid.puzzle;lo=grid.lo;a,b=p.ends[e]
	if new_lo>lo[e]:
		if new_lo==1:
			side=_reachable(grid,a,e)
			if b not in side:return[4*f+AT_MOST_0 for x in side for(f,y)in p.node_edges[x]if f!=e and y not in side]
		return None
	if new_hi==0:
		for f in p.crossings[e]:
			if lo[f]:return[4*f+AT_LEAST_1]
	return _isolation(grid,top,e,new_hi)or _slack(grid,e,new_hi,drawn)
def node_reason(grid,top,fact,fact_pos,position):
	p=grid.puzzle;lo,hi,value,edges_at=grid.lo,grid.hi,p.value,p.edges_at;e,kind=fact>>2,fact&3;new_lo,new_hi=kind+1,3-kind;a,b=p.ends[e]
	for x in(a,b):
		facts=[]
		if kind<2:
			room=value[x]
			for f in edges_at[x]:
				if f!=e:
					high=0 if not hi[f]and fact_pos[4*f+3]<position else 1 if hi[f]<2 and fact_pos[4*f+2]<position else top[f];room-=high
					if high<top[f]:facts.append(4*f+3-high)
			if room>=new_lo:return facts
		else:
			left=value[x]
			for f in edges_at[x]:
				if f!=e:
					low=2 if lo[f]==2 and fact_pos[4*f+1]<position else 1 if lo[f]and fact_pos[4*f]<position else 0;left-=low
					if low:facts.append(4*f+low-1)
			if left<=new_hi:return facts
	return None
def _slack(grid,e,new_hi,drawn=None):
	left=grid.spare-grid.waste
	if left>1:return None
	low=grid.lo[e]
	if new_hi<low+left:return None
	waste=_waste(grid)if drawn is None else drawn.get(len(grid.joins))
	if waste is None:waste=drawn[len(grid.joins)]=_waste(grid)
	if new_hi>=low+left+1 or low:return waste
	a,b=grid.puzzle.ends[e];path=_drawn_path(grid,a,b);return None if path is None else waste+path
def _waste(grid):
	lo=grid.lo;doubled=lo.count(2);facts=[]
	if grid.waste>doubled:facts=[4*e+AT_LEAST_1 for e in _cycle_edges(grid)[0]if lo[e]==1]
	if doubled:facts+=[4*e+AT_LEAST_2 for(e,low)in enumerate(lo)if low==2]
	return facts
def _cycle_edges(grid):
	p=grid.puzzle;lo,node_edges,parent,size,next_member=grid.lo,p.node_edges,grid.parent,grid.size,grid.next_member;loops={}
	for(f,(a,_))in enumerate(p.ends):
		if lo[f]:
			while parent[a]!=a:a=parent[a]
			loops[a]=loops.get(a,0)+1
	order=[-1]*len(p);low=[0]*len(p);on_cycles=[];cycles=0;clock=0
	for(root,drawn)in loops.items():
		if drawn<size[root]:continue
		cycles+=drawn-size[root]+1;found,clock=bridges_from(node_edges,lo,root,order,low,clock);bridges=set(found);x=root
		while True:
			for(f,y)in node_edges[x]:
				if lo[f]and x<y and f not in bridges:on_cycles.append(f)
			x=next_member[x]
			if x==root:break
	return on_cycles,cycles
def _drawn_path(grid,a,b):
	lo,node_edges=grid.lo,grid.puzzle.node_edges;via={a:-1};queue=[a]
	for x in queue:
		if x==b:break
		for(f,y)in node_edges[x]:
			if lo[f]and y not in via:via[y]=f;queue.append(y)
	if b not in via:return None
	ends,facts,x=grid.puzzle.ends,[],b
	while via[x]>=0:f=via[x];facts.append(4*f+AT_LEAST_1);x=ends[f][0]if ends[f][1]==x else ends[f][1]
	return facts
def _isolation(grid,top,e,new_hi):
	p=grid.puzzle;lo,parent,need,size=grid.lo,grid.parent,grid.need,grid.size;a,b=p.ends[e];ra,rb=a,b
	while parent[ra]!=ra:ra=parent[ra]
	while parent[rb]!=rb:rb=parent[rb]
	joined,total=(size[ra],need[ra])if ra==rb else(size[ra]+size[rb],need[ra]+need[rb])
	if joined==len(p)or total<=0 or total%2 or lo[e]+total//2-1>new_hi:return None
	members=_group(grid,a)
	if b not in members:members|=_group(grid,b)
	ends=[fact for x in{a,b}for f in p.edges_at[x]if f!=e for fact in bound_facts(grid,top,f,highs=False)];drawn=_drawn_facts(grid,members);shut=_shut(grid,top,members,(a,b))
	if shut is None or len(drawn)<=len(ends)+len(shut):return drawn
	return ends+shut
def _drawn_facts(grid,members):lo,edges_at=grid.lo,grid.puzzle.edges_at;return list({4*f+lo[f]-1 for x in members for f in edges_at[x]if lo[f]})
def _shut(grid,top,members,ends=()):
	p=grid.puzzle;lo,hi,got,value=grid.lo,grid.hi,grid.got,p.value;facts=[];full=set()
	for x in members:
		if x in ends:continue
		for(f,y)in p.node_edges[x]:
			if y in members:continue
			if not hi[f]:facts.append(4*f+AT_MOST_0)
			elif got[x]==value[x]:
				if x not in full:full.add(x);facts.extend(fact for g in p.edges_at[x]for fact in bound_facts(grid,top,g,highs=False))
			else:return None
	return facts
def _group(grid,start):
	next_member=grid.next_member;members={start};x=next_member[start]
	while x!=start:members.add(x);x=next_member[x]
	return members
def _reachable(grid,start,without):return _spread(grid.hi,grid.puzzle.node_edges,start,without)
def _spread(bound,node_edges,start,without):
	seen={start};stack=[start]
	while stack:
		x=stack.pop()
		for(f,y)in node_edges[x]:
			if bound[f]and f!=without and y not in seen:seen.add(y);stack.append(y)
	return seen
def diagnose(grid,top,hint=None,rule=None):
	if rule==SLACK:return _waste(grid)
	if rule==CLOSED:return _closed(grid,top,hint)
	if rule==REGION:
		found=_unbalanced_region(grid,top)
		if found is not None:return found
	elif rule==CUT:
		found=_smallest_cut(grid)
		if found is not None:return found
	p=grid.puzzle;n=len(p);lo,hi,got,cap,value=grid.lo,grid.hi,grid.got,grid.cap,p.value;recent=[hint]if hint is not None else[];recent+=[x for(e,_,_)in grid.trail[-8:]for x in p.ends[e]]
	for x in chain(recent,range(n)):
		if got[x]>value[x]:return[fact for f in p.edges_at[x]for fact in bound_facts(grid,top,f,highs=False)]
		if cap[x]<value[x]:return[fact for f in p.edges_at[x]for fact in bound_facts(grid,top,f,lows=False)]
	for(e,low)in enumerate(lo):
		if low:
			for f in p.crossings[e]:
				if lo[f]:return[4*e+AT_LEAST_1,4*f+AT_LEAST_1]
	parent,need,size=grid.parent,grid.need,grid.size
	for x in range(n):
		if parent[x]==x and need[x]<=0 and size[x]<n:return _closed(grid,top,x)
	if n>1:
		cut=_smallest_cut(grid)
		if cut is not None:return cut
	return _unbalanced_region(grid,top)
def _closed(grid,top,x):members=_group(grid,x);shut=_shut(grid,top,members);drawn=_drawn_facts(grid,members);return shut if shut is not None and len(shut)<len(drawn)else drawn
def _smallest_cut(grid):
	p=grid.puzzle;hi,node_edges=grid.hi,p.node_edges;label=[-1]*len(p);best=None
	for start in range(len(p)):
		if label[start]>=0:continue
		label[start]=start;part=[start]
		for x in part:
			for(f,y)in node_edges[x]:
				if hi[f]and label[y]<0:label[y]=start;part.append(y)
		if len(part)==len(p):return None
		cut=[4*f+AT_MOST_0 for x in part for(f,y)in node_edges[x]if label[y]!=start]
		if best is None or len(cut)<len(best):best=cut
	return best
def _unbalanced_region(grid,top):
	p=grid.puzzle;lo,hi,got,cap=grid.lo,grid.hi,grid.got,grid.cap;value,node_edges=p.value,p.node_edges;seen=bytearray(len(p));side=bytearray(len(p));best=None
	for start in range(len(p)):
		if seen[start]or got[start]==cap[start]==value[start]:continue
		seen[start]=1;region=[start];missing=[0,0];two_sides=True
		for x in region:
			missing[side[x]]+=value[x]-got[x]
			for(f,y)in node_edges[x]:
				if lo[f]!=hi[f]:
					if not seen[y]:seen[y]=1;side[y]=1-side[x];region.append(y)
					elif side[y]==side[x]:two_sides=False
		if missing[0]!=missing[1]if two_sides else(missing[0]+missing[1])%2:
			inside=set(region);read={f for x in region for(f,y)in node_edges[x]if lo[f]==hi[f]and(y not in inside or two_sides and side[x]==side[y])};facts=[fact for f in read for fact in bound_facts(grid,top,f)]
			if best is None or len(facts)<len(best):best=facts
	return best
''')
    __stickytape_write_module('bot/local.py', rb'''import random
from itertools import permutations
from bot.grid import components,solves
from bot.intersection import bridges_from
from bot.tuning import SEED,WALK_FILL_MOVES,WALK_FOCUS,WALK_FOCUS_EVERY,WALK_LOOSE_EVERY,WALK_REACH,WALK_WORSE
_TURN=8
_GIVE_UP_FILLS=3
_STOP_EVERY=64
_ORDERS=[list(permutations(range(d)))for d in range(5)]
def loose_links(node_edges,count):
	n=len(node_edges);order,low=[-1]*n,[0]*n;bridges=set();clock=0
	for root in range(n):
		if order[root]<0:found,clock=bridges_from(node_edges,count,root,order,low,clock);bridges.update(found)
	return bytearray(1 if c>1 or c and e not in bridges else 0 for(e,c)in enumerate(count))
def filled(grid,seed=SEED):walk=Walk(grid,seed);walk._fill();return walk.count
class Walk:
	def __init__(self,grid,seed=SEED):p=grid.puzzle;self.puzzle=p;self.lo,self.hi,self.got=grid.lo[:],grid.hi[:],grid.got[:];self.rng=random.Random(seed);self.stop=None;self.count=None;self.start=None;self.groups=0;self.moves=0;self.failed=0;self.best=None;self.best_groups=0;self.label=[];self.size={};self.fresh=0;self.focus=[];self.answers=set();self.loose=None;self.seen=[0]*len(p);self.owner=[0]*len(p);self.stamp=0
	def run(self,moves):
		stop=self.stop
		for step in range(moves):
			if stop is not None and not step%_STOP_EVERY and step and stop():return None
			if self.count is None or self.moves>=WALK_FILL_MOVES:
				if self.failed>=_GIVE_UP_FILLS:return None
				self._fill();continue
			if self.groups==1:
				answer=tuple(self.count)
				if answer not in self.answers:
					if not solves(self.puzzle,self.count):self.count=None;continue
					self.answers.add(answer);return list(answer)
			self._move()
		return None
	def refill(self,start):self.start,self.count=start,None
	def _fill(self):
		p,rng,lo,hi=self.puzzle,self.rng,self.lo,self.hi;ends,crossings=p.ends,p.crossings;count=lo[:];short=[v-g for(v,g)in zip(p.value,self.got)]
		if self.start is not None:
			for(e,n)in enumerate(self.start):
				if n>count[e]:a,b=ends[e];short[a]-=n-count[e];short[b]-=n-count[e];count[e]=n
			self.start=None
		order=[e for e in range(len(ends))if hi[e]>lo[e]];rng.shuffle(order)
		for e in order:
			a,b=ends[e];room=min(hi[e]-count[e],short[a],short[b])
			if room<=0 or not count[e]and any(count[f]for f in crossings[e]):continue
			take=room if room==1 or rng.random()<.5 else 1;count[e]+=take;short[a]-=take;short[b]-=take
		self.count,self.moves=count,0;needy=[i for(i,s)in enumerate(short)if s>0];rng.shuffle(needy)
		for i in needy:
			while short[i]>0:
				path=self._alternate(i,-1,lambda j,i=i:short[j]>0 and j!=i,len(short),True)
				if path is None or not self._apply(path):self.count=None;self.failed+=1;return
				short[i]-=1;short[path[-1][2]]-=1
		self.failed=0;label,_,size=components(self,count);self.label=label;self.size=dict(enumerate(size));self.fresh=len(size);self.groups=len(size);self.best,self.best_groups=count[:],self.groups
	def _move(self):
		count,lo,rng=self.count,self.lo,self.rng;self.moves+=1
		if self.moves%WALK_FOCUS_EVERY==1:self.focus=self._outside_largest()
		if self.moves%WALK_LOOSE_EVERY==1:self.loose=loose_links(self.puzzle.node_edges,count)
		if self.focus and rng.random()<WALK_FOCUS:e=self.focus[int(rng.random()*len(self.focus))]
		else:e=rng.randrange(len(count))
		if count[e]<=lo[e]:return
		a,b=self.puzzle.ends[e]
		if rng.random()<.5:a,b=b,a
		count[e]-=1;path=self._alternate(b,e,lambda j:j==a,WALK_REACH,False)
		if path is None:count[e]+=1;return
		ends=[a,b]+[i for(f,_,_)in path for i in self.puzzle.ends[f]];label=self.label;touched={label[i]for i in ends}
		if not self._apply(path):count[e]+=1;return
		after,walked=self._groups_among(ends);groups=self.groups+after-len(touched)
		if groups<=self.groups or groups==self.groups+1 and rng.random()*WALK_WORSE<1:
			self.groups=groups;self._relabel(*walked(),touched)
			if groups<self.best_groups:self.best,self.best_groups=count[:],groups
			return
		self._undo(path);count[e]+=1
	def _alternate(self,start,banned,is_goal,reach,every):
		count,lo,hi,draw=self.count,self.lo,self.hi,self.rng.random;node_edges,crossings=self.puzzle.node_edges,self.puzzle.crossings;came={start:None};loose=self.loose;queue=[start]
		for u in queue:
			if len(came)>reach:return None
			adds=node_edges[u];orders=_ORDERS[len(adds)]
			for k in orders[int(draw()*len(orders))]:
				f,v=adds[k]
				if f==banned or v in came or count[f]>=hi[f]or not count[f]and crossings[f]and any(count[g]for g in crossings[f]):continue
				if is_goal(v):return self._path_to(came,u,f,v)
				came[v]=None;takes=node_edges[v];orders=_ORDERS[len(takes)]
				if every:
					for k in orders[int(draw()*len(orders))]:
						g,w=takes[k]
						if g!=f and g!=banned and count[g]>lo[g]and w not in came:came[w]=f,u,g,v;queue.append(w)
					continue
				chosen=None
				for k in orders[int(draw()*len(orders))]:
					g,w=takes[k]
					if g!=f and g!=banned and count[g]>lo[g]and w not in came:
						if loose[g]:chosen=g,w;break
						if chosen is None:chosen=g,w
				if chosen is not None:g,w=chosen;came[w]=f,u,g,v;queue.append(w)
		return None
	@staticmethod
	def _path_to(came,u,f,v):
		path=[(f,1,v)]
		while came[u]is not None:added,before,taken,via=came[u];path.append((taken,-1,u));path.append((added,1,via));u=before
		path.reverse();return path
	def _outside_largest(self):size=self.size;largest=max(size,key=size.__getitem__);node_edges=self.puzzle.node_edges;return sorted({f for(i,g)in enumerate(self.label)if g!=largest for(f,_)in node_edges[i]})
	def _apply(self,path):
		count,crossings=self.count,self.puzzle.crossings
		for(f,step,_)in path:count[f]+=step
		for(f,step,_)in path:
			if step>0 and count[f]and crossings[f]and any(count[g]for g in crossings[f]):self._undo(path);return False
		return True
	def _undo(self,path):
		count=self.count
		for(f,step,_)in path:count[f]-=step
	def _relabel(self,parts,rest,touched):
		label,size=self.label,self.size
		for part in parts:
			new=self.fresh;self.fresh+=1
			for i in part:size[label[i]]-=1;label[i]=new
			size[new]=len(part)
		if rest:self._join(rest)
		for old in touched:
			if not size[old]:del size[old]
	def _join(self,rest):
		label,size=self.label,self.size;keep=max({label[i]for i in rest},key=size.__getitem__);node_edges,count=self.puzzle.node_edges,self.count
		for i in rest:
			old=label[i]
			if old==keep:continue
			label[i]=keep;moved=1;stack=[i]
			while stack:
				u=stack.pop()
				for(f,v)in node_edges[u]:
					if count[f]and label[v]==old:label[v]=keep;moved+=1;stack.append(v)
			size[keep]+=moved;size[old]-=moved
	def _groups_among(self,sources):
		count,node_edges=self.count,self.puzzle.node_edges;self.stamp+=1;stamp,seen,owner=self.stamp,self.seen,self.owner;reached=[];lead=[];todo=[]
		for i in sources:
			if seen[i]!=stamp:seen[i]=stamp;owner[i]=len(lead);reached.append(i);lead.append(len(lead));todo.append([i])
		running=list(range(len(lead)));finished=[]
		while len(running)>1:
			changed=False
			for k in running:
				if lead[k]!=k:continue
				islands=todo[k]
				for _ in range(_TURN):
					if not islands:finished.append(k);changed=True;break
					i=islands.pop()
					for(f,j)in node_edges[i]:
						if not count[f]:continue
						if seen[j]!=stamp:seen[j]=stamp;owner[j]=k;reached.append(j);islands.append(j);continue
						other=owner[j]
						if other==k:continue
						while lead[other]!=other:other=lead[other]
						if other!=k:lead[other]=k;islands.extend(todo[other]);todo[other]=[];changed=True
						owner[j]=k
			if changed:running=[k for k in running if lead[k]==k and k not in finished]
		def leader(k):
			while lead[k]!=k:k=lead[k]
			return k
		def walked():
			parts={k:[]for k in finished};left=running[0]if running else-1;wanted=set(sources);rest=[]
			for i in reached:
				k=leader(owner[i])
				if k in parts:parts[k].append(i)
				elif k==left and i in wanted:rest.append(i)
			return list(parts.values()),rest
		return len(finished)+len(running),walked
''')
    __stickytape_write_module('bot/restarts.py', rb'''from collections import deque
from bot.tuning import BLOCK_AFTER,BLOCK_DEPTH,DEPTH_WINDOW,RESTART_MARGIN,RESTART_WINDOW
class Restarts:
	def __init__(self):self.conflicts=0;self.glue_sum=0;self.recent=deque();self.recent_sum=0;self.depths=deque();self.depth_sum=0
	def conflict(self,depth,glue):
		self.conflicts+=1;self.depths.append(depth);self.depth_sum+=depth
		if len(self.depths)>DEPTH_WINDOW:self.depth_sum-=self.depths.popleft()
		if self.conflicts>BLOCK_AFTER and len(self.recent)==RESTART_WINDOW and depth*len(self.depths)>BLOCK_DEPTH*self.depth_sum:self.restarted()
		self.glue_sum+=glue;self.recent.append(glue);self.recent_sum+=glue
		if len(self.recent)>RESTART_WINDOW:self.recent_sum-=self.recent.popleft()
	def due(self):return len(self.recent)==RESTART_WINDOW and self.recent_sum*RESTART_MARGIN*self.conflicts>RESTART_WINDOW*self.glue_sum
	def restarted(self):self.recent.clear();self.recent_sum=0
''')
    __stickytape_write_module('bot/cli.py', rb'''import sys
import time
from bot.pacing import Pacer
from bot.puzzle import PuzzleError
from bot.solver import Unsolvable,solve
EXIT_UNSOLVABLE=1
EXIT_MALFORMED=2
def read_puzzle(stream):
	lines=[stream.readline(),stream.readline()];word=lines[1].strip();rows=int(word)if word.isascii()and word.isdigit()else 0
	for _ in range(rows):
		line=stream.readline()
		if not line:break
		lines.append(line)
	return''.join(lines)
def main():
	text=read_puzzle(sys.stdin);pacer=Pacer(sys.stdout,start=time.monotonic()).start()
	try:
		links=solve(text,sure=pacer.sure,press=pacer)
		if not links:raise PuzzleError('the grid has no island')
	except PuzzleError as error:pacer.stop();print(f"bot: malformed puzzle: {error}",file=sys.stderr);sys.exit(EXIT_MALFORMED)
	except Unsolvable as error:pacer.stop();said='no solution holds the links guessed when the sure ones ran out'if pacer.guesses else error;print(f"bot: {said}",file=sys.stderr);sys.exit(EXIT_UNSOLVABLE)
	try:pacer.finish(links)
	except BrokenPipeError:sys.exit(0)
''')
    __stickytape_write_module('bot/pacing.py', rb'''import os
import select
import sys
import threading
import time
from collections import Counter,deque
FIRST_AT=.5
EVERY=.07
SWITCH=.001
LEAD=.02
class Schedule:
	def __init__(self,start,first_at,every,clock=time.monotonic):self.clock=clock;self.every=every;self.next_at=start+first_at;self.waiting=deque();self.printed=Counter()
	def wait(self):
		if not self.waiting:return None
		return max(.0,self.next_at-self.clock())
	def take(self):pair=self.waiting.popleft();self.printed[pair]+=1;self.next_at=self.clock()+self.every;return pair
def line(*numbers):return' '.join(map(str,numbers))+'\n'
class Pacer:
	def __init__(self,out,start=None,first_at=FIRST_AT,every=EVERY,clock=time.monotonic,lead=LEAD):self.out=out;start=clock()if start is None else start;self.known=Counter();self.clock=clock;self.every=every;self.lead=lead;self.dry_at=start+first_at;self.guesses=0;schedule=Schedule(start,first_at,every,clock);self.printer=_child_printer(out,schedule)or _ThreadPrinter(out,schedule)
	def start(self):self.printer.start();return self
	def sure(self,links):
		units=[]
		for(*pair,n)in links:pair=tuple(pair);units+=[pair]*(n-self.known[pair]);self.known[pair]=max(self.known[pair],n)
		if units:
			self.printer.queue(units);now=self.clock()
			for _ in units:self.dry_at=max(self.dry_at,now)+self.every
	def due(self):return self.lead is not None and self.clock()+self.lead>=self.dry_at
	def guessed(self):self.guesses+=1
	def finish(self,links):
		printed=self.stop()
		for(*pair,n)in links:
			left=n-printed[tuple(pair)]
			if left>0:self.out.write(line(*pair,left));self.out.flush()
	def stop(self):return self.printer.stop()
class _ThreadPrinter:
	def __init__(self,out,schedule):self.out=out;self.schedule=schedule;self.turn=threading.Condition();self.done=False;self.thread=threading.Thread(target=self._run,name='pacer',daemon=True)
	def start(self):sys.setswitchinterval(SWITCH);self.thread.start()
	def queue(self,units):
		with self.turn:self.schedule.waiting.extend(units);self.turn.notify()
	def stop(self):
		with self.turn:self.done=True;self.turn.notify()
		if self.thread.is_alive():self.thread.join()
		return self.schedule.printed
	def _run(self):
		schedule=self.schedule
		with self.turn:
			while not self.done:
				wait=schedule.wait()
				if wait is None or wait>0:self.turn.wait(wait);continue
				try:self.out.write(line(*schedule.take(),1));self.out.flush()
				except(BrokenPipeError,ValueError):return
def _child_printer(out,schedule):
	try:fd=out.fileno()
	except(AttributeError,OSError,ValueError):return None
	if not hasattr(os,'fork'):return None
	return _ChildPrinter(fd,out,schedule)
class _ChildPrinter:
	def __init__(self,fd,out,schedule):self.fd=fd;self.out=out;self.schedule=schedule;self.pid=None;self.thread=None
	def start(self):
		self.out.flush()
		try:down,self.orders=os.pipe();self.replies,up=os.pipe();self.pid=os.fork()
		except OSError:self.thread=_ThreadPrinter(self.out,self.schedule);self.thread.start();return
		if self.pid==0:
			os.close(self.orders);os.close(self.replies);code=0
			try:_pace(down,up,self.fd,self.schedule)
			except BaseException:code=1
			os._exit(code)
		os.close(down);os.close(up)
	def queue(self,units):
		if self.thread is not None:return self.thread.queue(units)
		if self.pid is None:return
		os.write(self.orders,''.join(line(*pair)for pair in units).encode())
	def stop(self):
		if self.thread is not None:return self.thread.stop()
		if self.pid is None:return Counter()
		pid,self.pid=self.pid,None;printed,ended=Counter(),False
		try:
			os.write(self.orders,b'stop\n')
			for reply in _lines(self.replies):
				if reply=='end':ended=True;break
				*pair,n=map(int,reply.split());printed[tuple(pair)]=n
			if not ended:raise BrokenPipeError('the pacer is gone')
		finally:os.close(self.orders);os.close(self.replies);os.waitpid(pid,0)
		return printed
def _lines(fd):
	rest=b''
	while True:
		chunk=os.read(fd,65536)
		if not chunk:return
		rest+=chunk;*whole,rest=rest.split(b'\n')
		for text in whole:yield text.decode()
def _pace(orders,replies,fd,schedule):
	rest=b''
	while True:
		readable,_,_=select.select([orders],[],[],schedule.wait())
		if not readable:os.write(fd,line(*schedule.take(),1).encode());continue
		chunk=os.read(orders,65536)
		if not chunk:return
		rest+=chunk;*whole,rest=rest.split(b'\n')
		for order in whole:
			if order==b'stop':report=''.join(line(*pair,n)for(pair,n)in schedule.printed.items());os.write(replies,(report+'end\n').encode());return
			schedule.waiting.append(tuple(map(int,order.split())))
''')
    from bot.cli import main
    main()
    
