"""Tools for adopting lazy imports (PEP 690): which imports to keep eager.

    python -m importlib.lazy report [--json FILE] (SCRIPT | -m MODULE) [ARGS...]
    python -m importlib.lazy check [--json FILE] (SCRIPT | -m MODULE) [ARGS...]

``report`` runs the program with lazy imports on (-L) and reports every
import: where each deferred statement is, who first used it (or that
nothing did), what its resolution cost, and why each eager import was
eager.  ``check`` runs the program eagerly and with -L, compares what it
printed, its exit status and the import-time side effects that matter, and
suggests the ``excluding`` setting that makes the -L run behave like the
eager one, confirmed by a third run.

The program runs in a child interpreter (the same executable and flags as
this one), so that lazy imports are on from its first import, as with
``python -L``.  Nothing here costs anything when no report is asked for:
the interpreter calls its observer only while one is set.
"""

import _imp
import argparse
import dis
import io
import json
import linecache
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

_BOOTSTRAP_FILES = ('<frozen importlib._bootstrap>',
                    '<frozen importlib._bootstrap_external>')
_THIS_FILE = __file__


# ---------------------------------------------------------------------------
# Recording (runs in the child interpreter)

class _Recorder:
    """Collect deferrals, resolutions and module loads of this process."""

    def __init__(self):
        self.started = time.perf_counter()
        self.before = sorted(sys.modules)
        self.statements = {}        # key -> deferred statement record
        self.loads = []             # module load records, in start order
        self.pending_reason = {}    # thread id -> reason of an eager import
        self.stacks = {}            # thread id -> stack of open events
        self.lock = threading.RLock()
        self.tracemalloc = None
        # Time spent in the recorder itself, left out of the inclusive times.
        self.overhead = 0.0

    # -- helpers

    def _stack(self):
        return self.stacks.setdefault(threading.get_ident(), [])

    def _memory(self):
        if self.tracemalloc is None:
            return 0
        return self.tracemalloc.get_traced_memory()[0]

    @staticmethod
    def _user_frame(frame):
        """The innermost frame that is not the import system's or ours."""
        while frame is not None:
            filename = frame.f_code.co_filename
            if (filename not in _BOOTSTRAP_FILES and filename != _THIS_FILE
                    and not filename.endswith(os.path.join('importlib',
                                                           '__init__.py'))):
                return frame
            frame = frame.f_back
        return None

    @staticmethod
    def _importing_frame(frame):
        """The frame running the import statement or call that led to a
        module load, and whether another load is in between (the import
        system loading a package before its submodule)."""
        while frame is not None:
            code = frame.f_code
            if code.co_filename == _THIS_FILE:
                if code.co_name == '_find_and_load':
                    return None, frame
            elif (code.co_filename not in _BOOTSTRAP_FILES
                    and not code.co_filename.endswith(
                        os.path.join('importlib', '__init__.py'))):
                return frame, None
            frame = frame.f_back
        return None, None

    @staticmethod
    def _where(frame):
        if frame is None:
            return None
        return {'file': frame.f_code.co_filename, 'line': frame.f_lineno,
                'function': frame.f_code.co_qualname,
                'module': frame.f_globals.get('__name__'),
                'thread': threading.current_thread().name}

    # -- the interpreter's observer

    def observe(self, event, key, name, fromlist, importer, filename, lineno,
                extra):
        began = time.perf_counter()
        try:
            self._observe(event, key, name, fromlist, importer, filename,
                          lineno, extra)
        finally:
            self.overhead += time.perf_counter() - began

    def _observe(self, event, key, name, fromlist, importer, filename,
                 lineno, extra):
        with self.lock:
            if event == 'deferred':
                self.statements[key] = {
                    'kind': 'deferred', 'module': name,
                    'fromlist': list(fromlist) if fromlist else None,
                    'importer': importer, 'file': filename, 'line': lineno,
                    'deferred_at': time.perf_counter() - self.started,
                    'resolved_at': None, 'used_at': None, 'verdict': None,
                    'time_ms': 0.0, 'memory_kib': 0.0, 'error': None,
                }
            elif event == 'eager':
                self.pending_reason[threading.get_ident()] = (
                    extra, name, filename, lineno, importer)
            elif event == 'resolving':
                record = self.statements.get(key)
                if record is None:
                    # A submodule bound in its package by a deferred
                    # statement (its lazy reference), first used now.
                    record = self.statements[key] = {
                        'kind': 'deferred', 'module': name,
                        'fromlist': None, 'importer': importer,
                        'file': filename, 'line': lineno,
                        'submodule_binding': True,
                        'deferred_at': None, 'resolved_at': None,
                        'used_at': None, 'verdict': None, 'time_ms': 0.0,
                        'memory_kib': 0.0, 'error': None,
                    }
                self._stack().append(('resolve', key, time.perf_counter(),
                                      self._memory(), self.overhead))
                if record['used_at'] is None:
                    frame = self._user_frame(sys._getframe(1))
                    record['used_at'] = self._where(frame)
                    record['resolved_at'] = (time.perf_counter()
                                             - self.started)
                    record['verdict'] = self._verdict(record)
            elif event == 'resolved':
                stack = self._stack()
                if stack and stack[-1][0] == 'resolve' and stack[-1][1] == key:
                    _, _, start, memory, overhead = stack.pop()
                    record = self.statements.get(key)
                    if record is not None:
                        record['time_ms'] += (time.perf_counter() - start
                                              - (self.overhead - overhead)
                                              ) * 1e3
                        record['memory_kib'] += (self._memory()
                                                 - memory) / 1024
                        if not extra and record['error'] is None:
                            record['error'] = 'failed'
                        elif extra:
                            record['error'] = None

    def _verdict(self, record):
        importer = record['importer']
        module = sys.modules.get(importer) if importer else None
        spec = getattr(module, '__spec__', None)
        if (importer != '__main__' and spec is not None
                and getattr(spec, '_initializing', False)):
            return 'used at import time'
        return 'used later'

    # -- module loads (importlib._bootstrap._find_and_load)

    def wrap_find_and_load(self, bootstrap):
        original = bootstrap._find_and_load
        recorder = self

        def _find_and_load(name, import_):
            began = time.perf_counter()
            record = recorder._load_started(name)
            recorder.overhead += time.perf_counter() - began
            try:
                return original(name, import_)
            finally:
                began = time.perf_counter()
                recorder._load_finished(record)
                recorder.overhead += time.perf_counter() - began

        bootstrap._find_and_load = _find_and_load

    def _load_started(self, name):
        with self.lock:
            stack = self._stack()
            parent = stack[-1] if stack else None
            record = {'module': name, 'cause': None, 'reason': None,
                      'nested': any(e[0] == 'load' for e in stack),
                      'file': None, 'line': None, 'importer': None,
                      'time_ms': 0.0, 'memory_kib': 0.0,
                      'thread': threading.current_thread().name}
            pending = self.pending_reason.pop(threading.get_ident(), None)
            frame, outer = self._importing_frame(sys._getframe(2))
            if parent is not None and parent[0] == 'resolve':
                statement = self.statements.get(parent[1], {})
                record['cause'] = 'lazy'
                record['statement'] = parent[1]
                record['file'] = statement.get('file')
                record['line'] = statement.get('line')
                record['importer'] = statement.get('importer')
            elif outer is not None and parent is not None:
                # The import system imports a package before its
                # submodules: the cause is the outer import's.
                outer_record = self.loads[parent[4]]
                record['cause'] = outer_record['cause']
                record['reason'] = outer_record['reason']
                record['statement'] = outer_record.get('statement')
                for field in ('file', 'line', 'importer'):
                    record[field] = outer_record[field]
            else:
                record['cause'] = 'eager'
                if pending is not None and pending[1] and (
                        name == pending[1]
                        or name.startswith(pending[1] + '.')
                        or pending[1].startswith(name + '.')):
                    record['reason'] = pending[0]
                else:
                    record['reason'] = _eager_reason(frame)
                if frame is not None:
                    record['file'] = frame.f_code.co_filename
                    record['line'] = frame.f_lineno
                    record['importer'] = frame.f_globals.get('__name__')
            index = len(self.loads)
            self.loads.append(record)
            stack.append(('load', name, time.perf_counter(), self._memory(),
                          index, self.overhead))
            return index

    def _load_finished(self, index):
        with self.lock:
            stack = self._stack()
            while stack:
                entry = stack.pop()
                if entry[0] == 'load' and entry[4] == index:
                    record = self.loads[index]
                    record['time_ms'] = (time.perf_counter() - entry[2]
                                         - (self.overhead - entry[5])) * 1e3
                    record['memory_kib'] = (self._memory() - entry[3]) / 1024
                    break

    # -- result

    def result(self, argv, status):
        loaded = set(sys.modules)
        # The statements of the tool's own machinery are not the program's.
        statements = [r for r in self.statements.values()
                      if r['file'] not in (_THIS_FILE, '<frozen runpy>')]
        # A submodule that a deferred statement bound in its package is
        # part of that statement: "import a.b" resolves a, then a.b.
        by_line = {(r['file'], r['line']): r for r in statements
                   if not r.get('submodule_binding')}
        kept = []
        for record in statements:
            owner = by_line.get((record['file'], record['line']))
            if record.get('submodule_binding') and owner is not None:
                owner['time_ms'] += record['time_ms']
                owner['memory_kib'] += record['memory_kib']
                if owner['verdict'] is None:
                    for field in ('verdict', 'used_at', 'resolved_at'):
                        owner[field] = record[field]
                continue
            kept.append(record)
        statements = kept
        for record in statements:
            if (record['verdict'] is not None and not record['fromlist']
                    and record['module'] not in loaded):
                # "import a.b" whose name a was used for something else:
                # the module a.b itself never was.
                record['verdict'] = None
            if record['verdict'] is None:
                record['verdict'] = 'never used'
                record['loaded_anyway'] = record['module'] in loaded
        # Each module counts once: the first load of it.
        seen = set()
        loads = []
        for record in self.loads:
            if record['module'] in seen or record['module'] not in loaded:
                continue
            if record['file'] in (_THIS_FILE, '<frozen runpy>'):
                continue    # the recorder's own imports
            seen.add(record['module'])
            loads.append(record)
        never = {r['module'] for r in statements
                 if r['verdict'] == 'never used'}
        return {
            'command': argv,
            'exit_status': status,
            'modules_before_start': self.before,
            'modules_loaded': sorted(loaded),
            'deferred': statements,
            'loads': loads,
            'never_imported': sorted(never - loaded),
        }


