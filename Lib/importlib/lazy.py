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
        # Memory the recorder keeps, left out of the traced memory.
        self.memory_overhead = 0
        self.late = None            # a _LateEffects, when installed

    # -- helpers

    def _stack(self):
        return self.stacks.setdefault(threading.get_ident(), [])

    def _memory(self):
        if self.tracemalloc is None:
            return 0
        return self.tracemalloc.get_traced_memory()[0] - self.memory_overhead

    def _boundary(self, before, after, ended=None):
        """A module load starts or ends: let the late side effects
        watcher compare, its memory left out."""
        if self.late is None:
            return
        memory = self._memory()
        try:
            self.late.boundary(before, after, self, ended)
        except Exception:
            pass        # recording must never change the program
        self.memory_overhead += self._memory() - memory

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

    def print_late_side_effect(self, module, changes, key):
        """The verify command: name a late side effect as it happens."""
        record = self.statements.get(key) or {}
        at = record.get('used_at') or {}
        text = '; '.join(f'{kind} {what}' for kind, what in changes)
        print(f'lazy import verify: late side effect: {module}: {text}  <- '
              f"{_statement_text(record) if record else '?'}  "
              f"({_location(record.get('file'), record.get('line'))}) "
              f"first used at {_location(at.get('file'), at.get('line'))}",
              file=sys.stderr, flush=True)

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
            try:
                frame = sys._getframe(2)
            except ValueError:      # an import made from C, at the top
                frame = None
            frame, outer = self._importing_frame(frame)
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
            before = list(stack)
            stack.append(('load', name, time.perf_counter(), self._memory(),
                          index, self.overhead))
            self._boundary(before, stack)
            return index

    def _load_finished(self, index):
        with self.lock:
            stack = self._stack()
            before = list(stack)
            while stack:
                entry = stack.pop()
                if entry[0] == 'load' and entry[4] == index:
                    record = self.loads[index]
                    record['time_ms'] = (time.perf_counter() - entry[2]
                                         - (self.overhead - entry[5])) * 1e3
                    record['memory_kib'] = (self._memory() - entry[3]) / 1024
                    self._boundary(before, stack, entry[1])
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
            'side_effects': self._side_effects(statements, by_line, loaded),
        }

    def _side_effects(self, statements, by_line, loaded):
        """The late side effects, and the deferred imports made for a
        side effect that never ran, each with its statement."""
        found = []
        tool_files = (_THIS_FILE, '<frozen runpy>')
        for entry in (self.late.effects.values() if self.late else ()):
            statement = self.statements.get(entry['statement_key'])
            if statement is None:
                continue
            if statement.get('submodule_binding'):
                statement = by_line.get((statement['file'],
                                         statement['line']), statement)
            if statement['file'] in tool_files:
                continue
            exclude = statement['module']
            for name in statement['fromlist'] or ():
                full = f"{statement['module']}.{name}"
                first = entry['first_load']
                if first == full or first.startswith(full + '.'):
                    exclude = full
            found.append({
                'module': entry['module'], 'verdict': entry['verdict'],
                'changes': entry['changes'], 'exclude': exclude,
                'statement': _statement_summary(statement)})
        reads = _SourceReads()
        for record in statements:
            if (record['verdict'] != 'never used'
                    or record['module'] in loaded
                    or record.get('submodule_binding')
                    or _is_stdlib(record['module'])
                    or not (record['file'] or '').endswith('.py')
                    or os.path.basename(record['file']) == '__init__.py'):
                continue
            try:
                names = reads.unread(record)
            except Exception:
                names = None
            if not names:
                continue
            found.append({
                'module': record['module'], 'verdict': 'side effect not run',
                'changes': [['unread', 'no code of '
                             f"{record['importer']} reads "
                             + ', '.join(names)]],
                'exclude': record['module'],
                'statement': _statement_summary(record)})
        return found


# ---------------------------------------------------------------------------
# Late side effects (runs in the child interpreter of report and check)

