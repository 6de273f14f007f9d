"""LazyBodies: the bodies the bundle's importer left as stubs, each compiled into its
function at its first call. The bundle ships it as one of MODULES, imported at the first
such call: a board its rules solve never compiles it.
"""


def shifted(code, lines):
    """`code`, and the code it defines, `lines` further down the bundle."""
    return code.replace(co_firstlineno=code.co_firstlineno + lines,
                        co_consts=tuple(shifted(c, lines) if type(c) is CodeType else c
                                        for c in code.co_consts))


CodeType = type(shifted.__code__)   # types.CodeType, without importing types


def passed(code, arguments):
    """(args, keywords) that call a function of `code` again as it was called, from
    `arguments`, its locals at its start (its parameters)."""
    count = code.co_argcount + code.co_kwonlyargcount
    args = [arguments[name] for name in code.co_varnames[:code.co_argcount]]
    keywords = {name: arguments[name] for name in code.co_varnames[code.co_argcount:count]}
    if code.co_flags & 4:   # CO_VARARGS
        args += arguments[code.co_varnames[count]]
        count += 1
    if code.co_flags & 8:   # CO_VARKEYWORDS
        keywords.update(arguments[code.co_varnames[count]])
    return args, keywords


class LazyBodies:
    """The functions of one module whose bodies LAZY lists. Until its first call each runs
    `return __lazy__(n,locals())`; that call compiles its body into it, so that the same
    function object, wherever it was imported, runs its own code from then on."""

    def __init__(self, namespace, lines, line, bodies):
        self.namespace = namespace   # the module's globals
        self.lines = lines           # its text as built, a line each
        self.line = line             # the bundle's line before its first
        self.bodies = bodies         # (first, last) line of each body that waits
        self.functions = {}          # {the line of its def in the bundle: function}

    def __call__(self, n, arguments):
        function = self.function(n)
        stub = function.__code__
        if '__lazy__' in stub.co_names:
            function.__code__ = self.compiled(n, function.__name__)
        args, keywords = passed(stub, arguments)
        return function(*args, **keywords)

    def head(self, n):
        """The line of the def whose body is bodies[n]."""
        head = self.bodies[n][0] - 1
        while not self.lines[head].lstrip('\t').startswith('def '):
            head -= 1
        return head

    def function(self, n):
        """The function or method of bodies[n]: the one whose code begins at its def."""
        at = self.line + 1 + self.head(n)
        if at not in self.functions:
            name = self.namespace['__name__']
            for value in list(self.namespace.values()):
                for item in [value, *vars(value).values()] if isinstance(value, type) else [value]:
                    if getattr(item, '__module__', None) == name and hasattr(item, '__code__'):
                        self.functions[item.__code__.co_firstlineno] = item
        return self.functions[at]

    def compiled(self, n, name):
        """The code of the def at its lines, compiled inside a function that never runs (no
        default is evaluated again), its name global as at the top of a module."""
        head, last = self.head(n), self.bodies[n][1]
        text = self.lines[head:last + 1]
        if not text[0].startswith('\t'):
            text = ['\t' + line for line in text]
        outer = {}
        exec('def outer():\n\tglobal ' + name + '\n' + '\n'.join(text), outer)
        code = next(c for c in outer['outer'].__code__.co_consts if type(c) is CodeType)
        return shifted(code, self.line + head - 2)
