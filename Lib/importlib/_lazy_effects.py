"""Import-time registrations of a program, for ``importlib.lazy check``.

An :class:`Effects` object, installed when a program starts, wraps the
registration functions whose use at import time changes what the program
does later: exit handlers, signal handlers, codec search functions, pickle
reducers, warnings filters, logging handlers and levels, ABC registrations.
Each registration is recorded with what was registered and the module that
made it.  :meth:`Effects.snapshot`, called when the program ends, adds what
can only be read then (``sys.excepthook`` and the subclasses of classes with
an ``__init_subclass__`` hook) and keeps what is still in effect.

Comparing the snapshot of an eager run with that of a ``-L`` run shows the
registrations that a deferred, never used import left out.

The wrappers return what the wrapped functions return, raise what they
raise, and carry their names and documentation.  Recording never resolves a
lazy import: module namespaces are read with importlib.is_lazy_import().
"""

import functools
import importlib
import sys
import types

__all__ = ['Effects']

_SKIPPED_FILES = frozenset({
    __file__,
    '<frozen importlib._bootstrap>',
    '<frozen importlib._bootstrap_external>',
})

# The attribute getters of type itself: a metaclass cannot redefine them,
# and they run no code of the program.
_class_dict = type.__dict__['__dict__'].__get__
_class_mro = type.__dict__['__mro__'].__get__


def _name(obj):
    """'module.qualname' of a function, method or class; the type of any
    other object.  Reads no attribute that the program computes."""
    kind = type(obj)
    if issubclass(kind, functools.partial):
        return f'partial({_name(obj.func)})'
    if issubclass(kind, type):
        module = _class_dict(obj).get('__module__')
        if module and module != 'builtins':
            return f'{module}.{obj.__qualname__}'
        return obj.__qualname__
    if issubclass(kind, (types.FunctionType, types.BuiltinFunctionType,
                         types.MethodType)):
        module = getattr(obj, '__module__', None)
        return f'{module}.{obj.__qualname__}' if module else obj.__qualname__
    return f'{_name(kind)} instance'


def _filter_text(item):
    """A warnings filter as text: its action, category and conditions."""
    action, message, category, module, line = item
    text = f'{action} {_name(category)}'
    if message is not None:
        text += f' message={getattr(message, "pattern", message)!r}'
    if module is not None:
        text += f' module={getattr(module, "pattern", module)!r}'
    if line:
        text += f' line={line}'
    return text


def _in_family(name, family):
    return any(name == f or name.startswith(f + '.') for f in family)