_module_dict = None         # types.ModuleType.__dict__['__dict__'].__get__
_class_dict = type.__dict__['__dict__'].__get__
_CONTAINER_LEN = ((dict, dict.__len__), (list, list.__len__),
                  (set, set.__len__))


def _bound_values(namespace, keys):
    """(key, value) for the keys of namespace bound to a value, not to a
    lazy import (reading one would import it), skipping a key gone or
    whose read fails."""
    for key in keys:
        try:
            if _imp._is_lazy_import(namespace, key):
                continue
            value = namespace[key]
        except Exception:
            continue
        yield key, value


def _is_stdlib(name):
    return (name or '').partition('.')[0] in sys.stdlib_module_names


def _object_name(obj):
    """'module.qualname' of a function, method or class, the class of any
    other object; reads no attribute that the program computes."""
    kind = type(obj)
    if issubclass(kind, type):
        module = _class_dict(obj).get('__module__')
        qualname = type.__dict__['__qualname__'].__get__(obj)
        return (f'{module}.{qualname}' if isinstance(module, str)
                and module != 'builtins' else qualname)
    if kind.__name__ in ('function', 'builtin_function_or_method',
                         'method'):
        module = getattr(obj, '__module__', None)
        qualname = getattr(obj, '__qualname__', '?')
        return f'{module}.{qualname}' if module else qualname
    return f'{_object_name(kind)} instance'


def _filter_text(item):
    try:
        action, message, category, module, line = item
    except (TypeError, ValueError):
        return repr(type(item))
    text = f'{action} {_object_name(category)}'
    if message is not None:
        text += f' message={getattr(message, "pattern", message)!r}'
    if module is not None:
        text += f' module={getattr(module, "pattern", module)!r}'
    return text