_exception_tables = {}      # code object -> its parsed exception table


def _innermost_handler(code, offset):
    table = _exception_tables.get(code)
    if table is None:
        table = _exception_tables[code] = dis._parse_exception_table(code)
    best = None
    for entry in table:
        if entry.start <= offset < entry.end:
            if best is None or entry.end - entry.start < best.end - best.start:
                best = entry
    return best


def _eager_reason(frame):
    """Why the import that 'frame' is running now is eager.  Reads the
    bytecode at the frame's instruction (cheaply: it runs for every eager
    module load of the program)."""
    if frame is None:
        return 'C code'
    code = frame.f_code
    offset = frame.f_lasti
    raw = code.co_code
    op = raw[offset] if 0 <= offset < len(raw) else None
    if op not in (dis.opmap['IMPORT_NAME'], dis.opmap.get('IMPORT_NAME_LAZY')):
        if frame.f_code.co_filename.endswith('importlib' + os.sep
                                             + '__init__.py'):
            return 'importlib.import_module()'
        return 'C code or __import__()'
    if op == dis.opmap.get('IMPORT_NAME_LAZY'):
        return 'excluding or filter'
    if code.co_flags & 0x1:     # CO_OPTIMIZED: a function
        return 'function'
    if frame.f_locals is not frame.f_globals:
        return 'class body'
    if (offset + 3 < len(raw) and raw[offset + 2] == dis.opmap['CALL_INTRINSIC_1']
            and raw[offset + 3] == 2):     # INTRINSIC_IMPORT_STAR
        return 'star import'
    handler = _innermost_handler(code, offset)
    if handler is not None:
        target = raw[handler.target:handler.target + 8:2]
        if dis.opmap['WITH_EXCEPT_START'] in target:
            line = _with_line(code, handler.start)
            source = linecache.getline(code.co_filename, line) if line else ''
            if 'eager_imports' in source:
                return 'eager_imports()'
            return 'with'
        return 'try'
    names = code.co_names
    if raw[offset + 1] < len(names) and names[raw[offset + 1]] == '__future__':
        return '__future__'
    return 'unknown'


