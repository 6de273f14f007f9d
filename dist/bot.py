#!/usr/bin/env python3
# spoon2's bot for CodinGame's There Is No Spoon - Episode 2, built by build.py from bot/.
# The solver's options, one a line with its default: FIELDS in bot/options.py, line 65.
# To change the bot for good, edit bot/ in the project and rebuild: python build.py (make build).
# Below: MODULES, each module's source; then BundleImporter, which imports them from memory.
MODULES={
'bot/__init__.py':'',
'bot/cli.py':r'''
import select,sys,time
from bot.options import DEFAULT
from bot.pacing import Pacer
from bot.puzzle import PuzzleError,side_value
from bot.solver import Unsolvable,solve
EXIT_UNSOLVABLE=1
EXIT_MALFORMED=2
READ_BYTES=1<<16
MAX_INPUT_BYTES=1<<24
def read_puzzle(stream):
	try:
		raw=getattr(stream,'buffer',stream).raw
		fd=raw.fileno()
	except(AttributeError,OSError,ValueError):
		return stream.read()
	data,lines,wanted=bytearray(),0,None
	while wanted is None or lines<wanted:
		chunk=raw.read(READ_BYTES)
		if not chunk:
			break
		data+=chunk
		lines+=chunk.count(b'\n')
		if wanted is None and lines>=2:
			line=data.split(b'\n',2)[1].removesuffix(b'\r')
			height=side_value(line.decode('ascii','replace'))
			wanted=2+(height or 0)
		if len(data)>MAX_INPUT_BYTES:
			break
	while len(data)<=MAX_INPUT_BYTES and select.select([fd],[],[],0)[0]:
		chunk=raw.read(READ_BYTES)
		if not chunk:
			break
		data+=chunk
	return data.decode('utf-8',errors='surrogateescape')
def main(options=DEFAULT,pacer=Pacer):
	text=read_puzzle(sys.stdin)
	pacer=pacer(sys.stdout,start=time.monotonic())
	try:
		links=solve(text,sure=pacer.sure,press=pacer,options=options)
		if not links:
			raise PuzzleError('the grid has no island')
	except PuzzleError as error:
		pacer.stop()
		print(f"bot: malformed puzzle: {error}",file=sys.stderr)
		sys.exit(EXIT_MALFORMED)
	except Unsolvable as error:
		pacer.stop()
		said='no solution holds the links guessed when the sure ones ran out'if pacer.guesses else error
		print(f"bot: {said}",file=sys.stderr)
		sys.exit(EXIT_UNSOLVABLE)
	try:
		pacer.finish(links)
	except BrokenPipeError:
		sys.exit(0)
''',
'bot/options.py':r'''
FIELDS=(('region_walk',60),
	('probe_balance_after',20),
	('parity_pays',20),
	('probe_balance_rarely',70),
	('mend_share',50),
	('node_search_branches',40),
	('node_search_stall',5),
	('node_search_stretch',5),
	('global_every',2),
	('islands_per_global',100),
	('probe_options',2),
	('score_heap_from',500),
	('learn_slack_spare',6),
	('activity_decay',.95),
	('restart_window',50),
	('restart_margin',.7),
	('block_depth',1.4),
	('depth_window',5000),
	('block_after',100),
	('node_weight',.3),
	('shake',.5),
	('seed',1),
	('prove_for',.01),
	('walk_spare',20),
	('walk_after',300),
	('walk_every',200),
	('walk_moves',4000),
	('walk_fill_moves',30000),
	('walk_reach',400),
	('walk_worse',300),
	('walk_focus',.5),
	('walk_focus_every',50),
	('walk_loose_every',200))
class Options:
	__slots__=tuple(name for(name,_)in FIELDS)
	def __init__(self,**values):
		for(name,default)in FIELDS:
			object.__setattr__(self,name,values.pop(name,default))
		if values:
			raise ValueError(f"not an option: {', '.join(values)}")
	def __setattr__(self,name,value):
		raise AttributeError('options are one value: make another with replace()')
	def replace(self,**changes):
		return Options(**{**{name:getattr(self,name)for name in self.__slots__},**changes})
DEFAULT=Options()
''',
'bot/pacing.py':r'''
import time
from bot.lines import line
FIRST_AT=.5
EVERY=.07
LEAD=.02
class LineSchedule:
	def __init__(self,start,first_at,every,clock=time.monotonic):
		self.clock=clock
		self.every=every
		self.next_at=start+first_at
		self.waiting=[]
		self.printed={}
	def wait(self):
		if not self.waiting:
			return
		return max(.0,self.next_at-self.clock())
	def take(self):
		pair=self.waiting.pop(0)
		self.printed[pair]=self.printed.get(pair,0)+1
		self.next_at=self.clock()+self.every
		return pair
class Pacer:
	def __init__(self,out,start=None,first_at=FIRST_AT,every=EVERY,clock=time.monotonic,lead=LEAD):
		self.out=out
		start=clock()if start is None else start
		self.known={}
		self.clock=clock
		self.every=every
		self.lead=lead
		self.dry_at=start+first_at
		self.guesses=0
		self.schedule=LineSchedule(start,first_at,every,clock)
		self.printer=None
		self.stopped=False
	def sure(self,links):
		units=[]
		for(*pair,n)in links:
			pair=tuple(pair)
			known=self.known.get(pair,0)
			units+=[pair]*(n-known)
			self.known[pair]=max(known,n)
		if units and not self.stopped:
			if self.printer is None:
				from bot.printers import printer
				self.printer=printer(self.out,self.schedule)
			self.printer.queue(units)
			now=self.clock()
			for _ in units:
				self.dry_at=max(self.dry_at,now)+self.every
	def due(self):
		return self.lead is not None and self.clock()+self.lead>=self.dry_at
	def guessed(self):
		self.guesses+=1
	def finish(self,links):
		printed=self.stop()
		for(*pair,n)in links:
			left=n-printed.get(tuple(pair),0)
			if left>0:
				self.out.write(line(*pair,left))
				self.out.flush()
	def stop(self):
		self.stopped=True
		return self.printer.stop()if self.printer is not None else{}
''',
'bot/lines.py':r'''
def line(*numbers):
	return' '.join(map(str,numbers))+'\n'
''',
'bot/printers.py':r'''
import os,select,sys
from bot.lines import line
SWITCH=.001
class ThreadPrinter:
	def __init__(self,out,schedule):
		import threading
		self.out=out
		self.schedule=schedule
		self.turn=threading.Condition()
		self.done=False
		self.thread=threading.Thread(target=self._run,name='pacer',daemon=True)
		sys.setswitchinterval(SWITCH)
		self.thread.start()
	def queue(self,units):
		with self.turn:
			self.schedule.waiting.extend(units)
			self.turn.notify()
	def stop(self):
		with self.turn:
			self.done=True
			self.turn.notify()
		if self.thread.is_alive():
			self.thread.join()
		return self.schedule.printed
	def _run(self):
		schedule=self.schedule
		with self.turn:
			while not self.done:
				wait=schedule.wait()
				if wait is None or wait>0:
					self.turn.wait(wait)
					continue
				try:
					self.out.write(line(*schedule.take(),1))
					self.out.flush()
				except(BrokenPipeError,ValueError):
					return
def printer(out,schedule):
	try:
		return ChildPrinter(out.fileno(),out,schedule)
	except(AttributeError,OSError,ValueError):
		return ThreadPrinter(out,schedule)
class ChildPrinter:
	def __init__(self,fd,out,schedule):
		out.flush()
		self.schedule=schedule
		down,self.orders=os.pipe()
		self.replies,up=os.pipe()
		self.pid=os.fork()
		if self.pid==0:
			os.close(self.orders)
			os.close(self.replies)
			code=0
			try:
				_pace(down,up,fd,schedule)
			except BaseException:
				code=1
			os._exit(code)
		os.close(down)
		os.close(up)
	def queue(self,units):
		if self.pid is not None:
			os.write(self.orders,''.join(line(*pair)for pair in units).encode())
	def stop(self):
		if self.pid is None:
			return{}
		pid,self.pid=self.pid,None
		printed,ended={},False
		try:
			os.write(self.orders,b'stop\n')
			for reply in _lines(self.replies):
				if reply=='end':
					ended=True
					break
				*pair,n=map(int,reply.split())
				printed[tuple(pair)]=n
			if not ended:
				raise BrokenPipeError('the pacer is gone')
		finally:
			os.close(self.orders)
			os.close(self.replies)
			os.waitpid(pid,0)
		return printed
def _lines(fd):
	rest=b''
	while True:
		chunk=os.read(fd,65536)
		if not chunk:
			return
		rest+=chunk
		*whole,rest=rest.split(b'\n')
		for text in whole:
			yield text.decode()
def _pace(orders,replies,fd,schedule):
	rest=b''
	while True:
		readable,_,_=select.select([orders],[],[],schedule.wait())
		if not readable:
			os.write(fd,line(*schedule.take(),1).encode())
			continue
		chunk=os.read(orders,65536)
		if not chunk:
			return
		rest+=chunk
		*whole,rest=rest.split(b'\n')
		for order in whole:
			if order==b'stop':
				report=''.join(line(*pair,n)for(pair,n)in schedule.printed.items())
				os.write(replies,(report+'end\n').encode())
				return
			schedule.waiting.append(tuple(map(int,order.split())))
''',
'bot/puzzle.py':r'''
NODE_CHARS='12345678'
BLANKS=' \t'
BOM='\ufeff'
LARGEST_SIDE=100
class PuzzleError(ValueError):
	pass
class Puzzle:
	def __init__(self,width,height,nodes):
		self.width=width
		self.height=height
		self.pos=tuple((x,y)for(x,y,_)in nodes)
		self.value=tuple(v for(_,_,v)in nodes)
		ends,horizontal=_find_edges(self.pos)
		self.ends=tuple(ends)
		self.horizontal=tuple(horizontal)
		self.crossings=_find_crossings(width,height,self.pos,self.ends,self.horizontal)
		node_edges=[[]for _ in self.pos]
		edges_at=[[]for _ in self.pos]
		for(e,(a,b))in enumerate(self.ends):
			node_edges[a].append((e,b))
			node_edges[b].append((e,a))
			edges_at[a].append(e)
			edges_at[b].append(e)
		self.node_edges=tuple(map(tuple,node_edges))
		self.edges_at=tuple(map(tuple,edges_at))
	def __len__(self):
		return len(self.pos)
def _find_edges(pos):
	right=[None]*len(pos)
	below=[None]*len(pos)
	last_in_column={}
	for(i,(x,y))in enumerate(pos):
		if i and pos[i-1][1]==y:
			right[i-1]=i
		above=last_in_column.get(x)
		if above is not None:
			below[above]=i
		last_in_column[x]=i
	ends,horizontal=[],[]
	for i in range(len(pos)):
		if right[i]is not None:
			ends.append((i,right[i]))
			horizontal.append(True)
		if below[i]is not None:
			ends.append((i,below[i]))
			horizontal.append(False)
	return ends,horizontal
def _find_crossings(width,height,pos,ends,horizontal):
	covered=[-1]*(width*height)
	for(e,(a,b))in enumerate(ends):
		if horizontal[e]:
			(x1,y),(x2,_)=pos[a],pos[b]
			covered[y*width+x1+1:y*width+x2]=[e]*(x2-x1-1)
	crossings=[[]for _ in ends]
	for(e,(a,b))in enumerate(ends):
		if not horizontal[e]:
			(x,y1),(_,y2)=pos[a],pos[b]
			for h in covered[(y1+1)*width+x:y2*width+x:width]:
				if h>=0:
					crossings[e].append(h)
					crossings[h].append(e)
	return tuple(map(tuple,crossings))
def parse(text):
	lines=[line.removesuffix('\r')for line in text.removeprefix(BOM).split('\n')]
	while lines and not lines[-1].strip(BLANKS):
		lines.pop()
	width=_side(lines,0,'width')
	height=_side(lines,1,'height')
	nodes=[]
	for y in range(height):
		number=y+3
		if y+2>=len(lines):
			raise PuzzleError(f"line {number}: missing row {y+1} of {height}")
		row=lines[y+2].rstrip(BLANKS)
		if len(row)!=width:
			raise PuzzleError(f"line {number}: row has {len(row)} characters, expected {width}")
		for(x,c)in enumerate(row):
			if c=='.':
				continue
			if c in NODE_CHARS:
				nodes.append((x,y,int(c)))
			else:
				raise PuzzleError(f"line {number}, column {x+1}: unexpected character {_shown(c)} (expected '.' or a digit 1-8)")
	for(number,line)in enumerate(lines[height+2:],start=height+3):
		if line.strip(BLANKS):
			raise PuzzleError(f"line {number}: unexpected text after the {height} rows")
	return Puzzle(width,height,nodes)
def _shown(char):
	if'\udc80'<=char<='\udcff':
		return f"byte 0x{ord(char)-56320:02x} that is not UTF-8"
	return repr(char)
def side_value(line):
	word=line.strip(BLANKS)
	digits=word.lstrip('0')
	if not(word.isascii()and word.isdigit())or not 0<len(digits)<=len(str(LARGEST_SIDE)):
		return
	value=int(digits)
	return value if value<=LARGEST_SIDE else None
def _side(lines,index,name):
	if index>=len(lines):
		raise PuzzleError(f"line {index+1}: missing {name}")
	value=side_value(lines[index])
	if value is None:
		word=lines[index].strip(BLANKS)
		shown=word if len(word)<=40 else word[:40]+'...'
		raise PuzzleError(f"line {index+1}: {name} must be an integer 1..{LARGEST_SIDE}, got {shown!r}")
	return value
''',
'bot/solver.py':r'''
import sys
from bot.assumption import Budget,OutOfBranches,solutions
from bot.grid import Grid
from bot.options import DEFAULT
from bot.puzzle import parse
from bot.rules.engine import Rules
from bot.stats import Stats
class Unsolvable(Exception):
	pass
def answers(rules,stats,sure=None,press=None,handed_over=None):
	try:
		yield from solutions(rules,stats,budget=Budget.of(rules.options),sure=sure)
		return
	except OutOfBranches:
		pass
	if handed_over is not None:
		handed_over()
	from bot.learning import learned_solutions
	yield from learned_solutions(rules,stats,sure,walk=True,press=press)
def solve(text,stats=None,within=None,sure=None,seed=None,press=None,options=DEFAULT):
	stats=stats_within(stats,within)
	rules=rules_for(text,options,seed)
	found=answers(rules,stats,sure,press)
	links=next((grid.links()for grid in found if grid.valid()),None)
	found.close()
	if links is None:
		raise Unsolvable('the puzzle has no solution')
	return links
def rules_for(text,options,seed=None):
	puzzle=parse(text)
	sys.setrecursionlimit(max(sys.getrecursionlimit(),1000+8*len(puzzle.ends)))
	if seed is not None and seed!=options.seed:
		options=options.replace(seed=seed)
	return Rules(Grid(puzzle),options)
def stats_within(stats,within):
	stats=Stats()if stats is None else stats
	if within is not None:
		stats.limit=within
	return stats
''',
'bot/assumption.py':r'''
from bot.branching import choose_node,completions,count_completions,memory_of
from bot.grid import Contradiction
from bot.options import DEFAULT
from bot.rules.engine import FULL,NODES,PROBE
from bot.stages import BRANCHING,ELIMINATION
def assume(grid,edges,counts):
	for(e,n)in zip(edges,counts):
		grid.raise_lo(e,n)
		grid.lower_hi(e,n)
def changes_of(rules,edges,counts,stats,survived=None,outcome=None):
	stats.assumptions+=1
	grid=rules.grid
	start=len(grid.trail)
	mark=rules.mark()
	completed=rules.completed=[]if survived is not None else None
	try:
		assume(grid,edges,counts)
		rules.propagate(FULL if survived is None else PROBE,stats)
		if survived is not None:
			at,edges_at=grid.lo.__getitem__,grid.puzzle.edges_at
			for j in completed:
				survived.add((j,tuple(map(at,edges_at[j]))))
		if outcome is not None:
			lo,hi=grid.lo,grid.hi
			outcome.extend((e,lo[e],hi[e])for e in{e for(e,_,_)in grid.trail[start:]})
		return len(grid.trail)-start
	except Contradiction:
		return
	finally:
		rules.completed=None
		rules.revert(mark)
def narrow(grid,edges,survivors):
	narrowed=False
	for(k,e)in enumerate(edges):
		narrowed|=grid.raise_lo(e,min(c[k]for c in survivors))
		narrowed|=grid.lower_hi(e,max(c[k]for c in survivors))
	return narrowed
def probe(rules,stats,nodes,reach=None):
	grid=rules.grid
	got,cap,most=grid.got,grid.cap,rules.options.probe_options
	queue=[i for i in nodes if got[i]!=cap[i]]
	queued=set(queue)
	progress=False
	survived=set()
	while queue:
		i=queue.pop()
		queued.discard(i)
		if got[i]==cap[i]or count_completions(grid,i)>most:
			continue
		position=len(grid.trail)
		if not _probe_node(rules,stats,i,survived,reach):
			continue
		survived.clear()
		progress=True
		for j in grid.changed_since(position):
			if got[j]!=cap[j]and j not in queued:
				queued.add(j)
				queue.append(j)
	if progress:
		rules.propagate(FULL,stats)
	return progress
def _probe_node(rules,stats,i,survived,reach):
	grid=rules.grid
	edges,choices=completions(grid,i)
	survivors,product,outcomes=probe_completions(rules,stats,i,edges,choices,survived)
	if len(survivors)==len(choices):
		if reach is not None and product is not None:
			reach[i]=product
		return False
	stats.eliminations+=len(choices)-len(survivors)
	if len(survivors)==1 and survivors[0]in outcomes:
		replay(rules,outcomes[survivors[0]])
	else:
		narrow(grid,edges,survivors)
		rules.propagate(PROBE,stats)
	return True
def probe_completions(rules,stats,i,edges,choices,survived):
	survivors=[]
	product=1
	outcomes={}
	for(k,c)in enumerate(choices):
		if not survivors and k==len(choices)-1:
			survivors.append(c)
		elif survived and completed_node(rules.grid,i,edges,c)in survived:
			survivors.append(c)
			product=None
		else:
			outcome=[]if k==0 else None
			changes=changes_of(rules,edges,c,stats,survived,outcome)
			if changes is not None:
				if outcome is not None:
					outcomes[c]=outcome
				survivors.append(c)
				if product is not None:
					product*=changes+1
	return survivors,product,outcomes
def replay(rules,bounds):
	grid=rules.grid
	for(e,low,high)in bounds:
		grid.raise_lo(e,low)
		grid.lower_hi(e,high)
	rules.caught_up()
def completed_node(grid,i,edges,counts):
	chosen=dict(zip(edges,counts))
	lo=grid.lo
	return i,tuple([chosen.get(e,lo[e])for e in grid.puzzle.edges_at[i]])
def spread_first(grid,edges,choices):
	lo=grid.lo
	def spread(counts):
		return sum(1 for(e,n)in zip(edges,counts)if n>lo[e])
	return sorted(choices,key=spread,reverse=True)
class OutOfBranches(Exception):
	pass
class Budget:
	def __init__(self,
		branches=DEFAULT.node_search_branches,
		most=None,
		stall=DEFAULT.node_search_stall,
		stretch=DEFAULT.node_search_stretch):
		self.branches=branches
		self.most=branches*stretch if most is None else most
		self.stall=stall
		self.used=0
		self.deepest=-1
		self.deepened=0
	@classmethod
	def of(cls,options):
		return cls(options.node_search_branches,stall=options.node_search_stall,stretch=options.node_search_stretch)
	def spend(self,depth):
		if depth>self.deepest:
			self.deepest,self.deepened=depth,self.used
		stalled=self.used-self.deepened>=self.stall
		if self.used>=self.most or self.used>=self.branches and stalled:
			return False
		self.used+=1
		return True
def solutions(rules,stats,depth=0,budget=None,since=-1,sure=None):
	grid=rules.grid
	stats.max_depth=max(stats.max_depth,depth)
	memory_of(rules)
	mark=rules.mark()
	reach={}
	try:
		try:
			_narrow_here(rules,stats,depth,since,reach)
		except Contradiction:
			return
		if grid.solved():
			yield grid
			return
		if sure is not None:
			sure(grid.links())
		yield from _branch(rules,stats,depth,budget,reach)
	finally:
		rules.revert(mark)
def _narrow_here(rules,stats,depth,since,reach):
	grid,tuning=rules.grid,rules.options
	whole=depth%max(tuning.global_every,len(grid.puzzle)//tuning.islands_per_global)==0
	rules.propagate(PROBE if whole else NODES,stats)
	if not grid.solved():
		if probe(rules,stats,grid.changed_since(since),reach):
			stats.stage=max(stats.stage,ELIMINATION)
		elif whole:
			rules.propagate(FULL,stats)
def _branch(rules,stats,depth,budget,reach):
	if budget is not None and not budget.spend(depth):
		raise OutOfBranches()
	stats.stage=BRANCHING
	stats.branch()
	grid=rules.grid
	edges,choices=choose_node(rules,reach)
	for counts in spread_first(grid,edges,choices):
		stats.assumptions+=1
		start=len(grid.trail)
		mark=rules.mark()
		try:
			assume(grid,edges,counts)
		except Contradiction:
			stats.dead_ends+=1
			rules.revert(mark)
			continue
		yield from solutions(rules,stats,depth+1,budget,start)
		rules.revert(mark)
''',
'bot/branching.py':r'''
from heapq import heapify,heappop,heappush
from itertools import product
from bot.facts import at_least,at_most,edge
from bot.options import DEFAULT
class Memory:
	def __init__(self,nodes,heap_from=DEFAULT.score_heap_from):
		self.conflicts=[1]*nodes
		self.blamed=set()
		self.scores=[.0]*nodes
		self.scored_at=-1
		self.ranked=[]if nodes>=heap_from else None
	def blame(self,i,neighbours,weight=1):
		conflicts,blamed=self.conflicts,self.blamed
		conflicts[i]+=weight
		blamed.add(i)
		for j in neighbours:
			conflicts[j]+=weight
			blamed.add(j)
	def reverted(self,length,trail,ends):
		if length<self.scored_at:
			undone=trail[length:self.scored_at]
			self.blamed.update([i for entry in undone for i in ends[entry[0]]])
			self.scored_at=length
	def shake(self,rng,amount):
		self.conflicts=[c*(1+amount*rng.random())for c in self.conflicts]
		self.scored_at=-1
def memory_of(rules):
	if rules.listener is None:
		rules.listener=Memory(len(rules.grid.puzzle),rules.options.score_heap_from)
	return rules.listener
def completions(grid,i):
	lo,hi=grid.lo,grid.hi
	edges=[e for e in grid.puzzle.edges_at[i]if lo[e]!=hi[e]]
	bounds=tuple((lo[e],hi[e])for e in edges)
	return edges,_counts_adding(bounds,grid.puzzle.value[i]-grid.got[i])
_COUNTS_ADDING={}
def _counts_adding(bounds,missing):
	key=bounds,missing
	found=_COUNTS_ADDING.get(key)
	if found is None:
		target=missing+sum(low for(low,_)in bounds)
		ranges=[range(low,high+1)for(low,high)in bounds]
		found=_COUNTS_ADDING[key]=tuple(c for c in product(*ranges)if sum(c)==target)
	return found
def choose_node(rules,reach=None):
	scores=_scores(rules)
	learned=rules.listener
	if learned.ranked is None:
		best=scores.index(min(scores))
		best_key=scores[best],best
	else:
		best_key=_lowest(learned)
	for(i,product)in(reach or{}).items():
		key=scores[i]/product**.5,i
		if key<best_key:
			best_key=key
	return completions(rules.grid,best_key[1])
def _scores(rules):
	grid,learned=rules.grid,memory_of(rules)
	scores,got,cap,conflicts=learned.scores,grid.got,grid.cap,learned.conflicts
	ranked=learned.ranked
	if learned.scored_at<0:
		for i in range(len(scores)):
			scores[i]=count_completions(grid,i)/conflicts[i]**2 if got[i]!=cap[i]else _CLOSED
		if ranked is not None:
			ranked.clear()
	else:
		for i in grid.changed_since(learned.scored_at)|learned.blamed:
			score=count_completions(grid,i)/conflicts[i]**2 if got[i]!=cap[i]else _CLOSED
			if score!=scores[i]:
				scores[i]=score
				if ranked is not None:
					heappush(ranked,(score,i))
	if ranked is not None and(not ranked or len(ranked)>4*len(scores)):
		ranked[:]=[(score,i)for(i,score)in enumerate(scores)]
		heapify(ranked)
	learned.blamed.clear()
	learned.scored_at=len(grid.trail)
	return scores
def _lowest(learned):
	ranked,scores=learned.ranked,learned.scores
	while ranked[0][0]!=scores[ranked[0][1]]:
		heappop(ranked)
	return ranked[0]
_CLOSED=float('inf')
def count_completions(grid,i):
	lo,hi=grid.lo,grid.hi
	key=16+grid.puzzle.value[i]-grid.got[i]
	for e in grid.puzzle.edges_at[i]:
		if lo[e]!=hi[e]:
			key=key*16+lo[e]*4+hi[e]
	count=_COUNTS.get(key)
	if count is None:
		count=_COUNTS[key]=len(completions(grid,i)[1])
	return count
_COUNTS={}
class Phases:
	def __init__(self,edges,options,rng):
		self.options=options
		self.activity=[.0]*edges
		self.bump=1.
		self.phase=[-1]*edges
		self.target=[-1]*edges
		self.best=0
		self.fullest=None
		self.rng=rng
	def choose(self,rules):
		lo,hi=rules.grid.lo,rules.grid.hi
		edges,_=choose_node(rules)
		e=max(edges,key=self.activity.__getitem__)
		count=self.target[e]
		if not lo[e]<=count<=hi[e]:
			count=self.phase[e]
		if not lo[e]<=count<=hi[e]:
			count=1 if lo[e]==0 else lo[e]
		return at_least(e,count)if count>lo[e]else at_most(e,count)
	def follow(self,counts):
		self.target=counts
	def reached(self,grid):
		depth=len(grid.trail)
		if depth>self.best:
			self.best=depth
			self.target=self.fullest=[low if low==high else-1 for(low,high)in zip(grid.lo,grid.hi)]
	def bumped(self,rules,*groups):
		activity=self.activity
		self.bump/=self.options.activity_decay
		bump,weight=self.bump,self.options.node_weight
		edges={edge(f)for group in groups for f in group}
		learned,ends=memory_of(rules),rules.grid.puzzle.ends
		for e in edges:
			activity[e]+=bump
			learned.blame(ends[e][0],ends[e][1:],weight)
		if bump>1e100:
			self.activity=[a*1e-100 for a in activity]
			self.bump*=1e-100
	def shake(self,rules):
		memory_of(rules).shake(self.rng,self.options.shake)
	def seed(self):
		return self.rng.random()
''',
'bot/facts.py':r'''
AT_LEAST_1,AT_LEAST_2,AT_MOST_1,AT_MOST_0=range(4)
def at_least(e,n):
	return 4*e+n-1
def at_most(e,n):
	return 4*e+3-n
def fact_count(edges):
	return 4*edges
def every_fact(e):
	return range(4*e+3,4*e-1,-1)
def edge(fact):
	return fact>>2
def is_lower(fact):
	return fact&3<2
def bound(fact):
	kind=fact&3
	return kind+1 if kind<2 else 3-kind
def negate(fact):
	kind=fact&3
	return fact-kind+3-kind
def holds(lo,hi,fact):
	kind=fact&3
	if kind<2:
		return lo[fact>>2]>kind
	return hi[fact>>2]<=3-kind
def enforce(grid,fact):
	e,kind=fact>>2,fact&3
	if kind<2:
		grid.raise_lo(e,kind+1)
	else:
		grid.lower_hi(e,3-kind)
def made_true(e,old_lo,old_hi,new_lo,new_hi):
	if new_lo!=old_lo:
		return[at_least(e,n)for n in range(new_lo,old_lo,-1)]
	return[at_most(e,n)for n in range(new_hi,old_hi)]
def bound_facts(grid,top,e,lows=True,highs=True):
	facts=[]
	low,high=grid.lo[e],grid.hi[e]
	if lows and low:
		facts.append(at_least(e,low))
	if highs and high<top[e]:
		facts.append(at_most(e,high))
	return facts
''',
'bot/grid.py':r'''
class Changes:
	def __init__(self,nodes):
		self.dirty=dict.fromkeys(range(nodes))
		self.joined=self.cut=True
class Mark(tuple):
	__slots__=()
class Contradiction(Exception):
	pass
REGION,CUT,SLACK,CLOSED='region','cut','slack','closed'
class Grid:
	def __init__(self,puzzle):
		self.puzzle=puzzle
		self.ends,self.value,self.crossings=puzzle.ends,puzzle.value,puzzle.crossings
		value=puzzle.value
		self.lo=[0]*len(puzzle.ends)
		self.hi=[min(2,value[a],value[b])for(a,b)in puzzle.ends]
		self.got=[0]*len(puzzle)
		self.cap=[0]*len(puzzle)
		for((a,b),high)in zip(puzzle.ends,self.hi):
			self.cap[a]+=high
			self.cap[b]+=high
		self.trail=[]
		self.parent=list(range(len(puzzle)))
		self.size=[1]*len(puzzle)
		self.need=list(value)
		self.next_member=list(range(len(puzzle)))
		self.joins=[]
		self.spare=sum(value)//2-(len(puzzle)-1)
		self.waste=0
		self.changes=Changes(len(puzzle))
	def mark(self):
		return Mark((len(self.trail),))
	def revert(self,mark):
		trail,lo,hi,got,cap,ends=self.trail,self.lo,self.hi,self.got,self.cap,self.ends
		parent,size,next_member,joins=self.parent,self.size,self.next_member,self.joins
		need=self.need
		length,=mark
		for _ in range(len(trail)-length):
			e,old_lo,old_hi=trail.pop()
			a,b=ends[e]
			d=lo[e]-old_lo
			if d:
				lo[e]=old_lo
				got[a]-=d
				got[b]-=d
				root,child=joins.pop()
				need[root]+=2*d
				self.waste-=d-(child>=0)
				if child>=0:
					parent[child]=child
					size[root]-=size[child]
					need[root]-=need[child]
					next_member[root],next_member[child]=next_member[child],next_member[root]
			else:
				d=hi[e]-old_hi
				hi[e]=old_hi
				cap[a]-=d
				cap[b]-=d
	def mark_at(self,length):
		return Mark((length,))
	def changed_since(self,position):
		if position<0:
			return range(len(self.puzzle))
		ends=self.ends
		return{i for(e,_,_)in self.trail[position:]for i in ends[e]}
	def raise_lo(self,e,n):
		old=self.lo[e]
		if n<=old:
			return False
		if n>self.hi[e]:
			raise Contradiction()
		self.trail.append((e,old,self.hi[e]))
		self.lo[e]=n
		a,b=self.ends[e]
		changes=self.changes
		changes.joined=True
		dirty=changes.dirty
		dirty[a]=dirty[b]=None
		got,value=self.got,self.value
		got[a]+=n-old
		got[b]+=n-old
		parent,size,need=self.parent,self.size,self.need
		root=a
		while parent[root]!=root:
			root=parent[root]
		child=-1
		if old==0:
			other=b
			while parent[other]!=other:
				other=parent[other]
			if root!=other:
				if size[root]<size[other]:
					root,other=other,root
				parent[other]=root
				size[root]+=size[other]
				need[root]+=need[other]
				nxt=self.next_member
				nxt[root],nxt[other]=nxt[other],nxt[root]
				child=other
		self.joins.append((root,child))
		need[root]-=2*(n-old)
		self.waste+=n-old-(child>=0)
		if got[a]>value[a]:
			raise Contradiction(a)
		if got[b]>value[b]:
			raise Contradiction(b)
		if not need[root]and size[root]<len(value):
			raise Contradiction(a,CLOSED)
		if old==0:
			for f in self.crossings[e]:
				self.lower_hi(f,0)
		return True
	def lower_hi(self,e,n):
		old=self.hi[e]
		if n>=old:
			return False
		if n<self.lo[e]:
			raise Contradiction()
		self.trail.append((e,self.lo[e],old))
		self.hi[e]=n
		a,b=self.ends[e]
		changes=self.changes
		if not n:
			changes.cut=True
		dirty=changes.dirty
		dirty[a]=dirty[b]=None
		cap,value=self.cap,self.value
		cap[a]-=old-n
		cap[b]-=old-n
		if cap[a]<value[a]:
			raise Contradiction(a)
		if cap[b]<value[b]:
			raise Contradiction(b)
		return True
	def draw(self,e,n):
		self.raise_lo(e,self.lo[e]+n)
	def solved(self):
		return self.lo==self.hi
	def links(self):
		pos=self.puzzle.pos
		return[(*pos[a],*pos[b],n)for((a,b),n)in zip(self.puzzle.ends,self.lo)if n]
	def valid(self):
		p=self.puzzle
		if self.lo==self.hi:
			return solves(p,self.lo)
		for(i,v)in enumerate(p.value):
			if self.got[i]>v or self.cap[i]<v:
				return False
		for(e,n)in enumerate(self.lo):
			if n and any(self.lo[f]for f in p.crossings[e]):
				return False
			if not self.lo[e]<=self.hi[e]:
				return False
		if len(p)<2:
			return True
		label,need,size=components(self,self.lo)
		if any(n==0 and s<len(p)for(n,s)in zip(need,size)):
			return False
		return len(components(self,self.hi)[2])==1
def solves(puzzle,links):
	n=len(puzzle)
	degree=[0]*n
	drawn=[[]for _ in range(n)]
	for(e,((a,b),count))in enumerate(zip(puzzle.ends,links)):
		if count:
			if any(links[f]for f in puzzle.crossings[e]):
				return False
			degree[a]+=count
			degree[b]+=count
			drawn[a].append(b)
			drawn[b].append(a)
	if degree!=list(puzzle.value):
		return False
	if n<2:
		return True
	seen=bytearray(n)
	seen[0]=1
	reached=[0]
	for i in reached:
		for j in drawn[i]:
			if not seen[j]:
				seen[j]=1
				reached.append(j)
	return len(reached)==n
def components(grid,bound):
	p=grid.puzzle
	value,got,node_edges=p.value,grid.got,p.node_edges
	label=[-1]*len(p)
	need,size=[],[]
	for start in range(len(p)):
		if label[start]>=0:
			continue
		group=len(need)
		label[start]=group
		stack=[start]
		lacking=count=0
		while stack:
			i=stack.pop()
			lacking+=value[i]-got[i]
			count+=1
			for(e,j)in node_edges[i]:
				if bound[e]and label[j]<0:
					label[j]=group
					stack.append(j)
		need.append(lacking)
		size.append(count)
	return label,need,size
''',
'bot/rules/__init__.py':'',
'bot/rules/engine.py':r'''
from bot.grid import CLOSED,CUT,REGION,SLACK,Changes
from bot.options import DEFAULT
from bot.rules import balance,connect,groups,nodes
class Rule:
	def __init__(self,tag,due,run,met=None,finds=None,reason=None):
		self.tag,self.due,self.run=tag,due,run
		self.met,self.finds,self.reason=met,finds,reason
def _joined(rules):
	if rules.changes.joined and not rules.grid.solved():
		rules.changes.joined=False
		return True
def _cut(rules):
	if rules.changes.cut:
		rules.changes.cut=False
		return True
def _cut_decided(rules):
	return rules.grid.solved()and _cut(rules)
def _always(rules):
	return True
ISOLATE=Rule(CLOSED,_joined,groups.isolate,groups.closed_reason,groups.closed_group,groups.isolation_reason)
SLACKEN=Rule(SLACK,None,groups.slack,groups.waste_facts,None,groups.slack_reason)
CONNECT=Rule(CUT,_cut,connect.connect,connect.smallest_cut,connect.smallest_cut,connect.bridge_reason)
BALANCE=Rule(REGION,_always,balance.balance,balance.unbalanced_region,balance.unbalanced_region)
CONNECT_DECIDED=Rule(CUT,_cut_decided,connect.connect)
BALANCE_IN_PROBE=Rule(REGION,balance.due_in_probe,balance.balance_in_probe)
FULL=ISOLATE,SLACKEN,CONNECT,BALANCE
NODES=CONNECT_DECIDED,
PROBE=ISOLATE,SLACKEN,CONNECT_DECIDED,BALANCE_IN_PROBE
LEARN=FULL
LEARN_CHEAP=ISOLATE,SLACKEN
LEARN_NO_SLACK=ISOLATE,CONNECT,BALANCE
LEARN_CHEAP_NO_SLACK=ISOLATE,
class Rules:
	def __init__(self,grid,options=DEFAULT):
		self.grid=grid
		self.options=options
		self.listener=self.completed=None
		self.changes=grid.changes=Changes(len(grid.puzzle))
		self.balanced=self.isolated=self.connected=-1
		self.slackened=-1,None
		self.certificate=None
		self.worth=balance.Worth()
	def mark(self):
		cursors=self.balanced,self.isolated,self.connected,self.slackened
		state=tuple(self.changes.dirty),self.changes.joined,self.changes.cut,cursors
		return self.grid.mark(),len(self.grid.trail),state
	def revert(self,mark):
		changes=self.changes
		board,length,(pending,changes.joined,changes.cut,cursors)=mark
		self.balanced,self.isolated,self.connected,self.slackened=cursors
		if self.listener is not None:
			self.listener.reverted(length,self.grid.trail,self.grid.ends)
		self.grid.revert(board)
		changes.dirty=dict.fromkeys(pending)
	def undo(self,length):
		forgotten=(),True,True,(-1,-1,-1,(-1,None))
		self.revert((self.grid.mark_at(length),length,forgotten))
	def caught_up(self):
		self.changes.dirty.clear()
		self.changes.joined=False
		self.isolated=self.balanced=len(self.grid.trail)
	def blame(self,i):
		if self.listener is not None:
			self.listener.blame(i,[j for(_,j)in self.grid.puzzle.node_edges[i]])
	def propagate(self,schedule=FULL,stats=None):
		while True:
			if stats is not None:
				stats.round()
			nodes.settle(self)
			ran=moved=False
			for rule in schedule:
				if rule.due:
					if moved:
						break
					ran=rule.due(self)
					moved=ran and rule.run(self)
				elif ran:
					moved|=rule.run(self)
			if not moved:
				return
	def reason(self,top,e,new_lo,new_hi,drawn=None):
		grid=self.grid
		found=None if new_hi else nodes.crossing_reason(grid,e)
		for rule in FULL:
			if found is None and rule.reason:
				found=rule.reason(grid,top,e,new_lo,new_hi,drawn)
		return found
	def diagnose(self,top,hint=None,rule=None):
		grid,found=self.grid,None
		for each in FULL:
			if each.tag==rule:
				found=each.met(grid,top,hint)
		if found is None:
			found=nodes.dead_node(grid,top,hint)
		for each in FULL:
			if found is None and each.finds:
				found=each.finds(grid,top)
		return found
''',
'bot/rules/balance.py':r'''
from bot.facts import bound_facts
from bot.grid import REGION,Contradiction
GAVE_UP=2
def balance(rules):
	grid=rules.grid
	if rules.balanced==len(grid.trail):
		return
	n=len(grid.value)
	walk=n if rules.balanced<0 else rules.options.region_walk
	seen,side=bytearray(n),bytearray(n)
	got,value=grid.got,grid.value
	for start in _decided_since(grid,rules.balanced):
		if seen[start]or got[start]==value[start]:
			continue
		if not _region_balances(grid,start,walk,seen,side):
			raise Contradiction(start,REGION)
	rules.balanced=len(grid.trail)
def _region_balances(grid,start,limit,seen,side):
	walked=_walk_region(grid,start,limit,seen,side)
	return walked is None or _balances(*walked[1:])
def _balances(missing,two_sides):
	if two_sides:
		return missing[0]==missing[1]
	return(missing[0]+missing[1])%2==0
def _walk_region(grid,start,limit,seen,side):
	lo,hi,got,value,node_edges=grid.lo,grid.hi,grid.got,grid.value,grid.puzzle.node_edges
	seen[start]=1
	region=[start]
	missing=[0,0]
	two_sides=True
	for i in region:
		here=side[i]
		missing[here]+=value[i]-got[i]
		for(e,j)in node_edges[i]:
			if lo[e]!=hi[e]:
				if not seen[j]:
					seen[j]=1
					side[j]=1-here
					region.append(j)
				elif seen[j]==GAVE_UP:
					limit=-1
				elif side[j]==here:
					two_sides=False
		if len(region)>limit:
			for j in region:
				seen[j]=GAVE_UP
			return
	return region,missing,two_sides
def _decided_since(grid,position):
	if position<0:
		return range(len(grid.puzzle))
	lo,hi,ends=grid.lo,grid.hi,grid.ends
	return{i for(e,_,_)in grid.trail[position:]if lo[e]==hi[e]for i in ends[e]}
class Worth:
	def __init__(self):
		self.looks=self.hits=0
def due_in_probe(rules):
	if rules.balanced<0:
		return True
	options,worth=rules.options,rules.worth
	after=options.probe_balance_after
	if worth.hits*options.parity_pays<worth.looks:
		after=options.probe_balance_rarely
	return len(rules.grid.trail)-rules.balanced>=after
def balance_in_probe(rules):
	worth=rules.worth
	worth.looks+=1
	try:
		balance(rules)
	except Contradiction:
		worth.hits+=1
		raise
def unbalanced_region(grid,top,hint=None):
	p=grid.puzzle
	got,cap,value=grid.got,grid.cap,p.value
	seen,side=bytearray(len(p)),bytearray(len(p))
	best=None
	for start in range(len(p)):
		if seen[start]or got[start]==cap[start]==value[start]:
			continue
		facts=_region_facts(grid,top,start,seen,side)
		if facts is not None and(best is None or len(facts)<len(best)):
			best=facts
	return best
def _region_facts(grid,top,start,seen,side):
	region,missing,two_sides=_walk_region(grid,start,len(grid.value),seen,side)
	if _balances(missing,two_sides):
		return
	lo,hi,node_edges=grid.lo,grid.hi,grid.puzzle.node_edges
	inside=set(region)
	read={f for x in region for(f,y)in node_edges[x]if lo[f]==hi[f]and(y not in inside or two_sides and side[x]==side[y])}
	return[fact for f in read for fact in bound_facts(grid,top,f)]
''',
'bot/rules/connect.py':r'''
from bot.facts import at_most
from bot.grid import CUT,Contradiction
def connect(rules):
	grid=rules.grid
	n=len(grid.value)
	if n<2:
		return False
	if rules.connected<0:
		rules.connected=len(grid.trail)
		return _draw_bridges(rules)
	hi,certificate=grid.hi,rules.certificate
	if certificate is None or certificate.size>2*n:
		rules.connected=len(grid.trail)
		_span(rules)
		return False
	edges=certificate.edges
	mended={e for(e,_,old_hi)in grid.trail[rules.connected:]if old_hi and not hi[e]and edges[e]}
	rules.connected=len(grid.trail)
	if len(mended)*rules.options.mend_share>n:
		_span(rules)
		return False
	certificate.mend(grid,mended)
	return False
class Certificate:
	def __init__(self,edges,size):
		self.edges,self.size=edges,size
	def mend(self,grid,mended):
		edges,ends=self.edges,grid.ends
		for e in mended:
			edges[e]=0
		for e in mended:
			path=_path(grid,*ends[e])
			if path is None:
				for f in mended:
					edges[f]=1
				raise Contradiction(None,CUT)
			for f in path:
				if not edges[f]:
					edges[f]=1
					self.size+=1
			self.size-=1
def _path(grid,a,b):
	hi,node_edges=grid.hi,grid.puzzle.node_edges
	via=[-1]*len(node_edges)
	side=bytearray(len(node_edges))
	side[a],side[b]=1,2
	layers=[[a],[b]]
	while layers[0]and layers[1]:
		walk=0 if len(layers[0])<=len(layers[1])else 1
		mine=walk+1
		reached=[]
		for x in layers[walk]:
			for(e,y)in node_edges[x]:
				if hi[e]:
					seen=side[y]
					if not seen:
						side[y]=mine
						via[y]=e
						reached.append(y)
					elif seen!=mine:
						return _back(grid,via,x)+[e]+_back(grid,via,y)
		layers[walk]=reached
def _back(grid,via,x):
	ends,path=grid.ends,[]
	e=via[x]
	while e>=0:
		path.append(e)
		a,b=ends[e]
		x=a if b==x else b
		e=via[x]
	return path
def _span(rules):
	grid=rules.grid
	p=grid.puzzle
	hi,node_edges=grid.hi,p.node_edges
	rules.certificate=None
	tree=bytearray(len(p.ends))
	seen=bytearray(len(p))
	seen[0]=1
	reached=[0]
	for x in reached:
		for(e,y)in node_edges[x]:
			if hi[e]and not seen[y]:
				seen[y]=1
				tree[e]=1
				reached.append(y)
	if len(reached)<len(p):
		raise Contradiction(None,CUT)
	rules.certificate=Certificate(tree,len(reached)-1)
def _draw_bridges(rules):
	grid=rules.grid
	p=grid.puzzle
	n=len(p)
	rules.certificate=None
	tree=bytearray(len(p.ends))
	order,low=[-1]*n,[0]*n
	bridges,reached=bridges_from(p.node_edges,grid.hi,0,order,low,0,tree)
	if reached<n:
		raise Contradiction(None,CUT)
	rules.certificate=Certificate(tree,n-1)
	changed=False
	for e in bridges:
		changed|=grid.raise_lo(e,1)
	return changed
def bridges_from(node_edges,bound,root,order,low,clock,tree=None):
	order[root]=low[root]=clock
	clock+=1
	bridges=[]
	stack=[(root,-1,iter(node_edges[root]))]
	while stack:
		i,via,edges=stack[-1]
		for(e,j)in edges:
			if not bound[e]or e==via:
				continue
			if order[j]<0:
				order[j]=low[j]=clock
				clock+=1
				if tree is not None:
					tree[e]=1
				stack.append((j,e,iter(node_edges[j])))
				break
			if order[j]<low[i]:
				low[i]=order[j]
		else:
			stack.pop()
			if stack:
				parent=stack[-1][0]
				if low[i]<low[parent]:
					low[parent]=low[i]
				if low[i]>order[parent]:
					bridges.append(via)
	return bridges,clock
def bridge_reason(grid,top,e,new_lo,new_hi,drawn):
	if new_lo!=1 or grid.lo[e]:
		return
	p=grid.puzzle
	a,b=p.ends[e]
	side=reachable(grid.hi,p.node_edges,a,e)
	if b in side:
		return
	return[at_most(f,0)for x in side for(f,y)in p.node_edges[x]if f!=e and y not in side]
def reachable(bound,node_edges,start,without):
	seen={start}
	stack=[start]
	while stack:
		x=stack.pop()
		for(f,y)in node_edges[x]:
			if bound[f]and f!=without and y not in seen:
				seen.add(y)
				stack.append(y)
	return seen
def smallest_cut(grid,top,hint=None):
	p=grid.puzzle
	hi,node_edges=grid.hi,p.node_edges
	label=[-1]*len(p)
	best=None
	for start in range(len(p)):
		if label[start]>=0:
			continue
		label[start]=start
		part=[start]
		for x in part:
			for(f,y)in node_edges[x]:
				if hi[f]and label[y]<0:
					label[y]=start
					part.append(y)
		if len(part)==len(p):
			return
		cut=[at_most(f,0)for x in part for(f,y)in node_edges[x]if label[y]!=start]
		if best is None or len(cut)<len(best):
			best=cut
	return best
''',
'bot/rules/groups.py':r'''
from bot.facts import at_least,at_most,bound_facts
from bot.grid import SLACK,Contradiction
from bot.rules.connect import bridges_from
def isolate(rules):
	grid=rules.grid
	starts=joined_since(grid,rules.isolated)
	rules.isolated=len(grid.trail)
	lo,hi,got,value,node_edges=grid.lo,grid.hi,grid.got,grid.value,grid.puzzle.node_edges
	parent,size,need,next_member=grid.parent,grid.size,grid.need,grid.next_member
	whole=len(value)
	changed=False
	for group in roots(grid,starts):
		lacking=need[group]
		if lacking>4:
			continue
		i=group
		while True:
			if got[i]!=value[i]:
				for(e,j)in node_edges[i]:
					low,high=lo[e],hi[e]
					if low==high:
						continue
					other=j
					while parent[other]!=other:
						other=parent[other]
					if other==group:
						total,joined=lacking,size[group]
					else:
						if lacking+value[j]-got[j]>2*(high-low):
							continue
						total=lacking+need[other]
						joined=size[group]+size[other]
					if joined==whole or total>2*(high-low):
						continue
					if total%2==0 and total>0:
						changed|=grid.lower_hi(e,low+total//2-1)
			i=next_member[i]
			if i==group:
				break
	return changed
def slack(rules):
	grid=rules.grid
	left=grid.spare-grid.waste
	if left>1:
		return False
	if left<0:
		raise Contradiction(None,SLACK)
	at,was=rules.slackened
	starts=joined_since(grid,at)if was==left else None
	rules.slackened=len(grid.trail),left
	if starts is not None:
		return _slack_in_groups(grid,starts,left)
	lo,hi,ends,parent=grid.lo,grid.hi,grid.ends,grid.parent
	changed=False
	for(e,high)in enumerate(hi):
		low=lo[e]
		if low==high or high<=low+left:
			continue
		if low:
			changed|=grid.lower_hi(e,low+left)
			continue
		a,b=ends[e]
		while parent[a]!=a:
			a=parent[a]
		while parent[b]!=b:
			b=parent[b]
		limit=left if a==b else left+1
		if limit<high:
			changed|=grid.lower_hi(e,limit)
	return changed
def _slack_in_groups(grid,starts,left):
	lo,hi,parent,next_member=grid.lo,grid.hi,grid.parent,grid.next_member
	node_edges=grid.puzzle.node_edges
	changed=False
	for group in roots(grid,starts):
		i=group
		while True:
			for(e,j)in node_edges[i]:
				if hi[e]>left and not lo[e]:
					other=j
					while parent[other]!=other:
						other=parent[other]
					if other==group:
						changed|=grid.lower_hi(e,left)
			i=next_member[i]
			if i==group:
				break
	return changed
def roots(grid,starts):
	parent=grid.parent
	looked=set()
	for start in starts:
		group=start
		while parent[group]!=group:
			group=parent[group]
		if group not in looked:
			looked.add(group)
			yield group
def joined_since(grid,position):
	if position<0:
		return range(len(grid.puzzle))
	lo,ends=grid.lo,grid.ends
	return{ends[e][0]for(e,old_lo,_)in grid.trail[position:]if lo[e]!=old_lo}
def isolation_reason(grid,top,e,new_lo,new_hi,drawn):
	p=grid.puzzle
	lo,parent,need,size=grid.lo,grid.parent,grid.need,grid.size
	a,b=p.ends[e]
	ra,rb=a,b
	while parent[ra]!=ra:
		ra=parent[ra]
	while parent[rb]!=rb:
		rb=parent[rb]
	joined,total=(size[ra],need[ra])if ra==rb else(size[ra]+size[rb],need[ra]+need[rb])
	if new_lo>lo[e]or joined==len(p)or total<=0 or total%2 or lo[e]+total//2-1>new_hi:
		return
	members=group_of(grid,a)
	if b not in members:
		members|=group_of(grid,b)
	ends=[fact for x in{a,b}for f in p.edges_at[x]if f!=e for fact in bound_facts(grid,top,f,highs=False)]
	area=_drawn_facts(grid,members)
	shut=_shut(grid,top,members,(a,b))
	if shut is None or len(area)<=len(ends)+len(shut):
		return area
	return ends+shut
def slack_reason(grid,top,e,new_lo,new_hi,drawn=None):
	left=grid.spare-grid.waste
	if left>1:
		return
	low=grid.lo[e]
	if new_hi<low+left or new_lo>low:
		return
	waste=waste_facts(grid)if drawn is None else drawn.get(len(grid.joins))
	if waste is None:
		waste=drawn[len(grid.joins)]=waste_facts(grid)
	if new_hi>=low+left+1 or low:
		return waste
	path=drawn_path(grid,*grid.ends[e])
	return None if path is None else waste+path
def waste_facts(grid,top=None,hint=None):
	lo=grid.lo
	doubled=lo.count(2)
	facts=[]
	if grid.waste>doubled:
		facts=[at_least(e,1)for e in cycle_edges(grid)[0]if lo[e]==1]
	if doubled:
		facts+=[at_least(e,2)for(e,low)in enumerate(lo)if low==2]
	return facts
def cycle_edges(grid):
	p=grid.puzzle
	lo,node_edges,parent,size,next_member=grid.lo,p.node_edges,grid.parent,grid.size,grid.next_member
	loops={}
	for(f,(a,_))in enumerate(p.ends):
		if lo[f]:
			while parent[a]!=a:
				a=parent[a]
			loops[a]=loops.get(a,0)+1
	order,low=[-1]*len(p),[0]*len(p)
	on_cycles=[]
	cycles=clock=0
	for(root,drawn)in loops.items():
		if drawn<size[root]:
			continue
		cycles+=drawn-size[root]+1
		found,clock=bridges_from(node_edges,lo,root,order,low,clock)
		bridges=set(found)
		x=root
		while True:
			for(f,y)in node_edges[x]:
				if lo[f]and x<y and f not in bridges:
					on_cycles.append(f)
			x=next_member[x]
			if x==root:
				break
	return on_cycles,cycles
def drawn_path(grid,a,b):
	lo,node_edges=grid.lo,grid.puzzle.node_edges
	via={a:-1}
	queue=[a]
	for x in queue:
		if x==b:
			break
		for(f,y)in node_edges[x]:
			if lo[f]and y not in via:
				via[y]=f
				queue.append(y)
	if b not in via:
		return
	ends,facts,x=grid.ends,[],b
	while via[x]>=0:
		f=via[x]
		facts.append(at_least(f,1))
		x=ends[f][0]if ends[f][1]==x else ends[f][1]
	return facts
def closed_group(grid,top):
	parent,need,size,n=grid.parent,grid.need,grid.size,len(grid.value)
	for x in range(n):
		if parent[x]==x and need[x]<=0 and size[x]<n:
			return closed_reason(grid,top,x)
def closed_reason(grid,top,x):
	members=group_of(grid,x)
	shut=_shut(grid,top,members)
	drawn=_drawn_facts(grid,members)
	return shut if shut is not None and len(shut)<len(drawn)else drawn
def _drawn_facts(grid,members):
	lo,edges_at=grid.lo,grid.puzzle.edges_at
	return list({at_least(f,lo[f])for x in members for f in edges_at[x]if lo[f]})
def _shut(grid,top,members,ends=()):
	p=grid.puzzle
	hi,got,value=grid.hi,grid.got,p.value
	facts=[]
	full=set()
	for x in members:
		if x in ends:
			continue
		for(f,y)in p.node_edges[x]:
			if y in members:
				continue
			if not hi[f]:
				facts.append(at_most(f,0))
			elif got[x]==value[x]:
				if x not in full:
					full.add(x)
					facts.extend(fact for g in p.edges_at[x]for fact in bound_facts(grid,top,g,highs=False))
			else:
				return
	return facts
def group_of(grid,start):
	next_member=grid.next_member
	members={start}
	x=next_member[start]
	while x!=start:
		members.add(x)
		x=next_member[x]
	return members
''',
'bot/rules/nodes.py':r'''
from itertools import chain
from bot.facts import at_least,at_most,bound,bound_facts,edge,is_lower
from bot.grid import Contradiction
def settle(rules):
	grid=rules.grid
	dirty,completed=rules.changes.dirty,rules.completed
	got,cap,value=grid.got,grid.cap,grid.value
	lo,hi,edges_at=grid.lo,grid.hi,grid.puzzle.edges_at
	raise_lo,lower_hi=grid.raise_lo,grid.lower_hi
	while dirty:
		i,_=dirty.popitem()
		try:
			if got[i]==cap[i]:
				if got[i]!=value[i]:
					raise Contradiction(i)
				if completed is not None:
					completed.append(i)
				continue
			spare=cap[i]-value[i]
			room=value[i]-got[i]
			if spare>1 and room>1:
				continue
			for e in edges_at[i]:
				low,high=lo[e],hi[e]
				if low==high:
					continue
				magic_val=high-spare
				if magic_val>low:
					raise_lo(e,magic_val)
				if low+room<high:
					lower_hi(e,low+room)
		except Contradiction as dead:
			rules.blame(dead.args[0]if dead.args else i)
			raise
def node_reason(grid,top,fact,fact_pos,position):
	e,n,lower=edge(fact),bound(fact),is_lower(fact)
	for x in grid.puzzle.ends[e]:
		if lower:
			facts=_magic_reason(grid,top,fact_pos,position,x,e,n)
		else:
			facts=_sieve_reason(grid,fact_pos,position,x,e,n)
		if facts is not None:
			return facts
def _magic_reason(grid,top,fact_pos,position,x,e,new_lo):
	hi=grid.hi
	room=grid.value[x]
	facts=[]
	for f in grid.puzzle.edges_at[x]:
		if f!=e:
			high=(0 if not hi[f]
				and fact_pos[at_most(f,0)]<position else 1 if hi[f]<2
				and fact_pos[at_most(f,1)]<position else top[f])
			room-=high
			if high<top[f]:
				facts.append(at_most(f,high))
	return facts if room>=new_lo else None
def _sieve_reason(grid,fact_pos,position,x,e,new_hi):
	lo=grid.lo
	left=grid.value[x]
	facts=[]
	for f in grid.puzzle.edges_at[x]:
		if f!=e:
			low=2 if lo[f]==2 and fact_pos[at_least(f,2)]<position else 1 if lo[f]and fact_pos[at_least(f,1)]<position else 0
			left-=low
			if low:
				facts.append(at_least(f,low))
	return facts if left<=new_hi else None
def crossing_reason(grid,e):
	for f in grid.puzzle.crossings[e]:
		if grid.lo[f]:
			return[at_least(f,1)]
def dead_node(grid,top,hint=None):
	p=grid.puzzle
	got,cap,value=grid.got,grid.cap,p.value
	recent=[hint]if hint is not None else[]
	recent+=[x for(e,_,_)in grid.trail[-8:]for x in p.ends[e]]
	for x in chain(recent,range(len(p))):
		if got[x]>value[x]:
			return[fact for f in p.edges_at[x]for fact in bound_facts(grid,top,f,highs=False)]
		if cap[x]<value[x]:
			return[fact for f in p.edges_at[x]for fact in bound_facts(grid,top,f,lows=False)]
	lo=grid.lo
	for(e,low)in enumerate(lo):
		if low:
			for f in p.crossings[e]:
				if lo[f]:
					return[at_least(e,1),at_least(f,1)]
''',
'bot/stages.py':r'''
RULES,ELIMINATION,BRANCHING=1,2,3
STAGE_NAMES={RULES:'rules',ELIMINATION:'elimination',BRANCHING:'branching'}
''',
'bot/stats.py':r'''
from bot.stages import RULES
class Stats:
	COUNTERS='rounds','assumptions','eliminations','dead_ends','nogoods','branches','max_depth','stage'
	def __init__(self,limit=None):
		self.rounds=self.assumptions=self.eliminations=self.dead_ends=self.nogoods=0
		self.branches=self.max_depth=0
		self.stage=RULES
		self.limit=limit
	def round(self):
		self.rounds+=1
		if self.limit is not None:
			self.limit.check(self)
	def branch(self):
		self.branches+=1
		if self.limit is not None:
			self.limit.check(self)
''',
'bot/learning.py':r'''
import time
from bot.assumption import probe
from bot.cdcl import REFUTED,SOLVED,Learner
from bot.facts import at_least,enforce,negate
from bot.grid import Contradiction
from bot.rules.engine import FULL
from bot.walk import Walk,filled
def learned_solutions(rules,stats,sure=None,walk=False,press=None):
	grid,options=rules.grid,rules.options
	if not make_root(rules,stats):
		return
	helper=None
	if walk and grid.spare*options.walk_spare<len(grid.puzzle):
		helper=Walk(grid,options.seed,options)
	press=press if sure is not None else None
	if helper is not None and press is not None:
		helper.stop=press.due
	learner=Learner(rules,stats)
	if helper is None:
		counts=filled(grid,options.seed,options)
		if counts:
			learner.phases.follow(counts)
	for found in Turns(learner,sure,helper,press).solutions():
		if found.valid():
			yield found
def make_root(rules,stats):
	rules.listener=None
	try:
		rules.propagate(FULL,stats)
		if not rules.grid.solved():
			probe(rules,stats,range(len(rules.grid.puzzle)))
	except Contradiction:
		return False
	return True
class Turns:
	def __init__(self,engine,sure=None,walk=None,press=None):
		self.engine,self.grid,self.options=engine,engine.grid,engine.options
		self.walk=walk
		self.walk_at=self.options.walk_after
		self.refilled=None
		self.sure=sure
		self.told=-1
		self.press=press
		self.asked=None
	def solutions(self):
		engine,grid=self.engine,self.grid
		while True:
			conflicts=self.walk_at-engine.conflicts if self.walk is not None else float('inf')
			outcome=engine.search(conflicts,self._paused)
			if outcome is REFUTED:
				return
			if outcome is SOLVED:
				self.sure=None
				yield grid
				if not engine.rule_out():
					return
			elif self.asked:
				facts,self.asked=self.asked,None
				if not self.answer_press(facts):
					return
			else:
				yield from self._walk_turn()
	def _paused(self):
		engine=self.engine
		told=len(self.grid.trail)
		if not engine.level and self.sure is not None and told>self.told:
			self.told=told
			self.sure(self.grid.links())
		self.asked=engine.level and self.press is not None and self.press.due()and self.drawn_above_root()
		return bool(self.asked)
	def _walk_turn(self):
		engine=self.engine
		phases=engine.phases
		self.walk_at=engine.conflicts+self.options.walk_every
		if phases.fullest is not self.refilled:
			self.refilled=phases.fullest
			self.walk.refill(phases.fullest)
		counts=self.walk.run(self.options.walk_moves)
		if counts is None:
			if self.walk.best is not None:
				phases.follow(self.walk.best[:])
				engine.restart()
		elif self.impose(counts):
			self.sure=None
			yield self.grid
			engine.backjump(0)
		else:
			self.walk=None
	def answer_press(self,facts):
		engine,grid=self.engine,self.grid
		until=time.monotonic()+self.options.prove_for
		engine.backjump(0)
		links=sum(grid.lo)
		for fact in facts:
			for side in(negate(fact),fact):
				if time.monotonic()>until or not engine.is_open(fact):
					break
				met=self.assume(side)
				if met is None:
					return False
				if sum(grid.lo)>links:
					return True
				if met:
					break
		for fact in facts:
			if engine.is_open(fact):
				return self.guess(fact)
		return True
	def guess(self,fact):
		self.press.guessed()
		if not self.hold(fact):
			return False
		if self.walk is not None:
			stop=self.walk.stop
			self.walk=Walk(self.grid,self.engine.phases.seed(),self.options)
			self.walk.stop=stop
			self.refilled=None
		return True
	def drawn_above_root(self):
		engine=self.engine
		lo,target=self.grid.lo,engine.phases.target
		fact_level,fact_pos=engine.levels.fact_level,engine.levels.fact_pos
		ranked=[]
		for(e,low)in enumerate(lo):
			if low:
				fact=at_least(e,low)
				level=fact_level[fact]
				if level:
					ranked.append((target[e]<low,level,-fact_pos[fact],fact))
		ranked.sort()
		return[fact for(*_,fact)in ranked]
	def assume(self,fact):
		engine=self.engine
		conflicts=engine.conflicts
		if not engine.analyse(engine.suppose(fact))or engine.search(float('inf'),lambda:True)is REFUTED:
			return
		engine.backjump(0)
		return engine.conflicts>conflicts
	def hold(self,fact):
		self.engine.backjump(0)
		try:
			enforce(self.grid,fact)
		except Contradiction:
			return False
		return True
	def impose(self,counts):
		engine,grid=self.engine,self.grid
		engine.backjump(0)
		engine.open()
		try:
			for(e,n)in enumerate(counts):
				grid.raise_lo(e,n)
				grid.lower_hi(e,n)
		except Contradiction:
			engine.backjump(0)
			return False
		return True
''',
'bot/cdcl.py':r'''
import random
from bot.branching import Phases
from bot.facts import bound,enforce,every_fact,fact_count,holds,is_lower,made_true,negate
from bot.grid import Contradiction
from bot.restarts import Restarts
from bot.rules.engine import LEARN,LEARN_CHEAP,LEARN_CHEAP_NO_SLACK,LEARN_NO_SLACK
from bot.rules.nodes import node_reason
DECISION=-1
SOLVED,REFUTED,UNDECIDED=True,False,None
class Levels:
	def __init__(self,grid):
		edges=len(grid.puzzle.ends)
		self.grid=grid
		self.fact_pos=[-1]*fact_count(edges)
		self.fact_level=[0]*fact_count(edges)
		self.starts=[]
		self.marks=[]
		self.why={}
		self.scanned=len(grid.trail)
	def open(self,mark):
		length=len(self.grid.trail)
		self.marks.append(mark)
		self.starts.append(length)
		self.why[length]=DECISION
	def scan(self):
		grid=self.grid
		trail,fact_pos,fact_level,lo,hi=grid.trail,self.fact_pos,self.fact_level,grid.lo,grid.hi
		level=len(self.starts)
		made=[]
		after={}
		for position in range(len(trail)-1,self.scanned-1,-1):
			e,old_lo,old_hi=trail[position]
			new_lo,new_hi=after.get(e)or(lo[e],hi[e])
			base=4*e
			if new_lo!=old_lo:
				fact,last=base+new_lo-1,base+old_lo
			else:
				fact,last=base+3-new_hi,base+4-old_hi
			while fact>=last:
				fact_pos[fact]=position
				fact_level[fact]=level
				made.append(fact)
				fact-=1
			after[e]=old_lo,old_hi
		self.scanned=len(trail)
		return made
	def forget(self,length,phase):
		grid=self.grid
		trail,lo,hi,why=grid.trail,grid.lo,grid.hi,self.why
		for position in range(length,len(trail)):
			e=trail[position][0]
			if lo[e]==hi[e]:
				phase[e]=lo[e]
			why.pop(position,None)
		if self.scanned>length:
			self.scanned=length
	def decisions(self):
		grid=self.grid
		trail=grid.trail
		facts=[]
		for position in self.starts:
			e,old_lo,old_hi=trail[position]
			new_lo,new_hi=next(((lo,hi)for(f,lo,hi)in trail[position+1:]if f==e),(grid.lo[e],grid.hi[e]))
			facts.append(made_true(e,old_lo,old_hi,new_lo,new_hi)[0])
		return facts
class Nogoods:
	def __init__(self,facts):
		self.lists=[]
		self.watches=[[]for _ in range(facts)]
	def add(self,facts):
		index=len(self.lists)
		self.lists.append(facts)
		if len(facts)>1:
			self.watches[facts[0]].append(index)
			self.watches[facts[1]].append(index)
		return index
	def watch(self,made,lo,hi,fire):
		watches=self.watches
		for fact in made:
			watching=watches[fact]
			if watching:
				conflict=self._visit(fact,watching,lo,hi,fire)
				if conflict is not None:
					return conflict
	def _visit(self,fact,watching,lo,hi,fire):
		watches,nogoods=self.watches,self.lists
		keep=[]
		for(k,index)in enumerate(watching):
			facts=nogoods[index]
			if facts[0]==fact:
				facts[0],facts[1]=facts[1],facts[0]
			other=facts[0]
			kind=other&3
			if lo[other>>2]>3-kind if kind>1 else hi[other>>2]<=kind:
				keep.append(index)
				continue
			for j in range(2,len(facts)):
				other_fact=facts[j]
				kind=other_fact&3
				if lo[other_fact>>2]<=kind if kind<2 else hi[other_fact>>2]>3-kind:
					facts[1],facts[j]=facts[j],facts[1]
					watches[facts[1]].append(index)
					break
			else:
				keep.append(index)
				conflict=fire(index,other)
				if conflict is not None:
					keep.extend(watching[k+1:])
					watching[:]=keep
					return conflict
		watching[:]=keep
def _file(fact_level,facts,level,here,learned):
	for fact in facts:
		at=fact_level[fact]
		if at==level:
			here.add(fact)
		elif at>0:
			learned.add(fact)
class Learner:
	def __init__(self,rules,stats):
		grid,options=rules.grid,rules.options
		self.rules,self.grid,self.stats,self.options=rules,grid,stats,options
		with_slack=grid.spare<=options.learn_slack_spare
		self.cheap=LEARN_CHEAP if with_slack else LEARN_CHEAP_NO_SLACK
		self.whole=LEARN if with_slack else LEARN_NO_SLACK
		edges=len(grid.puzzle.ends)
		value=grid.puzzle.value
		self.top=[min(2,value[a],value[b])for(a,b)in grid.puzzle.ends]
		self.levels=Levels(grid)
		self.nogoods=Nogoods(fact_count(edges))
		self.phases=Phases(edges,options,random.Random(options.seed))
		self.restarts=Restarts(options)
	@property
	def level(self):
		return len(self.levels.starts)
	@property
	def conflicts(self):
		return self.restarts.conflicts
	def search(self,conflicts,stop):
		limit=self.conflicts+conflicts
		while True:
			conflict=self.propagate()
			if conflict is not None:
				if not self.analyse(conflict):
					return REFUTED
				if self.conflicts>=limit:
					return UNDECIDED
			elif stop():
				return UNDECIDED
			elif self.level and self.restarts.due():
				self.restart()
			elif self.grid.solved():
				return SOLVED
			elif not self.analyse(self.decide()):
				return REFUTED
	def propagate(self):
		grid,stats,rules,levels=self.grid,self.stats,self.rules,self.levels
		sweeps=False
		try:
			while True:
				rules.propagate(self.whole if sweeps else self.cheap,stats)
				if levels.scanned==len(grid.trail):
					if sweeps:
						return
					sweeps=True
					continue
				sweeps=False
				conflict=self.nogoods.watch(levels.scan(),grid.lo,grid.hi,self._fire)
				if conflict is not None:
					return conflict
		except Contradiction as dead:
			return self._diagnose(dead)
	def decide(self):
		fact=self.phases.choose(self.rules)
		self.stats.branch()
		conflict=self.suppose(fact)
		if self.level>self.stats.max_depth:
			self.stats.max_depth=self.level
		return conflict
	def suppose(self,fact):
		self.open()
		try:
			enforce(self.grid,fact)
		except Contradiction as dead:
			return self._diagnose(dead)
	def open(self):
		self.levels.open(self.rules.mark())
	def analyse(self,conflict):
		while conflict is not None:
			deepest=max(map(self.levels.fact_level.__getitem__,conflict),default=0)
			if deepest==0:
				return False
			self.backjump(deepest)
			conflict=self.learn(conflict)
		return True
	def backjump(self,level):
		if level>=self.level:
			return
		grid,levels=self.grid,self.levels
		mark,length=levels.marks[level],levels.starts[level]
		levels.forget(length,self.phases.phase)
		if len(grid.trail)>=length:
			self.rules.revert(mark)
		else:
			levels.scanned=len(grid.trail)
		del levels.starts[level:]
		del levels.marks[level:]
	def restart(self):
		self.restarts.restarted()
		self.phases.shake(self.rules)
		self.backjump(0)
	def rule_out(self):
		decisions=self.levels.decisions()
		return bool(decisions)and self.analyse(decisions)
	def is_open(self,fact):
		lo,hi=self.grid.lo,self.grid.hi
		return not holds(lo,hi,fact)and not holds(lo,hi,negate(fact))
	def _diagnose(self,dead):
		self.levels.scan()
		conflict=self.rules.diagnose(self.top,*dead.args)
		if conflict is None:
			conflict=self.levels.decisions()
		return conflict
	def _fire(self,index,other):
		grid=self.grid
		if holds(grid.lo,grid.hi,other):
			self.levels.scan()
			return list(self.nogoods.lists[index])
		self.levels.why[len(grid.trail)]=index
		try:
			enforce(grid,negate(other))
		except Contradiction as dead:
			return self._diagnose(dead)
	def learn(self,conflict):
		self.stats.nogoods+=1
		grid=self.grid
		depth=len(grid.trail)
		self.phases.reached(grid)
		uip,learned=self._trace(conflict)
		level_of=self.levels.fact_level.__getitem__
		self.restarts.conflict(depth,1+len(set(map(level_of,learned))))
		self.phases.bumped(self.rules,uip,learned)
		others=sorted(learned,key=level_of,reverse=True)
		if len(uip)==1:
			target=level_of(others[0])if others else 0
		else:
			target=self.level-1
		self.backjump(target)
		index=self.nogoods.add(uip+others)
		if len(uip)!=1:
			return
		return self._fire(index,uip[0])
	def _trace(self,conflict):
		trail,fact_pos,fact_level=self.grid.trail,self.levels.fact_pos,self.levels.fact_level
		level=self.level
		learned,here=set(),set()
		drawn={}
		_file(fact_level,conflict,level,here,learned)
		kept=set()
		while len(here)+len(kept)>1 and here:
			position=max(map(fact_pos.__getitem__,here))
			e=trail[position][0]
			lo,hi=self.grid.lo,self.grid.hi
			every=[f for f in every_fact(e)if fact_pos[f]==position and holds(lo,hi,f)]
			made=[f for f in every if f in here]
			here.difference_update(made)
			reason=self._reason(position,e,every,drawn)
			if reason is None:
				kept.add(made[0])
			else:
				_file(fact_level,reason,level,here,learned)
		return list(here|kept),learned
	def _reason(self,position,e,every,drawn):
		how=self.levels.why.get(position)
		if how==DECISION:
			return
		if how is not None:
			set_by_it={negate(f)for f in every}
			return[f for f in self.nogoods.lists[how]if f not in set_by_it]
		grid=self.grid
		reason=node_reason(grid,self.top,every[0],self.levels.fact_pos,position)
		if reason is None:
			if position<len(grid.trail):
				self.levels.forget(position,self.phases.phase)
				self.rules.undo(position)
			fact,n=every[0],bound(every[0])
			new_lo,new_hi=(n,grid.hi[e])if is_lower(fact)else(grid.lo[e],n)
			reason=self.rules.reason(self.top,e,new_lo,new_hi,drawn)
		return reason
''',
'bot/restarts.py':r'''
from collections import deque
from bot.options import DEFAULT
class Restarts:
	def __init__(self,options=DEFAULT):
		self.window,self.margin=options.restart_window,options.restart_margin
		self.depth_window,self.block_depth=options.depth_window,options.block_depth
		self.block_after=options.block_after
		self.conflicts=0
		self.glue_sum=0
		self.recent=deque()
		self.recent_sum=0
		self.depths=deque()
		self.depth_sum=0
	def conflict(self,depth,glue):
		self.conflicts+=1
		self.depths.append(depth)
		self.depth_sum+=depth
		if len(self.depths)>self.depth_window:
			self.depth_sum-=self.depths.popleft()
		if(self.conflicts>self.block_after
			and len(self.recent)==self.window
			and depth*len(self.depths)>self.block_depth*self.depth_sum):
			self.restarted()
		self.glue_sum+=glue
		self.recent.append(glue)
		self.recent_sum+=glue
		if len(self.recent)>self.window:
			self.recent_sum-=self.recent.popleft()
	def due(self):
		return len(self.recent)==self.window and self.recent_sum*self.margin*self.conflicts>self.window*self.glue_sum
	def restarted(self):
		self.recent.clear()
		self.recent_sum=0
''',
'bot/walk.py':r'''
import random
from itertools import permutations
from bot.grid import components,solves
from bot.options import DEFAULT
from bot.rules.connect import bridges_from
_TURN=8
_GIVE_UP_FILLS=3
_STOP_EVERY=64
_ORDERS=[list(permutations(range(d)))for d in range(5)]
def loose_links(node_edges,count):
	n=len(node_edges)
	order,low=[-1]*n,[0]*n
	bridges=set()
	clock=0
	for root in range(n):
		if order[root]<0:
			found,clock=bridges_from(node_edges,count,root,order,low,clock)
			bridges.update(found)
	return bytearray(1 if c>1 or c and e not in bridges else 0 for(e,c)in enumerate(count))
def filled(grid,seed=DEFAULT.seed,options=DEFAULT):
	walk=Walk(grid,seed,options)
	walk.fill()
	return walk.count
class Walk:
	def __init__(self,grid,seed=DEFAULT.seed,options=DEFAULT):
		p=grid.puzzle
		self.puzzle=p
		self.options=options
		self.lo,self.hi,self.got=grid.lo[:],grid.hi[:],grid.got[:]
		self.rng=random.Random(seed)
		self.stop=None
		self.count=None
		self.start=None
		self.groups=0
		self.moves=0
		self.failed=0
		self.best=None
		self.best_groups=0
		self.parts=Groups(p.node_edges)
		self.focus=[]
		self.answers=set()
		self.loose=None
		self.orders=[_ORDERS[len(around)]for around in p.node_edges]
	def run(self,moves):
		stop=self.stop
		for step in range(moves):
			if stop is not None and not step%_STOP_EVERY and step and stop():
				return
			if self.count is None or self.moves>=self.options.walk_fill_moves:
				if self.failed>=_GIVE_UP_FILLS:
					return
				self.fill()
				continue
			if self.groups==1:
				answer=tuple(self.count)
				if answer not in self.answers:
					if not solves(self.puzzle,self.count):
						self.count=None
						continue
					self.answers.add(answer)
					return list(answer)
			self.move()
	def refill(self,start):
		self.start,self.count=start,None
	def fill(self):
		count,short=self._start_counts()
		self._spread(count,short)
		self.count,self.moves=count,0
		if not self._make_whole(short):
			self.count=None
			self.failed+=1
			return
		self.failed=0
		label,_,size=components(self,count)
		self.parts.label_afresh(label,size)
		self.groups=len(size)
		self.best,self.best_groups=count[:],self.groups
	def _start_counts(self):
		ends,count=self.puzzle.ends,self.lo[:]
		short=[v-g for(v,g)in zip(self.puzzle.value,self.got)]
		if self.start is not None:
			for(e,n)in enumerate(self.start):
				if n>count[e]:
					a,b=ends[e]
					short[a]-=n-count[e]
					short[b]-=n-count[e]
					count[e]=n
			self.start=None
		return count,short
	def _spread(self,count,short):
		rng,lo,hi=self.rng,self.lo,self.hi
		ends,crossings=self.puzzle.ends,self.puzzle.crossings
		order=[e for e in range(len(ends))if hi[e]>lo[e]]
		rng.shuffle(order)
		for e in order:
			a,b=ends[e]
			room=min(hi[e]-count[e],short[a],short[b])
			if room<=0 or not count[e]and any(count[f]for f in crossings[e]):
				continue
			take=room if room==1 or rng.random()<.5 else 1
			count[e]+=take
			short[a]-=take
			short[b]-=take
	def _make_whole(self,short):
		needy=[i for(i,s)in enumerate(short)if s>0]
		self.rng.shuffle(needy)
		for i in needy:
			while short[i]>0:
				path=self.alternating_path(i,-1,lambda j,i=i:short[j]>0 and j!=i,len(short),True)
				if path is None or not self._apply(path):
					return False
				short[i]-=1
				short[path[-1][2]]-=1
		return True
	def move(self):
		count=self.count
		self.moves+=1
		e=self._pick_edge()
		if count[e]<=self.lo[e]:
			return
		a,b=self.puzzle.ends[e]
		if self.rng.random()<.5:
			a,b=b,a
		count[e]-=1
		path=self.alternating_path(b,e,lambda j:j==a,self.options.walk_reach,False)
		if path is None:
			count[e]+=1
			return
		ends=[a,b]+[i for(f,_,_)in path for i in self.puzzle.ends[f]]
		label=self.parts.label
		touched={label[i]for i in ends}
		if not self._apply(path):
			count[e]+=1
			return
		if not self._keep(ends,touched):
			self._undo(path)
			count[e]+=1
	def _pick_edge(self):
		options,rng=self.options,self.rng
		if self.moves%options.walk_focus_every==1:
			self.focus=self.parts.outside_largest()
		if self.moves%options.walk_loose_every==1:
			self.loose=loose_links(self.puzzle.node_edges,self.count)
		if self.focus and rng.random()<options.walk_focus:
			return self.focus[int(rng.random()*len(self.focus))]
		return rng.randrange(len(self.count))
	def _keep(self,ends,touched):
		parts=self.parts
		after,walked=parts.among(ends,self.count)
		groups=self.groups+after-len(touched)
		worse=groups-self.groups
		if worse>0 and(worse>1 or self.rng.random()*self.options.walk_worse>=1):
			return False
		self.groups=groups
		parts.relabel(*walked(),touched,self.count)
		if groups<self.best_groups:
			self.best,self.best_groups=self.count[:],groups
		return True
	def alternating_path(self,start,banned,is_goal,reach,every):
		count,lo,hi,loose,draw=self.count,self.lo,self.hi,self.loose,self.rng.random
		node_edges,crossings,orders_at=self.puzzle.node_edges,self.puzzle.crossings,self.orders
		came,queue={start:None},[start]
		for u in queue:
			if len(came)>reach:
				return
			adds,orders=node_edges[u],orders_at[u]
			for k in orders[int(draw()*len(orders))]:
				f,v=adds[k]
				if f==banned or v in came or count[f]>=hi[f]or not count[f]and crossings[f]and any(count[g]for g in crossings[f]):
					continue
				if is_goal(v):
					return self._path_to(came,u,f,v)
				came[v]=None
				takes,orders,chosen=node_edges[v],orders_at[v],None
				for k in orders[int(draw()*len(orders))]:
					g,w=takes[k]
					if g!=f and g!=banned and count[g]>lo[g]and w not in came:
						if every:
							came[w]=f,u,g,v
							queue.append(w)
						elif loose[g]:
							chosen=g,w
							break
						else:
							chosen=chosen or(g,w)
				if chosen is not None:
					g,w=chosen
					came[w]=f,u,g,v
					queue.append(w)
	@staticmethod
	def _path_to(came,u,f,v):
		path=[(f,1,v)]
		while came[u]is not None:
			added,before,taken,via=came[u]
			path.append((taken,-1,u))
			path.append((added,1,via))
			u=before
		path.reverse()
		return path
	def _apply(self,path):
		count,crossings=self.count,self.puzzle.crossings
		for(f,step,_)in path:
			count[f]+=step
		for(f,step,_)in path:
			if step>0 and count[f]and crossings[f]and any(count[g]for g in crossings[f]):
				self._undo(path)
				return False
		return True
	def _undo(self,path):
		count=self.count
		for(f,step,_)in path:
			count[f]-=step
class Groups:
	def __init__(self,node_edges):
		self.node_edges=node_edges
		self.label=[]
		self.size={}
		self.fresh=0
		self.seen=[0]*len(node_edges)
		self.owner=[0]*len(node_edges)
		self.stamp=0
	def label_afresh(self,label,size):
		self.label,self.size,self.fresh=label,dict(enumerate(size)),len(size)
	def outside_largest(self):
		size=self.size
		largest=max(size,key=size.__getitem__)
		node_edges=self.node_edges
		return sorted({f for(i,g)in enumerate(self.label)if g!=largest for(f,_)in node_edges[i]})
	def relabel(self,parts,rest,touched,count):
		label,size=self.label,self.size
		for part in parts:
			new=self.fresh
			self.fresh+=1
			for i in part:
				size[label[i]]-=1
				label[i]=new
			size[new]=len(part)
		if rest:
			self._join(rest,count)
		for old in touched:
			if not size[old]:
				del size[old]
	def _join(self,rest,count):
		label,size=self.label,self.size
		keep=max({label[i]for i in rest},key=size.__getitem__)
		node_edges=self.node_edges
		for i in rest:
			old=label[i]
			if old==keep:
				continue
			label[i]=keep
			moved=1
			stack=[i]
			while stack:
				u=stack.pop()
				for(f,v)in node_edges[u]:
					if count[f]and label[v]==old:
						label[v]=keep
						moved+=1
						stack.append(v)
			size[keep]+=moved
			size[old]-=moved
	def among(self,sources,count):
		self.stamp+=1
		stamp,seen,owner=self.stamp,self.seen,self.owner
		reached=[]
		lead=[]
		todo=[]
		for i in sources:
			if seen[i]!=stamp:
				seen[i]=stamp
				owner[i]=len(lead)
				reached.append(i)
				lead.append(len(lead))
				todo.append([i])
		running,finished=self._grow(reached,lead,todo,count)
		return len(finished)+len(running),lambda:_walked(sources,reached,owner,lead,finished,running)
	def _grow(self,reached,lead,todo,count):
		running,finished=list(range(len(lead))),[]
		while len(running)>1:
			if self._round(running,reached,lead,todo,finished,count):
				running=[k for k in running if lead[k]==k and k not in finished]
		return running,finished
	def _round(self,running,reached,lead,todo,finished,count):
		node_edges=self.node_edges
		stamp,seen,owner=self.stamp,self.seen,self.owner
		changed=False
		for k in running:
			if lead[k]!=k:
				continue
			islands=todo[k]
			for _ in range(_TURN):
				if not islands:
					finished.append(k)
					changed=True
					break
				i=islands.pop()
				for(f,j)in node_edges[i]:
					if count[f]:
						if seen[j]!=stamp:
							seen[j]=stamp
							owner[j]=k
							reached.append(j)
							islands.append(j)
						elif owner[j]!=k:
							other=_leader(lead,owner[j])
							if other!=k:
								lead[other]=k
								islands.extend(todo[other])
								changed=True
							owner[j]=k
		return changed
def _leader(lead,k):
	while lead[k]!=k:
		k=lead[k]
	return k
def _walked(sources,reached,owner,lead,finished,running):
	parts={k:[]for k in finished}
	left=running[0]if running else-1
	wanted=set(sources)
	rest=[]
	for i in reached:
		k=_leader(lead,owner[i])
		if k in parts:
			parts[k].append(i)
		elif k==left and i in wanted:
			rest.append(i)
	return list(parts.values()),rest
''',
'bot/bundle/__init__.py':'',
'bot/bundle/lazy.py':r'''
def shifted(code,lines):
	return code.replace(co_firstlineno=code.co_firstlineno+lines,
		co_consts=tuple(shifted(c,lines)if type(c)is CodeType else c for c in code.co_consts))
CodeType=type(shifted.__code__)
def passed(code,arguments):
	count=code.co_argcount+code.co_kwonlyargcount
	args=[arguments[name]for name in code.co_varnames[:code.co_argcount]]
	keywords={name:arguments[name]for name in code.co_varnames[code.co_argcount:count]}
	if code.co_flags&4:
		args+=arguments[code.co_varnames[count]]
		count+=1
	if code.co_flags&8:
		keywords.update(arguments[code.co_varnames[count]])
	return args,keywords
class LazyBodies:
	def __init__(self,namespace,lines,line,bodies):
		self.namespace=namespace
		self.lines=lines
		self.line=line
		self.bodies=bodies
		self.functions={}
	def __call__(self,n,arguments):
		function=self.function(n)
		stub=function.__code__
		if'__lazy__'in stub.co_names:
			function.__code__=self.compiled(n,function.__name__)
		args,keywords=passed(stub,arguments)
		return function(*args,**keywords)
	def head(self,n):
		head=self.bodies[n][0]-1
		while not self.lines[head].lstrip('\t').startswith('def '):
			head-=1
		return head
	def function(self,n):
		at=self.line+1+self.head(n)
		if at not in self.functions:
			name=self.namespace['__name__']
			for value in list(self.namespace.values()):
				for item in[value,*vars(value).values()]if isinstance(value,type)else[value]:
					if getattr(item,'__module__',None)==name and hasattr(item,'__code__'):
						self.functions[item.__code__.co_firstlineno]=item
		return self.functions[at]
	def compiled(self,n,name):
		head,last=self.head(n),self.bodies[n][1]
		text=self.lines[head:last+1]
		if not text[0].startswith('\t'):
			text=['\t'+line for line in text]
		outer={}
		exec('def outer():\n\tglobal '+name+'\n'+'\n'.join(text),outer)
		code=next(c for c in outer['outer'].__code__.co_consts if type(c)is CodeType)
		return shifted(code,self.line+head-2)
''',
}
# Bodies compiled at their function's first call, not with their module (compiling is most
# of the start; build.py, lazy_bodies): the module's length, then each body's first and
# last line in MODULES[file].split('\n').
LAZY={
'bot/options.py':'1269 44 44 ',
'bot/pacing.py':'1717 18 21 36 49 ',
'bot/puzzle.py':'3459 89 91 ',
'bot/assumption.py':'5588 11 31 33 37 39 61 63 76 78 96 98 102 104 106 108 111 166 183 130 136 ',
'bot/branching.py':'4521 32 35 38 44 46 57 59 79 81 84 87 95 13 18 25 26 99 106 108 116 120 123 125 135 ',
'bot/facts.py':'1009 26 30 32 34 36 42 ',
'bot/grid.py':'5238 186 207 62 65 ',
'bot/rules/engine.py':'3506 56 57 59 61 63 64 82 87 89 98 ',
'bot/rules/balance.py':'2879 19 20 22 24 26 48 74 84 86 92 ',
'bot/rules/connect.py':'4208 43 62 64 71 73 89 134 141 143 151 153 172 28 41 ',
'bot/rules/groups.py':'6442 72 88 105 124 126 138 140 147 149 174 176 193 195 198 200 203 205 206 208 226 228 234 ',
'bot/rules/nodes.py':'2667 36 43 45 56 58 67 73 87 ',
}
MODULES_LINE=6
# The bundle's importer: it imports the modules of MODULES from memory, each at its own
# lines of the bundle, and compiles the bodies LAZY lists when their function is first called.
# Nothing is written to disk. MODULES_LINE is the bundle's line that opens MODULES.
import gc,sys
ModuleSpec=type(sys.__spec__)
MODULE_LINES={}
def module_file(name):
	# bot.cli is MODULES['bot/cli.py'], a package its __init__.py.
	base=name.replace('.','/')
	for file in(base+'.py',base+'/__init__.py'):
		if file in MODULES:
			return file