class _LateEffects:
    """What a module loaded by a resolution changes outside itself.

    Around each module load made while a deferred import is being resolved
    (the body runs at the first use, not at the statement as eagerly), the
    process-wide registries, the names of the modules already loaded and
    the registries they hold (their dicts, lists and sets, and those of
    their classes that define __init_subclass__ or a register method) are
    compared; each change is charged to the innermost module load running
    then.  Only report and check install this; a program run without them
    pays nothing (contract rule 47).
    """

    def __init__(self):
        global _module_dict
        import _signal, atexit, codecs, types
        _module_dict = types.ModuleType.__dict__['__dict__'].__get__
        self._ncallbacks = atexit._ncallbacks
        self._getsignal = _signal.getsignal
        self._signals = sorted(_signal.valid_signals()
                               - {_signal.SIGKILL, _signal.SIGSTOP})
        self._signal_names = {
            getattr(_signal, name): name for name in dir(_signal)
            if name.startswith('SIG') and not name.startswith('SIG_')}
        self._module_type = types.ModuleType
        # The modules watched: those whose load has ended (the others'
        # bodies are still running), in that order.
        self._names, self._namespaces, self._lengths = [], [], []
        self._keys = {}             # module name -> its names, last seen
        self._getattr = set()       # modules with a __getattr__
        # Registries: for each of dict, list, set, the objects, and for
        # each its (module, label) and last length.
        self._containers = {kind: ([], [], []) for kind, _ in _CONTAINER_LEN}
        self._seen = set()          # ids of the registries watched
        self._registries_state = None
        self._loggers = None        # (loggerDict, len, loggers, handlers)
        self._valid = False         # the last state is the baseline
        self.registered = {'atexit': [], 'codecs': []}
        self.effects = {}           # module -> record
        self.printer = None         # called at each late side effect
        for name, module in list(sys.modules.items()):
            self._watch(name, module)
        # Who registers an exit handler or a codec search function is
        # named when the call goes through the module's function.
        for module, kind in ((atexit, 'atexit'), (codecs, 'codecs')):
            self._wrap(module, kind)

    def _wrap(self, module, kind):
        original = module.register
        registered = self.registered[kind]

        def register(*args, **kwargs):
            result = original(*args, **kwargs)
            if args:
                registered.append(args[0])
            return result

        register.__name__ = register.__qualname__ = original.__name__
        register.__doc__ = original.__doc__
        register.__wrapped__ = original
        module.register = register

    def _watch(self, name, module):
        """Start watching a module whose load has ended."""
        if (name in ('sys', '__main__') or name in self._keys
                or name.startswith('importlib')
                or not issubclass(type(module), self._module_type)):
            return
        try:
            namespace = _module_dict(module)
        except Exception:
            return
        if type(namespace) is not dict:
            return
        keys = tuple(namespace)
        self._names.append(name)
        self._namespaces.append(namespace)
        self._lengths.append(len(keys))
        self._keys[name] = keys
        if '__getattr__' in namespace:
            self._getattr.add(name)
        if _is_stdlib(name):
            return
        found = []
        for key, value in _bound_values(
                namespace, (key for key in keys if not key.startswith('__')
                            and 'cache' not in key.lower())):
            found.append((key, value))
            kind = type(value)
            if (issubclass(kind, type)
                    and _class_dict(value).get('__module__') == name):
                attributes = _class_dict(value)
                if '__init_subclass__' in attributes or any(
                        'regist' in attribute for attribute in attributes):
                    found += [(f'{key}.{attribute}', item) for attribute, item
                              in list(attributes.items())
                              if not attribute.startswith('__')
                              and 'cache' not in attribute.lower()]
        for label, value in found:
            for base, length in _CONTAINER_LEN:
                if issubclass(type(value), base):
                    if id(value) not in self._seen:
                        # Named where it was defined: the module holding
                        # it that was loaded first.
                        self._seen.add(id(value))
                        objects, labels, lengths = self._containers[base]
                        objects.append(value)
                        labels.append((name, label))
                        lengths.append(length(value))
                    break

    # -- state

    def _registries(self):
        state = {
            'sys.meta_path': list(sys.meta_path),
            'sys.path_hooks': list(sys.path_hooks),
            'sys.excepthook': sys.excepthook,
            'sys.unraisablehook': sys.unraisablehook,
            'atexit': (self._ncallbacks(), len(self.registered['atexit'])),
            'codecs': len(self.registered['codecs']),
        }
        warnings = sys.modules.get('warnings')
        filters = getattr(warnings, 'filters', None)
        state['warnings'] = list(filters) if type(filters) is list else []
        state['logging'] = self._logging()
        state['signal'] = [self._getsignal(n) for n in self._signals]
        copyreg = sys.modules.get('copyreg')
        table = getattr(copyreg, 'dispatch_table', None)
        state['copyreg'] = dict(table) if type(table) is dict else {}
        return state

    def _logging(self):
        """The handlers of the logging tree, NullHandler aside, as
        [(logger name, handler)]: read again when their number changes."""
        logging = sys.modules.get('logging')
        root = getattr(logging, 'root', None)
        manager = getattr(root, 'manager', None)
        logger_type = getattr(logging, 'Logger', None)
        if manager is None or not isinstance(logger_type, type):
            return []
        loggers = manager.loggerDict
        cached = self._loggers
        if cached is None or cached[0] is not loggers or cached[1] != len(
                loggers):
            found = [root] + [logger for logger in list(loggers.values())
                              if isinstance(logger, logger_type)]
            cached = self._loggers = (loggers, len(loggers), found, None,
                                      [])
        count = sum([len(logger.handlers) for logger in cached[2]])
        if count != cached[3]:
            null = getattr(logging, 'NullHandler', ())
            handlers = [(logger.name, handler) for logger in cached[2]
                        for handler in list(logger.handlers)
                        if not isinstance(handler, null)]
            cached = self._loggers = (*cached[:3], count, handlers)
        return cached[4]

    # -- comparing

    def _registry_changes(self, before, after):
        changes = []
        for kind in ('sys.meta_path', 'sys.path_hooks'):
            for item in after[kind]:
                if not any(item is other for other in before[kind]):
                    changes.append((kind, f'added {_object_name(item)}'))
            for item in before[kind]:
                if not any(item is other for other in after[kind]):
                    changes.append((kind, f'removed {_object_name(item)}'))
        for kind in ('sys.excepthook', 'sys.unraisablehook'):
            if after[kind] is not before[kind]:
                changes.append((kind, f'set to {_object_name(after[kind])}'))
        count = after['atexit'][0] - before['atexit'][0]
        named = self.registered['atexit'][before['atexit'][1]:
                                          after['atexit'][1]]
        # The standard library registers its own handlers when first
        # needed (weakref.finalize): not the program's doing.
        shown = [_object_name(f) for f in named]
        shown = [name for name in shown if not _is_stdlib(name)]
        if shown or count > len(named):
            text = ', '.join(shown) or f'{count - len(named)} exit handlers'
            changes.append(('atexit', f'registered {text}'))
        named = self.registered['codecs'][before['codecs']:after['codecs']]
        if named:
            changes.append(('codecs', 'registered search function '
                            + ', '.join(_object_name(f) for f in named)))
        for item in after['warnings']:
            if not any(item is other for other in before['warnings']):
                changes.append(('warnings', f'filter {_filter_text(item)}'))
        for logger, handler in after['logging']:
            if not any(handler is h and logger == name
                       for name, h in before['logging']):
                changes.append(('logging', f'handler '
                                f'{_object_name(type(handler))} on '
                                f'{logger or "root"}'))
        for number, handler, previous in zip(self._signals, after['signal'],
                                             before['signal']):
            if handler is not previous:
                what = (_object_name(handler) if callable(handler)
                        else repr(handler))
                name = self._signal_names.get(number, number)
                changes.append(('signal', f'{name}: {what}'))
        for cls, reducer in after['copyreg'].items():
            if before['copyreg'].get(cls) is not reducer:
                changes.append(('copyreg', f'reducer for {_object_name(cls)}'
                                f': {_object_name(reducer)}'))
        return changes

    def _namespace_changes(self, index, owner, ancestors):
        """Public names bound in another module's namespace since its
        names were last seen (a module that patches another: impute.Fancy
        = Fancy).  A submodule bound in its package, and a name a module's
        __getattr__ caches, are not the owner's doing.  Updates the names
        seen."""
        name = self._names[index]
        namespace = self._namespaces[index]
        old = set(self._keys[name])
        keys = self._keys[name] = tuple(namespace)
        if (name in ancestors or name in self._getattr or owner is None):
            return []
        added = []
        for key, value in _bound_values(
                namespace, (key for key in keys
                            if key not in old and not key.startswith('_'))):
            if not issubclass(type(value), self._module_type):
                added.append(key)
        return [('namespace', f'{name}: bound ' + ', '.join(added))
                ] if added else []

    def boundary(self, before, after, recorder, ended=None):
        """A module load starts or ends ('ended' names the module whose
        load ended): 'before' and 'after' are the thread's stack of events
        around it.  The changes since the last boundary are charged to the
        innermost load of 'before' when a resolution is below it."""
        active_before = any(e[0] == 'resolve' for e in before)
        active_after = any(e[0] == 'resolve' for e in after)
        if active_before or active_after:
            owner = statement = first = None
            if self._valid and active_before:
                owner, statement, first = self._owner(before)
            # While another module of the owner's top-level package is
            # being loaded, what the owner changes in that package is
            # part of the package's import, as eagerly: not late for
            # any code outside the package.
            top = (owner or '').partition('.')[0]
            inside = owner is not None and any(
                e[0] == 'load' and e[1] != owner
                and e[1].partition('.')[0] == top for e in before)
            changes = self._compare(owner, top if inside else None)
            if changes and self.printer is not None:
                self.printer(owner, changes, statement)
            if changes:
                entry = self.effects.setdefault(owner, {
                    'module': owner, 'verdict': 'late side effect',
                    'changes': [], 'statement_key': statement,
                    'first_load': first})
                for kind, text in changes:
                    if [kind, text] not in entry['changes']:
                        entry['changes'].append([kind, text])
            self._valid = active_after
        else:
            self._valid = False
        if ended is not None and ended in sys.modules:
            self._watch(ended, sys.modules[ended])

    @staticmethod
    def _owner(stack):
        """The innermost load of the stack if a resolution is below it,
        the key of the innermost such resolution, and the module that
        resolution loaded first; Nones otherwise."""
        loads = [i for i, e in enumerate(stack) if e[0] == 'load']
        resolves = [i for i, e in enumerate(stack) if e[0] == 'resolve']
        if not loads or not resolves or loads[-1] < resolves[0]:
            return None, None, None
        owner = stack[loads[-1]][1]
        if _is_stdlib(owner) or owner.startswith('importlib'):
            return None, None, None
        resolve = max(i for i in resolves if i < loads[-1])
        first = next((stack[i][1] for i in loads if i > resolve), owner)
        return owner, stack[resolve][1], first

    def _compare(self, owner, package=None):
        """Bring the state seen up to date; return what changed, if
        'owner' is to be charged with it, the names and registries of the
        top-level 'package' aside."""
        changes = []
        registries = self._registries()
        if owner is not None and self._registries_state is not None:
            changes += self._registry_changes(self._registries_state,
                                              registries)
        self._registries_state = registries
        ancestors = set()
        name = owner
        while name:
            ancestors.add(name)
            name = name.rpartition('.')[0]
        lengths = list(map(len, self._namespaces))
        if lengths != self._lengths:
            for index, (new, old) in enumerate(zip(lengths, self._lengths)):
                if new != old:
                    found = self._namespace_changes(index, owner, ancestors)
                    if self._names[index].partition('.')[0] != package:
                        changes += found
            self._lengths = lengths
        for base, length in _CONTAINER_LEN:
            objects, labels, old = self._containers[base]
            new = list(map(length, objects))
            if new == old:
                continue
            for (module, label), before, after in zip(labels, old, new):
                if (after > before and owner is not None and module != owner
                        and module.partition('.')[0] != package):
                    changes.append(('registry', f'{module}.{label}: '
                                    f'{after - before} added'))
            old[:] = new
        return changes