def _with_line(code, start):
    line = None
    for instruction in dis.get_instructions(code):
        if instruction.offset >= start:
            break
        if instruction.opname in ('BEFORE_WITH', 'BEFORE_ASYNC_WITH'):
            line = instruction.positions.lineno
    return line


def _record_main(args):
    """Child side of report and check: run the program, write a record."""
    # Parsed by hand, and nothing imported that the recorder does not
    # need: what the recorder imports is loaded before the program runs.
    out = excluding = None
    effects_wanted, observe = False, True
    while args and args[0] != '--':
        option = args.pop(0)
        if option == '--out':
            out = args.pop(0)
        elif option == '--excluding':
            excluding = [m for m in args.pop(0).split(',') if m]
        elif option == '--effects':
            effects_wanted = True
        elif option == '--no-observe':
            observe = False
        else:
            raise SystemExit(f'importlib.lazy _record: unknown {option}')
    target = args[1:]
    import atexit, importlib, runpy, tracemalloc
    # _eager_reason() reads bytecode and source lines while the program
    # runs: resolve what it uses now.
    for module in (dis, linecache, threading, time, os):
        importlib.resolve_lazy_imports(module)
    dis.get_instructions(_record_main)
    linecache.getline(_THIS_FILE, 1)

    recorder = None
    effects = None
    if excluding is not None:
        importlib.set_lazy_imports(_imp._is_lazy_imports_enabled(),
                                   excluding=excluding)
    if effects_wanted:
        effects = _Effects()
        effects.install()
    if observe:
        recorder = _Recorder()
        recorder.tracemalloc = tracemalloc
        tracemalloc.start()
        recorder.wrap_find_and_load(sys.modules['_frozen_importlib'])
        _imp._set_lazy_observer(recorder.observe)

    status = 0

    def finish():
        if recorder is not None:
            _imp._set_lazy_observer(None)
        result = (recorder.result(target, status) if recorder is not None
                  else {'command': target, 'exit_status': status,
                        'modules_loaded': sorted(sys.modules)})
        if effects is not None:
            result['effects'] = effects.snapshot()
        with open(out, 'w', encoding='utf-8') as file:
            json.dump(result, file, default=repr)

    atexit.register(finish)     # first registered: runs last
    if target[:1] == ['-m']:
        sys.argv[:] = [target[1], *target[2:]]
        runner = lambda: runpy.run_module(target[1], run_name='__main__',
                                          alter_sys=True)
    else:
        sys.argv[:] = target
        sys.path[0] = os.path.dirname(os.path.abspath(target[0]))
        runner = lambda: runpy.run_path(target[0], run_name='__main__')
    try:
        runner()
    except SystemExit as exc:
        code = exc.code
        status = code if isinstance(code, int) else (0 if code is None else 1)
        if not isinstance(code, int) and code is not None:
            print(code, file=sys.stderr)
    except BaseException:
        import traceback
        traceback.print_exc()
        status = 1
    sys.exit(status)