def module_line(file):
	# The line before MODULES[file]'s first (all counted once).
	if not MODULE_LINES:
		line=MODULES_LINE
		for(key,source)in MODULES.items():
			MODULE_LINES[key]=line
			line+=source.count('\n')+1
	return MODULE_LINES[file]
def waiting(file):
	# (first, last) line of each body of MODULES[file] that LAZY lists; none for a module
	# whose text is not the build's (a player's edit): it is compiled whole.
	numbers=[*map(int,LAZY.get(file,'0').split())]
	return[*zip(numbers[1::2],numbers[2::2])]if numbers[0]==len(MODULES[file])else[]
def stubbed(lines,bodies):
	# Each body on its first line replaced by a stub that calls __lazy__, the lines after
	# it left empty: every line keeps its number.
	for(n,(first,last))in enumerate(bodies):
		tabs=len(lines[first])-len(lines[first].lstrip('\t'))
		lines[first:last+1]=['\t'*tabs+'return __lazy__(%d,locals())'%n]+['']*(last-first)
def lazy_stubs(namespace,lines,line,bodies):
	# A module's __lazy__ until one of its bodies is first called: then bot.bundle.lazy is
	# imported (a board its rules solve never gets there) and its LazyBodies takes over.
	def first(n,arguments):
		from bot.bundle.lazy import LazyBodies
		namespace['__lazy__']=LazyBodies(namespace,lines,line,bodies)
		return namespace['__lazy__'](n,arguments)
	return first
def run(source,namespace):
	# exec, with no garbage collection meanwhile: what a module makes lives on.
	collecting=gc.isenabled()
	gc.disable()
	try:
		exec(source,namespace)
	finally:
		if collecting:
			gc.enable()
class BundleImporter:
	# A finder on sys.meta_path, ahead of the others: a bot/ folder cannot shadow MODULES.
	@staticmethod
	def find_spec(name,*_):
		file=module_file(name)
		if file:
			return ModuleSpec(name,BundleImporter,origin=file,is_package=file.endswith('__init__.py'))
	@staticmethod
	def create_module(spec):
		pass
	@staticmethod
	def exec_module(module):
		# Run at its lines: a traceback's "<string>", line N is the bundle's line N. exec of
		# the text, not compile(): the first compile() call costs milliseconds.
		file=module.__spec__.origin
		line=module_line(file)
		lines=MODULES[file].split('\n')
		bodies=waiting(file)
		if bodies:
			module.__lazy__=lazy_stubs(module.__dict__,lines[:],line,bodies)
			stubbed(lines,bodies)
		run('\n'*line+'\n'.join(lines),module.__dict__)
if __name__=='__main__':
	sys.meta_path.insert(0,BundleImporter)
from bot.cli import main
main()