# ---------------------------------------------------------------------------
# Imports made for a side effect that never ran (at the end of the run)

_READ_OPS = frozenset({'LOAD_NAME', 'LOAD_GLOBAL', 'LOAD_FROM_DICT_OR_GLOBALS',
                       'LOAD_FROM_DICT_OR_DEREF'})


class _SourceReads:
    """The names a module's code reads, as contract rule 52 counts reads:
    global reads in the module and all the code nested in it (a ``del`` is
    no read), the names its annotations name, the words of its string
    constants (``__all__``, string annotations), and the names an ``import
    x as x`` re-exports."""

    def __init__(self):
        self._files = {}

    def _read(self, filename):
        found = self._files.get(filename)
        if found is not None:
            return found
        import ast, re
        found = None
        try:
            with open(filename, 'rb') as file:
                source = file.read()
            tree = compile(source, filename, 'exec', ast.PyCF_ONLY_AST)
            code = compile(tree, filename, 'exec', dont_inherit=True)
        except (OSError, SyntaxError, ValueError):
            self._files[filename] = found = (None, None, None)
            return found
        names, words = set(), set()
        stack = [code]
        while stack:
            current = stack.pop()
            stack += [c for c in current.co_consts if hasattr(c, 'co_code')]
            if not names.issuperset(current.co_names):
                for instruction in dis.get_instructions(current):
                    if instruction.opname in _READ_OPS:
                        names.add(instruction.argval)
        imports = []
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imports.append(node)
            elif isinstance(node, ast.Constant) and isinstance(node.value,
                                                               str):
                # __all__, string annotations, names in docstrings.
                words.update(re.findall(r'[A-Za-z_]\w*', node.value))
            # Annotations read names even where they are compiled to
            # strings (from __future__ import annotations).
            for annotation in (getattr(node, 'annotation', None),
                               getattr(node, 'returns', None)):
                if annotation is not None:
                    words.update(n.id for n in ast.walk(annotation)
                                 if isinstance(n, ast.Name))
        found = self._files[filename] = (names | words, imports, tree)
        return found

    def unread(self, record):
        """The names the deferred statement 'record' binds, if no code of
        its module reads any of them; otherwise None."""
        filename, line = record.get('file'), record.get('line')
        if not filename or not line:
            return None
        reads, imports, _ = self._read(filename)
        if reads is None:
            return None
        bound = None
        for node in imports:
            if not node.lineno <= line <= (node.end_lineno or node.lineno):
                continue
            bound = []
            for alias in node.names:
                if alias.asname is not None and alias.asname == alias.name:
                    return None         # import x as x: a re-export
                if alias.asname:
                    bound.append(alias.asname)
                elif type(node).__name__ == 'ImportFrom':
                    bound.append(alias.name)
                else:
                    bound.append(alias.name.partition('.')[0])
            break
        if not bound or '*' in bound or reads.intersection(bound):
            return None
        return bound