class Effects:
    """Record a program's import-time registrations.

    Call :meth:`install` before the program runs and :meth:`snapshot` when
    it has ended.
    """

    def __init__(self):
        # (kind, what, module, importing, still_in_effect or None)
        self._records = []
        self._installed = []        # (owner, attribute, original)
        self._watched = {}          # module name -> installer
        self._hooks = {}
        self.modules_at_install = ()

    # -- who made a registration

    @staticmethod
    def _responsible(family=()):
        """The module that made the registration in progress and the
        module whose import it happens in, if that is another one.

        Frames of the import system, of this module, and of the wrapped
        API's own modules ('family': logging.config calling
        Logger.addHandler) are passed over.
        """
        frame = sys._getframe(1)
        module = importing = None
        found_module = False
        while frame is not None:
            code = frame.f_code
            name = frame.f_globals.get('__name__')
            if (code.co_filename in _SKIPPED_FILES
                    or (name and _in_family(name, family))):
                frame = frame.f_back
                continue
            if not found_module:
                module, found_module = name, True
            if code.co_name == '<module>':
                # The innermost module body running: the import that led
                # to this registration (none when it is the program's).
                if name != '__main__' and name != module:
                    importing = name
                break
            frame = frame.f_back
        return module, importing

    def _record(self, kind, what, family=(), still=None):
        module, importing = self._responsible(family)
        self._records.append((kind, what, module, importing, still))

    # -- wrapping

    def _wrap(self, owner, attribute, after):
        """Replace owner.attribute by a wrapper that calls the original,
        then after(result, *args, **kwargs) to record what it did."""
        original = getattr(owner, attribute)

        @functools.wraps(original)
        def wrapper(*args, **kwargs):
            result = original(*args, **kwargs)
            try:
                after(result, *args, **kwargs)
            except Exception:
                pass        # recording must never change the program
            return result

        setattr(owner, attribute, wrapper)
        self._installed.append((owner, attribute, original))

    def _wrap_warnings(self, warnings):
        effects = self

        def wrap(attribute):
            original = getattr(warnings, attribute)

            @functools.wraps(original)
            def wrapper(*args, **kwargs):
                before = list(warnings.filters)
                result = original(*args, **kwargs)
                try:
                    # The filter objects the call put in place; one that
                    # catch_warnings() discards later is no longer in
                    # effect at the end.
                    for item in warnings.filters:
                        if not any(item is old for old in before):
                            effects._record(
                                'warnings', _filter_text(item),
                                ('warnings',),
                                lambda item=item: any(
                                    f is item for f in warnings.filters))
                except Exception:
                    pass
                return result

            setattr(warnings, attribute, wrapper)
            self._installed.append((warnings, attribute, original))

        wrap('filterwarnings')
        wrap('simplefilter')

    def _wrap_logging(self, logging):
        family = ('logging',)
        record = self._record

        def add_handler(result, logger, handler):
            record('logging', f'handler {_name(type(handler))} on '
                              f'{logger.name}', family,
                   lambda: handler in logger.handlers)

        def set_level(result, logger, level):
            value = logger.level
            record('logging', f'level {logging.getLevelName(value)} of '
                              f'{logger.name}', family,
                   lambda: logger.level == value)

        def disable(result, level=logging.CRITICAL):
            value = logging.root.manager.disable
            record('logging', f'disable({logging.getLevelName(value)})',
                   family, lambda: logging.root.manager.disable == value)

        self._wrap(logging.Logger, 'addHandler', add_handler)
        self._wrap(logging.Logger, 'setLevel', set_level)
        self._wrap(logging, 'disable', disable)

        original = logging.basicConfig

        @functools.wraps(original)
        def basicConfig(**kwargs):
            before = list(logging.root.handlers)
            result = original(**kwargs)
            try:
                if logging.root.handlers != before:
                    record('logging',
                           f'basicConfig({", ".join(sorted(kwargs))})',
                           family)
            except Exception:
                pass
            return result

        logging.basicConfig = basicConfig
        self._installed.append((logging, 'basicConfig', original))

    def _wrap_logging_config(self, config):
        family = ('logging',)
        self._wrap(config, 'dictConfig',
                   lambda result, *args, **kwargs:
                   self._record('logging', 'dictConfig()', family))
        self._wrap(config, 'fileConfig',
                   lambda result, fname, *args, **kwargs:
                   self._record('logging', 'fileConfig('
                                f'{getattr(fname, "name", fname)!r})',
                                family))

    def _watch(self, name, installer):
        """Call installer(module) once module 'name' is imported."""
        module = sys.modules.get(name)
        spec = getattr(module, '__spec__', None)
        if module is not None and not getattr(spec, '_initializing', False):
            installer(module)
            return
        self._watched[name] = installer
        if len(self._watched) > 1:
            return
        # Imports go through importlib._bootstrap._find_and_load, lazy
        # resolutions included.
        bootstrap = sys.modules['_frozen_importlib']
        original = bootstrap._find_and_load
        watched = self._watched

        @functools.wraps(original)
        def _find_and_load(name, import_):
            module = original(name, import_)
            if name in watched:
                try:
                    watched.pop(name)(module)
                except Exception:
                    pass
            return module

        bootstrap._find_and_load = _find_and_load
        self._installed.append((bootstrap, '_find_and_load', original))

    # -- public interface

    def install(self):
        """Wrap the registration functions.  Call it before the program
        runs; what was registered earlier is not recorded."""
        import abc, atexit, codecs, copyreg, signal, warnings
        # Under -L the imports at the top of this module are lazy: resolve
        # them now, not while the program runs.
        importlib.resolve_lazy_imports(sys.modules[__name__])
        self.modules_at_install = sorted(sys.modules)
        record = self._record

        self._wrap(atexit, 'register', lambda result, func, *a, **k:
                   record('atexit', _name(func)))

        def signal_set(result, signalnum, handler):
            if handler is signal.SIG_DFL:
                return      # back to the default: nothing registered
            try:
                number = signal.Signals(signalnum).name
            except ValueError:
                number = str(signalnum)
            what = (f'{number}: {_name(handler)}' if callable(handler)
                    else f'{number}: {getattr(handler, "name", handler)}')
            record('signal', what, (),
                   lambda: signal.getsignal(signalnum) is handler)

        self._wrap(signal, 'signal', signal_set)
        self._wrap(codecs, 'register', lambda result, search:
                   record('codecs', _name(search)))

        def pickle(result, cls, reducer, *args, **kwargs):
            record('copyreg', f'{_name(cls)}: {_name(reducer)}', (),
                   lambda: copyreg.dispatch_table.get(cls) is reducer)

        self._wrap(copyreg, 'pickle', pickle)
        self._wrap_warnings(warnings)
        self._wrap(abc.ABCMeta, 'register', lambda result, cls, subclass:
                   record('abc', f'{_name(cls)} <- {_name(subclass)}',
                          ('abc', '_py_abc')))
        self._watch('logging', self._wrap_logging)
        self._watch('logging.config', self._wrap_logging_config)
        self._hooks = {'sys.excepthook': sys.excepthook,
                       'sys.unraisablehook': sys.unraisablehook}

    def uninstall(self):
        """Put the original functions back (before anything else wraps
        them: the import hook is importlib._bootstrap._find_and_load)."""
        while self._installed:
            owner, attribute, original = self._installed.pop()
            setattr(owner, attribute, original)
        self._watched.clear()

    def _subclass_registrations(self):
        """Direct subclasses of the classes whose __init_subclass__ hook
        comes from the program (not the standard library): the registries
        filled by defining a class.  The classes are those reachable from
        the namespaces of the modules loaded, lazy names left alone."""
        stdlib = sys.stdlib_module_names
        found = []
        seen = set()
        for module_name, module in list(sys.modules.items()):
            if module_name.partition('.')[0] in stdlib:
                continue
            try:
                namespace = object.__getattribute__(module, '__dict__')
            except (AttributeError, TypeError):
                continue
            if not isinstance(namespace, dict):
                continue
            for key in list(namespace):
                try:
                    if importlib.is_lazy_import(namespace, key):
                        continue
                    value = namespace[key]
                except Exception:
                    continue
                if not issubclass(type(value), type) or id(value) in seen:
                    continue
                seen.add(id(value))
                owner = next((klass for klass in _class_mro(value)
                              if '__init_subclass__' in _class_dict(klass)),
                             object)
                # Classes of C code (object among them) keep no __module__
                # in their namespace.
                owner_module = _class_dict(owner).get('__module__')
                if (not isinstance(owner_module, str)
                        or owner_module.partition('.')[0] in stdlib):
                    continue
                for subclass in type.__subclasses__(value):
                    found.append(('subclass',
                                  f'{_name(value)} <- {_name(subclass)}',
                                  _class_dict(subclass).get('__module__'),
                                  None))
        return found

    def snapshot(self):
        """What the program registered and is still in effect (JSON-able).

        Returns {'registrations': {kind: [[what, module, importing], ...]},
        'modules_at_install': [...]}: for each kind of registration, the
        sorted entries, each with the module that made it and, if another
        one, the module whose import it happened in; and the modules
        already loaded when install() ran (what they registered then was
        not recorded).
        """
        entries = []
        for kind, what, module, importing, still in list(self._records):
            try:
                if still is not None and not still():
                    continue
            except Exception:
                pass
            entries.append((kind, what, module, importing))
        current = {'sys.excepthook': sys.excepthook,
                   'sys.unraisablehook': sys.unraisablehook}
        for kind, hook in current.items():
            if hook is not self._hooks.get(kind, hook):
                # Who assigned it is not known: the module defining it.
                name = _name(hook).removesuffix(' instance')
                module = max((m for m in sys.modules
                              if name.startswith(m + '.')), key=len,
                             default=None)
                entries.append((kind, _name(hook), module, None))
        try:
            entries.extend(self._subclass_registrations())
        except Exception:
            pass
        result = {}
        for kind, what, module, importing in sorted(
                set(entries), key=lambda e: (e[0], e[1], e[2] or '',
                                             e[3] or '')):
            result.setdefault(kind, []).append([what, module, importing])
        return {'registrations': result,
                'modules_at_install': list(self.modules_at_install)}