def _run_child(target, *, lazy, out, extra=(), capture=False):
    """Run the program in a child interpreter; return the CompletedProcess."""
    flags = []
    inherited = subprocess._args_from_interpreter_flags()
    skip = False
    for i, flag in enumerate(inherited):
        if skip:
            skip = False
        elif flag == '-X' and i + 1 < len(inherited) and (
                inherited[i + 1].startswith('lazy_imports')):
            skip = True
        elif flag != '-L':
            flags.append(flag)
    mode = ['-L'] if lazy else ['-X', 'lazy_imports=normal']
    command = [sys.executable, *flags, *mode,
               '-m', 'importlib.lazy', '_record', '--out', out, *extra,
               '--', *target]
    kwargs = {}
    if capture:
        kwargs = dict(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return subprocess.run(command, **kwargs)


# ---------------------------------------------------------------------------
# Import-time side effects (check)

class _Effects:
    """Record the registrations whose import-time use matters.

    Each registration is recorded with the module whose code made it.  The
    wrappers return what the wrapped function returns and raise what it
    raises.
    """

    def __init__(self):
        self.records = []

    @staticmethod
    def _caller_module(depth=2):
        frame = sys._getframe(depth)
        while frame is not None and frame.f_code.co_filename in (
                _THIS_FILE, '<frozen importlib._bootstrap>'):
            frame = frame.f_back
        return frame.f_globals.get('__name__') if frame is not None else None

    @staticmethod
    def _name(obj):
        module = getattr(obj, '__module__', None)
        qualname = getattr(obj, '__qualname__', None)
        if qualname is None:
            return type(obj).__qualname__ + ' instance'
        return f'{module}.{qualname}' if module else qualname

    def _wrap(self, owner, attribute, kind, describe):
        original = getattr(owner, attribute)
        effects = self

        def wrapper(*args, **kwargs):
            result = original(*args, **kwargs)
            try:
                what = describe(*args, **kwargs)
            except Exception:
                what = repr(args)
            effects.records.append((kind, what,
                                    effects._caller_module()))
            return result

        wrapper.__name__ = getattr(original, '__name__', attribute)
        wrapper.__qualname__ = getattr(original, '__qualname__', attribute)
        wrapper.__doc__ = getattr(original, '__doc__', None)
        wrapper.__wrapped__ = original
        setattr(owner, attribute, wrapper)

    def install(self):
        import abc, atexit, codecs, copyreg, signal, warnings
        name = self._name
        self._wrap(atexit, 'register', 'atexit handler',
                   lambda func, *a, **k: name(func))
        self._wrap(signal, 'signal', 'signal handler',
                   lambda signum, handler: f'{signum}: {name(handler)}'
                   if callable(handler) else f'{signum}: {handler}')
        self._wrap(codecs, 'register', 'codec search function',
                   lambda func: name(func))
        self._wrap(copyreg, 'pickle', 'copyreg reduction',
                   lambda cls, *a, **k: name(cls))
        self._wrap(warnings, 'filterwarnings', 'warnings filter',
                   lambda action, message='', category=Warning, *a, **k:
                   f'{action} {message!r} {name(category)}')
        self._wrap(warnings, 'simplefilter', 'warnings filter',
                   lambda action, category=Warning, *a, **k:
                   f'{action} {name(category)}')
        self._wrap(abc.ABCMeta, 'register', 'ABC registration',
                   lambda cls, subclass: f'{name(cls)} <- {name(subclass)}')
        self.excepthook = sys.excepthook

    def snapshot(self):
        """What the program registered, once it ended (JSON-able)."""
        records = list(self.records)
        if sys.excepthook is not self.excepthook:
            hook = sys.excepthook
            records.append(('sys.excepthook', self._name(hook),
                            getattr(hook, '__module__', None)))
        logging = sys.modules.get('logging')
        if logging is not None:
            manager = logging.Logger.manager
            loggers = [('root', logging.getLogger())] + sorted(
                (n, l) for n, l in list(manager.loggerDict.items())
                if isinstance(l, logging.Logger))
            for logger_name, logger in loggers:
                if logger.level != logging.NOTSET:
                    records.append(('logging level',
                                    f'{logger_name}: {logger.level}', None))
                for handler in logger.handlers:
                    records.append(('logging handler',
                                    f'{logger_name}: {type(handler).__name__}',
                                    type(handler).__module__))
        return sorted({tuple(r) for r in records},
                      key=lambda r: (r[0], r[1], r[2] or ''))


# ---------------------------------------------------------------------------
# report

def _statement_text(record):
    if record.get('submodule_binding'):
        return f"submodule {record['module']} (bound by a deferred import)"
    if record['fromlist']:
        return f"from {record['module']} import {', '.join(record['fromlist'])}"
    return f"import {record['module']}"


def _location(file, line):
    if not file:
        return '?'
    try:
        file = os.path.relpath(file)
    except ValueError:
        pass
    return f'{file}:{line}'


def _format_report(result, limit):
    out = io.StringIO()
    w = out.write
    deferred = result['deferred']
    verdicts = {}
    for record in deferred:
        verdicts.setdefault(record['verdict'], []).append(record)
    lazy_loads = [r for r in result['loads'] if r['cause'] == 'lazy']
    eager_loads = [r for r in result['loads'] if r['cause'] == 'eager']
    never = verdicts.get('never used', [])
    at_import = verdicts.get('used at import time', [])
    later = verdicts.get('used later', [])
    total_time = sum(r['time_ms'] for r in result['loads']
                     if not r.get('nested'))
    w('Lazy imports report: ' + ' '.join(result['command']) + '\n')
    w(f"  exit status {result['exit_status']}; "
      f"{len(result['modules_loaded'])} modules loaded "
      f"({len(result['modules_before_start'])} before the program started)"
      '\n')
    w(f'  {len(deferred)} imports deferred: {len(never)} never used, '
      f'{len(at_import)} used at import time, {len(later)} used later\n')
    w(f"  {len(result['never_imported'])} modules never imported; "
      f'{len(lazy_loads)} loaded by resolutions, {len(eager_loads)} '
      'loaded eagerly\n')
    w(f'  {total_time:.1f} ms importing\n')

    def section(title, records, line):
        if not records:
            return
        w(f'\n{title} ({len(records)})\n')
        for record in records[:limit]:
            w('  ' + line(record) + '\n')
        if len(records) > limit:
            w(f'  ... {len(records) - limit} more (--limit, --json)\n')

    def used(record):
        at = record.get('used_at') or {}
        return (f"{_location(at.get('file'), at.get('line'))} in "
                f"{at.get('function')} ({at.get('thread')})")

    def cost(record):
        return f"{record['time_ms']:8.1f} ms {record['memory_kib']:8.0f} KiB"

    by_cost = lambda records: sorted(records, key=lambda r: -r['time_ms'])
    section('Used at import time: deferral gained nothing; the use is '
            'at the line named', by_cost(at_import),
            lambda r: f"{cost(r)}  {_statement_text(r)}  "
                      f"({_location(r['file'], r['line'])}) used at "
                      f'{used(r)}')
    reasons = {}
    for record in eager_loads:
        reasons.setdefault(record['reason'], []).append(record)
    section('Eager imports, by inclusive time', by_cost(eager_loads),
            lambda r: f"{cost(r)}  {r['module']}  [{r['reason']}]  "
                      f"{_location(r['file'], r['line'])}")
    section('Used later', by_cost(later),
            lambda r: f"{cost(r)}  {_statement_text(r)}  "
                      f"({_location(r['file'], r['line'])}) first used at "
                      f'{used(r)}')
    section('Never used: the win',
            sorted(never, key=lambda r: (r['file'] or '', r['line'])),
            lambda r: f"{_statement_text(r)}  "
                      f"({_location(r['file'], r['line'])})"
                      + ('  [imported anyway]' if r.get('loaded_anyway')
                         else ''))
    if reasons:
        w('\nEager imports by reason: ' + ', '.join(
            f'{reason} {len(records)}' for reason, records in
            sorted(reasons.items(), key=lambda item: -len(item[1]))) + '\n')
    return out.getvalue()


def report(target, *, json_file=None, limit=20, stream=None):
    """Run the program under -L and report its imports.

    Returns the program's exit status.
    """
    stream = sys.stderr if stream is None else stream
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'record.json')
        process = _run_child(target, lazy=True, out=out)
        try:
            with open(out, encoding='utf-8') as file:
                result = json.load(file)
        except OSError:
            print('importlib.lazy report: the program ended without a '
                  'record (os._exit() or a crash?)', file=stream)
            return process.returncode or 1
    stream.write('\n' + _format_report(result, limit))
    if json_file:
        with open(json_file, 'w', encoding='utf-8') as file:
            json.dump(result, file, indent=1)
    return process.returncode