def _statement_summary(record):
    return {'text': _statement_text(record), 'module': record['module'],
            'fromlist': record['fromlist'], 'file': record['file'],
            'line': record['line'], 'importer': record['importer'],
            'verdict': record['verdict'], 'used_at': record['used_at']}


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


def _resolve_recorder_imports():
    """_eager_reason() reads bytecode and source lines while the program
    runs, and runpy runs it with pkgutil's help: resolve what they use
    now, or their imports would be charged to the program (and, watched,
    would run inside the recorder)."""
    import importlib, pkgutil, runpy
    for module in (dis, linecache, threading, time, os, runpy, pkgutil):
        importlib.resolve_lazy_imports(module)
    dis.get_instructions(_resolve_recorder_imports)
    linecache.getline(_THIS_FILE, 1)


_verify_watch = None    # the recorder of -X lazy_imports=verify, if started


def _watch_late_side_effects():
    """-X lazy_imports=verify: name each late side effect as it happens,
    as the verify command does.  The interpreter calls this at the first
    resolution of a deferred import after start-up: no deferred body has
    run before it (contract rule 44)."""
    global _verify_watch
    if _verify_watch is not None:
        return
    _resolve_recorder_imports()
    late = _LateEffects()
    recorder = _Recorder()
    late.printer = recorder.print_late_side_effect
    recorder.late = late
    recorder.wrap_find_and_load(sys.modules['_frozen_importlib'])
    _verify_watch = recorder
    _imp._set_lazy_observer(recorder.observe)


