"""The bundle's importer: it imports the modules of MODULES from memory, each at its own
lines of the bundle, and compiles the bodies LAZY lists when their function is first called.
Nothing is written to disk. MODULES_LINE is the bundle's line that opens MODULES.
"""

import gc
import sys

# Stand-ins: the bundle sets these before this module's text, which build.py lays out
# without them.
MODULES = {}        # {path: source}: 'bot/cli.py', each source from a line of its own
LAZY = {}           # {path: 'length first last ...'}: see build.py, _lazy_table
MODULES_LINE = 0    # the bundle's line that opens MODULES

ModuleSpec = type(sys.__spec__)   # importlib.machinery's, without importing importlib
MODULE_LINES = {}   # {path: the bundle's line before its first}, counted once


def module_file(name):
    """bot.cli is MODULES['bot/cli.py'], a package its __init__.py."""
    base = name.replace('.', '/')
    for file in (base + '.py', base + '/__init__.py'):
        if file in MODULES:
            return file


def module_line(file):
    """The line before MODULES[file]'s first (all counted once)."""
    if not MODULE_LINES:
        line = MODULES_LINE
        for key, source in MODULES.items():
            MODULE_LINES[key] = line
            line += source.count('\n') + 1
    return MODULE_LINES[file]


def waiting(file):
    """(first, last) line of each body of MODULES[file] that LAZY lists; none for a module
    whose text is not the build's (a player's edit): it is compiled whole."""
    numbers = [*map(int, LAZY.get(file, '0').split())]
    return [*zip(numbers[1::2], numbers[2::2])] if numbers[0] == len(MODULES[file]) else []


def stubbed(lines, bodies):
    """Each body on its first line replaced by a stub that calls __lazy__, the lines after
    it left empty: every line keeps its number."""
    for n, (first, last) in enumerate(bodies):
        tabs = len(lines[first]) - len(lines[first].lstrip('\t'))
        lines[first:last + 1] = (['\t' * tabs + 'return __lazy__(%d,locals())' % n]
                                 + [''] * (last - first))


def lazy_stubs(namespace, lines, line, bodies):
    """A module's __lazy__ until one of its bodies is first called: then bot.bundle.lazy is
    imported (a board its rules solve never gets there) and its LazyBodies takes over."""
    def first(n, arguments):
        from bot.bundle.lazy import LazyBodies
        namespace['__lazy__'] = LazyBodies(namespace, lines, line, bodies)
        return namespace['__lazy__'](n, arguments)
    return first


def run(source, namespace):
    """exec, with no garbage collection meanwhile: what a module makes lives on."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        exec(source, namespace)
    finally:
        if collecting:
            gc.enable()


class BundleImporter:
    """A finder on sys.meta_path, ahead of the others: a bot/ folder cannot shadow MODULES."""

    @staticmethod
    def find_spec(name, *_):
        file = module_file(name)
        if file:
            return ModuleSpec(name, BundleImporter, origin=file,
                              is_package=file.endswith('__init__.py'))

    @staticmethod
    def create_module(spec):
        pass   # None: the module Python makes by default

    @staticmethod
    def exec_module(module):
        """Run at its lines: a traceback's "<string>", line N is the bundle's line N. exec of
        the text, not compile(): the first compile() call costs milliseconds."""
        file = module.__spec__.origin
        line = module_line(file)
        lines = MODULES[file].split('\n')
        bodies = waiting(file)
        if bodies:
            module.__lazy__ = lazy_stubs(module.__dict__, lines[:], line, bodies)
            stubbed(lines, bodies)
        run('\n' * line + '\n'.join(lines), module.__dict__)


if __name__ == '__main__':   # the bundle, as CodinGame runs it (a test installs its own)
    sys.meta_path.insert(0, BundleImporter)