# ---------------------------------------------------------------------------
# check

_ADDRESS = re.compile(r'\b0x[0-9a-fA-F]{6,}\b')


class _Run:
    """One run of the program: its output, status and record."""

    def __init__(self, target, *, lazy, excluding=None):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, 'record.json')
            extra = ['--effects']
            if excluding is not None:
                extra += ['--excluding', ','.join(sorted(excluding))]
            process = _run_child(target, lazy=lazy, out=out, extra=extra,
                                 capture=True)
            try:
                with open(out, encoding='utf-8') as file:
                    self.record = json.load(file)
            except OSError:
                self.record = {'modules_loaded': [], 'loads': [],
                               'deferred': [], 'effects': []}
        self.status = process.returncode
        # Addresses in reprs ("<function f at 0x7f...>") differ from run to
        # run whatever the mode.
        self.stdout = _ADDRESS.sub('0x...', process.stdout.decode(
            'utf-8', 'replace'))
        self.stderr = _ADDRESS.sub('0x...', process.stderr.decode(
            'utf-8', 'replace'))
        self.effects = {tuple(e) for e in self.record.get('effects', ())}
        self.loaded = set(self.record.get('modules_loaded', ()))

    def differences(self, other):
        """What differs in 'other' (the -L run) from this (eager) run."""
        found = []
        if self.status != other.status:
            found.append(('exit status', f'{self.status} eagerly, '
                                         f'{other.status} with -L'))
        for stream in ('stdout', 'stderr'):
            mine = getattr(self, stream).rstrip()
            theirs = getattr(other, stream).rstrip()
            if mine != theirs:
                found.append((stream, _first_difference(mine, theirs)))
        mine = {e[:2]: e for e in self.effects}
        theirs = {e[:2]: e for e in other.effects}
        both = self.loaded & other.loaded
        # A registration made by a module that both runs loaded happened in
        # both, if only before the recorder was installed in one of them;
        # the standard library's own (numbers registering int) are not the
        # application's side effects.
        def counts(effect):
            module = effect[2]
            return (module not in both and (module or '').partition('.')[0]
                    not in sys.stdlib_module_names)
        for key in sorted(mine.keys() - theirs.keys()):
            if counts(mine[key]):
                found.append(('missing with -L', mine[key]))
        for key in sorted(theirs.keys() - mine.keys()):
            if counts(theirs[key]):
                found.append(('only with -L', theirs[key]))
        return found