def _record_main(args):
    """Child side of report, check and verify: run the program, write a
    record (with --verify, print each late side effect instead)."""
    # Parsed by hand, and nothing imported that the recorder does not
    # need: what the recorder imports is loaded before the program runs.
    out = excluding = None
    effects_wanted, observe, verifying = False, True, False
    while args and args[0] != '--':
        option = args.pop(0)
        if option == '--out':
            out = args.pop(0)
        elif option == '--verify':
            # The verify command: no record, each late side effect
            # printed when it happens.
            verifying = True
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
    _resolve_recorder_imports()

    recorder = None
    effects = None
    if excluding is not None:
        importlib.set_lazy_imports(_imp._is_lazy_imports_enabled(),
                                   excluding=excluding)
    if verifying:
        # The child runs with -X lazy_imports=verify, which watches late
        # side effects itself once a deferred import is resolved.
        _watch_late_side_effects()
        recorder = _verify_watch
    elif observe:
        # Wrapped before check's recorder of registrations wraps the same
        # functions: it names who registered from the frames above its
        # wrapper.
        late = _LateEffects()
        if effects_wanted:
            from importlib._lazy_effects import Effects
            effects = Effects()
            effects.install()
        recorder = _Recorder()
        recorder.tracemalloc = tracemalloc
        tracemalloc.start()
        recorder.wrap_find_and_load(sys.modules['_frozen_importlib'])
        recorder.late = late
        _imp._set_lazy_observer(recorder.observe)
    elif effects_wanted:
        from importlib._lazy_effects import Effects
        effects = Effects()
        effects.install()

    status = 0

    def finish():
        if recorder is not None:
            _imp._set_lazy_observer(None)
        if out is None:
            return
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
    """file:line as a reader finds the file: from site-packages for an
    installed module, relative to the working directory inside it, else
    absolute."""
    if not file:
        return '?'
    marker = os.sep + 'site-packages' + os.sep
    index = file.rfind(marker)
    if index >= 0:
        return f'{file[index + 1:]}:{line}'
    try:
        relative = os.path.relpath(file)
    except ValueError:
        relative = file
    if not relative.startswith(os.pardir + os.sep):
        file = relative
    return f'{file}:{line}'


