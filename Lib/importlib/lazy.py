"""Tools for adopting lazy imports (PEP 690): which imports to keep eager.

    python -m importlib.lazy report [--json FILE] (SCRIPT | -m MODULE) [ARGS...]
    python -m importlib.lazy check [--json FILE] (SCRIPT | -m MODULE) [ARGS...]
    python -m importlib.lazy verify (SCRIPT | -m MODULE) [ARGS...]

``report`` runs the program with lazy imports on (-L) and reports every
import: where each deferred statement is, who first used it (or that
nothing did), what its resolution cost, and why each eager import was
eager.  ``check`` runs the program eagerly and with -L, compares what it
printed, its exit status and the import-time side effects that matter, and
suggests the ``excluding`` setting that makes the -L run behave like the
eager one, confirmed by a third run.  ``verify`` runs the program as
``python -X lazy_imports=verify`` does, for CI: lazy, and when it ends with
status 0 every import still deferred is resolved, a failure failing the run.

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
import subprocess
import sys
import tempfile
import threading
import time

_BOOTSTRAP_FILES = ('<frozen importlib._bootstrap>',
                    '<frozen importlib._bootstrap_external>',
                    # check's registration recorder wraps _find_and_load
                    os.path.join(os.path.dirname(__file__),
                                 '_lazy_effects.py'))
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
        self.early = {}     # statement key -> why the fork completed it early
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
            elif event == 'early':
                # Contract rule 51: the fork completes the statement before
                # its first use, for the reason in extra.
                record = self.statements.get(key)
                if record is None:
                    # A submodule reference: its record comes with
                    # 'resolving', next.
                    self.early[key] = extra
                elif record.get('early') is None:
                    record['early'] = extra
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
                if key in self.early:
                    record.setdefault('early', self.early.pop(key))
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
    if op == dis.opmap.get('IMPORT_NAME_GUARDED'):
        return 'try'
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
    import atexit, importlib, pkgutil, runpy, tracemalloc
    # _eager_reason() reads bytecode and source lines while the program
    # runs, and runpy runs it with pkgutil's help: resolve what they use
    # now, or their imports would be charged to the program.
    for module in (dis, linecache, threading, time, os, runpy, pkgutil):
        importlib.resolve_lazy_imports(module)
    dis.get_instructions(_record_main)
    linecache.getline(_THIS_FILE, 1)

    recorder = None
    effects = None
    if excluding is not None:
        importlib.set_lazy_imports(_imp._is_lazy_imports_enabled(),
                                   excluding=excluding)
    if effects_wanted:
        from importlib._lazy_effects import Effects
        effects = Effects()
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
    except BaseException as exc:
        # As the interpreter does, through sys.excepthook (the program may
        # have replaced it), without the frames of this runner.
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename in (
                _THIS_FILE, '<frozen runpy>'):
            tb = tb.tb_next
        sys.excepthook(type(exc), exc.with_traceback(tb), tb)
        status = 1
    sys.exit(status)


def _child_flags():
    """This interpreter's flags for a child, less the lazy imports mode
    (-L, -X lazy_imports[=mode]), which the caller chooses.  The other -X
    options of lazy imports (lazy_imports_heal) are passed on."""
    flags = []
    inherited = subprocess._args_from_interpreter_flags()
    skip = False
    for i, flag in enumerate(inherited):
        if skip:
            skip = False
        elif flag == '-X' and i + 1 < len(inherited) and (
                inherited[i + 1].partition('=')[0] == 'lazy_imports'):
            skip = True
        elif flag != '-L':
            flags.append(flag)
    return flags


def _run_child(target, *, lazy, out, extra=(), capture=False, env=None):
    """Run the program in a child interpreter; return the CompletedProcess.
    With 'capture', its output is captured and its stdin is empty."""
    mode = ['-L'] if lazy else ['-X', 'lazy_imports=normal']
    command = [sys.executable, *_child_flags(), *mode,
               '-m', 'importlib.lazy', '_record', '--out', out, *extra,
               '--', *target]
    kwargs = {}
    if capture:
        kwargs = dict(stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                      stderr=subprocess.PIPE)
    return subprocess.run(command, env=env, **kwargs)


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
    section('Completed early by the fork (contract rule 51): eager '
            'execution had run them, and a lookup needed them',
            by_cost([r for r in deferred if r.get('early')]),
            lambda r: f"{cost(r)}  {_statement_text(r)}  "
                      f"({_location(r['file'], r['line'])}): {r['early']}")
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
# verify

def verify(target):
    """Run the program as ``python -X lazy_imports=verify`` runs it: lazy,
    and when it ends with status 0, every import still deferred is
    resolved, each failure printed with its statement (status 1).

    Returns the program's exit status (128 + N when signal N ended it).
    """
    command = [sys.executable, *_child_flags(), '-X', 'lazy_imports=verify',
               *target]
    returncode = subprocess.run(command).returncode
    return 128 - returncode if returncode < 0 else returncode


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
    passed_on = ('The -X options of lazy imports given to this '
                 'interpreter, such as -X lazy_imports_heal=0, are passed '
                 'on to the program.')
    epilog = ('Then, in CI, run the test suite or representative jobs with '
              'python -X lazy_imports=verify (or the verify command): lazy '
              'as in production, and an import that no longer works fails '
              'the run with its statement named.  ' + passed_on)
    parser = argparse.ArgumentParser(
        prog='python -m importlib.lazy',
        description='Tools for adopting lazy imports (-L): report, check, '
                    'then verify in CI.',
        epilog=epilog)
    commands = parser.add_subparsers(dest='command', required=True)
    for name, help_text in (
            ('report', 'run the program with -L and report every import: '
                       'where it was deferred, who used it, its cost, and '
                       'why each eager import was eager'),
            ('check', 'run the program eagerly and with -L, compare, and '
                      'suggest the excluding= setting that makes them '
                      'agree'),
            ('verify', 'run the program as python -X lazy_imports=verify '
                       'does: with -L, and when it ends with status 0, '
                       'resolve every import still deferred; a failure is '
                       'printed with its statement and the status becomes '
                       '1')):
        sub = commands.add_parser(
            name, help=help_text, description=help_text,
            epilog=passed_on if name == 'verify' else epilog)
        if name != 'verify':
            sub.add_argument('--json', metavar='FILE',
                             help='also write the result as JSON to FILE')
        if name == 'report':
            sub.add_argument('--limit', type=int, default=20,
                             help='lines per section (default 20)')
        elif name == 'check':
            sub.add_argument('--max-runs', type=int, default=80,
                             help='runs allowed to narrow down the '
                                  'imports behind a difference and to '
                                  'make the suggestion 1-minimal '
                                  '(default 80)')
        sub.add_argument('-m', dest='module', metavar='MODULE',
                         help='run library module as a script')
        sub.add_argument('args', nargs=argparse.REMAINDER,
                         help='SCRIPT [ARGS...], or the arguments of -m')
    # What follows '-m MODULE' is the program's, options included:
    # argparse would take those for ours.
    program = []
    i = 1
    while i < len(argv) and argv[i].startswith('-'):
        if argv[i] == '-m':
            argv, program = argv[:i + 2], argv[i + 2:]
            break
        i += 2 if argv[i] in ('--json', '--limit', '--max-runs') else 1
    options = parser.parse_args(argv)
    options.args += program
    target = _target(parser, options)
    if options.command == 'report':
        return report(target, json_file=options.json, limit=options.limit)
    if options.command == 'verify':
        return verify(target)
    from importlib._lazy_check import check
    return check(target, json_file=options.json, max_runs=options.max_runs)


if __name__ == '__main__':
    sys.exit(main())