def _first_difference(a, b):
    lines_a, lines_b = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(lines_a, lines_b)):
        if x != y:
            return f'line {i + 1}: {x!r} eagerly, {y!r} with -L'
    i = min(len(lines_a), len(lines_b))
    if len(lines_a) > i:
        return f'line {i + 1}: {lines_a[i]!r} eagerly, nothing with -L'
    return f'line {i + 1}: nothing eagerly, {lines_b[i]!r} with -L'


def _import_chain(eager, lazy, module):
    """The modules between the -L run's last loaded importer and 'module'
    (that one included), following who imported whom in the eager run."""
    importer_of = {}
    for load in eager.record.get('loads', ()):
        importer_of.setdefault(load['module'], load.get('importer'))
    chain = []
    seen = set()
    while module and module not in lazy.loaded and module not in seen:
        seen.add(module)
        chain.append(module)
        module = importer_of.get(module)
        if module == '__main__':
            break
    return chain[::-1]


def _deferred_at(run, module):
    """file:line of the deferred statements of the -L run importing
    'module', or None."""
    places = []
    for record in run.record.get('deferred', ()):
        names = [record['module']]
        if record.get('fromlist'):
            names += [f"{record['module']}.{n}" for n in record['fromlist']]
        if module in names and record.get('file'):
            places.append(_location(record['file'], record['line']))
    return ', '.join(sorted(set(places))[:3]) or None