def _rule_of(cause):
    """The contract rule of an early completion, from its cause."""
    if 'had no attribute' in cause or 'imports its submodule' in cause:
        return 51
    if "which its package's imports may fill" in cause:
        return 52
    if 'subclasses of' in cause or 'missed a key' in cause:
        return 58
    return None


def _early(record):
    rule = _rule_of(record['early'])
    return record['early'] + (f' [rule {rule}]' if rule else '')


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
    effects = result.get('side_effects') or []
    late = [e for e in effects if e['verdict'] == 'late side effect']
    not_run = [e for e in effects if e['verdict'] == 'side effect not run']
    if effects:
        w(f'  {len(late)} late side effects, {len(not_run)} side effects '
          'not run: candidates for excluding\n')

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

    def effect(entry):
        statement = entry['statement']
        changes = '; '.join(f'{kind} {text}' if kind != 'unread' else text
                            for kind, text in entry['changes'])
        line = (f"{entry['module']}: {changes}  <- {statement['text']}  "
                f"({_location(statement['file'], statement['line'])})")
        if statement.get('used_at'):
            line += f' first used at {used(statement)}'
        return line + f"  [excluding {entry['exclude']!r}]"

    section('Late side effects: a deferred import\'s first use ran a module '
            'body that changed what others see; eagerly it ran at the '
            'statement', late, effect)
    section('Side effects not run: deferred, never used, and its importer '
            'never reads the name; eagerly its body ran at the statement',
            not_run, effect)
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
    from importlib import _lazy_defaults
    defaults = {}       # what applied -> [modules loaded, why]
    for record in eager_loads:
        if record['reason'] == 'shipped default':
            entry = _lazy_defaults.entry_for(record['importer'] or '')
            if entry is not None:
                defaults.setdefault(
                    f"{entry['package']}: its own imports ran eagerly",
                    [0, entry['reason'].split('.  ')[0] + '.'])[0] += 1
        elif record['reason'] == 'protoc-generated module':
            defaults.setdefault(
                'the modules protoc generated: their imports ran eagerly',
                [0, 'the descriptor pool needs the files they depend on '
                    'first.'])[0] += 1
    registry = [r for r in deferred
                if r.get('early') and _rule_of(r['early']) == 58]
    if registry:
        defaults['registries read short: the deferred imports that fill '
                 'them completed early'] = [
            len(registry), "a class's __subclasses__() or a dict's "
                           "__missing__ was read before they ran."]
    section('Kept eager by the defaults shipped with the interpreter '
            '(contract rule 58, importlib._lazy_defaults; '
            '-X lazy_imports_defaults=0 turns them off)',
            list(defaults.items()),
            lambda item: f'{item[0]} ({item[1][0]}); {item[1][1]}')
    section('Completed early by the fork (contract rules 51, 52 and 58): '
            'eager execution had run them, and something that happened '
            'needed them (the rule follows each cause)',
            by_cost([r for r in deferred if r.get('early')]),
            lambda r: f"{cost(r)}  {_statement_text(r)}  "
                      f"({_location(r['file'], r['line'])}): {_early(r)}")
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
    resolved, each failure printed with its statement (status 1).  Each
    late side effect (see report) is printed to stderr when it happens,
    with its statement; it does not change the status.

    Returns the program's exit status (128 + N when signal N ended it).
    """
    command = [sys.executable, *_child_flags(), '-X', 'lazy_imports=verify',
               '-m', 'importlib.lazy', '_record', '--verify', '--', *target]
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
                       '1; a late side effect is printed when it happens')):
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