def _agrees(eager, run):
    return not eager.differences(run)


def _narrow(target, eager, candidates, max_runs, log):
    """A small subset of 'candidates' whose exclusion makes the -L run
    agree with the eager one (delta debugging), or None."""
    runs = 0

    def test(subset):
        nonlocal runs
        runs += 1
        return _agrees(eager, _Run(target, lazy=True, excluding=subset))

    candidates = sorted(candidates)
    if not candidates or not test(candidates):
        return None, runs
    granularity = 2
    while len(candidates) >= 2 and runs < max_runs:
        size = max(1, len(candidates) // granularity)
        chunks = [candidates[i:i + size]
                  for i in range(0, len(candidates), size)]
        reduced = False
        for chunk in chunks:
            if runs >= max_runs:
                break
            complement = [c for c in candidates if c not in chunk]
            if test(chunk):
                candidates, granularity, reduced = chunk, 2, True
                break
            if runs < max_runs and complement and test(complement):
                candidates = complement
                granularity = max(granularity - 1, 2)
                reduced = True
                break
        if not reduced:
            if granularity >= len(candidates):
                break
            granularity = min(len(candidates), granularity * 2)
    return candidates, runs


def check(target, *, json_file=None, max_runs=24, stream=None):
    """Run the program eagerly and with -L; suggest and confirm an
    excluding= setting that makes them agree.

    Returns 0 when they agree, 1 when a confirmed suggestion was printed,
    2 when no suggestion made them agree.
    """
    stream = sys.stdout if stream is None else stream
    w = stream.write
    eager = _Run(target, lazy=False)
    lazy = _Run(target, lazy=True)
    found = eager.differences(lazy)
    findings = {'command': target, 'differences': [list(d) for d in found],
                'excluding': {}, 'confirmed': None}
    w('Lazy imports check: ' + ' '.join(target) + '\n')
    w(f'  eager: exit status {eager.status}, {len(eager.loaded)} modules; '
      f'-L: exit status {lazy.status}, {len(lazy.loaded)} modules\n')
    if not found:
        w('  no difference: the program behaves the same with -L\n')
        if json_file:
            with open(json_file, 'w', encoding='utf-8') as file:
                json.dump(findings, file, indent=1)
        return 0
    w(f'\n{len(found)} differences:\n')
    for kind, detail in found:
        if isinstance(detail, (list, tuple)):
            registrar = detail[2] or 'unknown module'
            detail = f'{detail[0]} {detail[1]} (registered by {registrar})'
        w(f'  {kind}: {detail}\n')

    excluding = {}      # module -> reason
    unexplained = False
    for kind, detail in found:
        if kind == 'missing with -L' and detail[2]:
            chain = _import_chain(eager, lazy, detail[2])
            for module in chain:
                excluding.setdefault(
                    module, f'{detail[0]} {detail[1]} registered '
                            f'by {detail[2]} at import'
                            + ('' if module == detail[2]
                               else f' (imported through {module})'))
            if not chain:
                unexplained = True
        else:
            unexplained = True

    runs = 2
    confirmed = None
    if excluding:
        confirm = _Run(target, lazy=True, excluding=excluding)
        runs += 1
        confirmed = _agrees(eager, confirm)
    if not confirmed and unexplained:
        # First the imports that -L deferred and never ran, the program's
        # own first; then every module only the eager run loaded.
        only_eager = eager.loaded - lazy.loaded
        roots = set(excluding)
        for record in lazy.record.get('deferred', ()):
            if record.get('verdict') != 'never used':
                continue
            names = [record['module']] + [
                f"{record['module']}.{n}" for n in record.get('fromlist') or ()]
            roots.update(n for n in names if n in only_eager)
        subset = None
        for candidates in (roots, only_eager | set(excluding)):
            if not candidates:
                continue
            subset, used = _narrow(target, eager, candidates,
                                   max(0, max_runs - runs), w)
            runs += used
            if subset is not None:
                break
        if subset is not None:
            for module in subset:
                excluding.setdefault(
                    module, 'imported eagerly, not with -L; the output '
                            'differs without it (found by narrowing down)')
            excluding = {m: r for m, r in excluding.items() if m in subset}
            confirm = _Run(target, lazy=True, excluding=excluding)
            runs += 1
            confirmed = _agrees(eager, confirm)
    # Name the deferred statements behind each entry.
    for module in list(excluding):
        where = _deferred_at(lazy, module)
        if where:
            excluding[module] += f'; deferred at {where}'
    findings['excluding'] = excluding
    findings['confirmed'] = confirmed
    findings['runs'] = runs
    if excluding:
        w('\nSuggested setting (at the entry point, before other imports):'
          '\n\n    importlib.set_lazy_imports(excluding=[\n')
        for module, reason in sorted(excluding.items()):
            w(f'        {module!r},  # {reason}\n')
        w('    ])\n\n')
        if confirmed:
            w(f'confirmed: with it, -L agrees with the eager run '
              f'({runs} runs)\n')
        else:
            remaining = eager.differences(confirm)
            w(f'not confirmed: {len(remaining)} differences remain\n')
    else:
        w('\nno excluding= setting found that makes the runs agree '
          f'({runs} runs)\n')
    if json_file:
        with open(json_file, 'w', encoding='utf-8') as file:
            json.dump(findings, file, indent=1)
    return 1 if confirmed else 2


# ---------------------------------------------------------------------------
# Command line

def _target(parser, options):
    if options.module:
        return ['-m', options.module, *options.args]
    if not options.args:
        parser.error('a script or -m MODULE is required')
    return options.args


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ['_record']:
        return _record_main(argv[1:])
    parser = argparse.ArgumentParser(
        prog='python -m importlib.lazy',
        description='Tools for adopting lazy imports (-L).')
    commands = parser.add_subparsers(dest='command', required=True)
    for name, help_text in (
            ('report', 'run the program with -L and report every import: '
                       'where it was deferred, who used it, its cost, and '
                       'why each eager import was eager'),
            ('check', 'run the program eagerly and with -L, compare, and '
                      'suggest the excluding= setting that makes them '
                      'agree')):
        sub = commands.add_parser(name, help=help_text,
                                  description=help_text)
        sub.add_argument('--json', metavar='FILE',
                         help='also write the result as JSON to FILE')
        if name == 'report':
            sub.add_argument('--limit', type=int, default=20,
                             help='lines per section (default 20)')
        else:
            sub.add_argument('--max-runs', type=int, default=24,
                             help='runs allowed to narrow down the '
                                  'imports behind a difference '
                                  '(default 24)')
        sub.add_argument('-m', dest='module', metavar='MODULE',
                         help='run library module as a script')
        sub.add_argument('args', nargs=argparse.REMAINDER,
                         help='SCRIPT [ARGS...], or the arguments of -m')
    options = parser.parse_args(argv)
    target = _target(parser, options)
    if options.command == 'report':
        return report(target, json_file=options.json, limit=options.limit)
    return check(target, json_file=options.json, max_runs=options.max_runs)


if __name__ == '__main__':
    sys.exit(main())
