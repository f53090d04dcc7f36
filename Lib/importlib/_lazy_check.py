"""python -m importlib.lazy check: what -L changes in a program, and the fix.

The program runs in child interpreters, eagerly and with -L, both with
importlib._lazy_effects recording its import-time registrations.  The runs
are compared: exit status, stdout and stderr (trailing whitespace aside) and
the registrations.  Each difference is traced to deferred imports:

* a registration that the eager run made at the import of a module M and
  the -L run lacks is explained by the chain of imports, from the last
  module -L loaded down to M, that -L deferred and never ran (the eager
  run's load records say who imported whom);
* any other difference is narrowed down by delta debugging: -L runs with
  excluding= set to subsets of the modules that the eager run imported and
  -L did not (or imported only later), until a small set makes the runs
  agree or the run budget is spent.

The result is an importlib.set_lazy_imports(excluding=[...]) setting with a
reason for each entry, confirmed by one more -L run with that setting.
"""

import json
import os
import random
import sys
import tempfile
import time

from importlib import lazy as _lazy

__all__ = ['check']

_KINDS = {
    'atexit': 'atexit handler',
    'signal': 'signal handler',
    'codecs': 'codec search function',
    'copyreg': 'copyreg reducer',
    'warnings': 'warnings filter',
    'logging': 'logging',
    'abc': 'ABC registration',
    'subclass': 'subclass',
    'sys.excepthook': 'sys.excepthook',
    'sys.unraisablehook': 'sys.unraisablehook',
}


def _normalized(data):
    """Output text without trailing whitespace (per line and at the end):
    the only normalization; anything else that differs is a difference."""
    text = data.decode('utf-8', 'backslashreplace')
    return '\n'.join(line.rstrip() for line in text.splitlines()).rstrip()


def _is_stdlib(module):
    return module.partition('.')[0] in sys.stdlib_module_names


class _Run:
    """One run of the program in a child interpreter."""

    def __init__(self, target, *, lazy, excluding=None, observe=True,
                 env=None):
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, 'record.json')
            extra = ['--effects']
            if excluding is not None:
                extra += ['--excluding', ','.join(sorted(excluding))]
            if not observe:
                extra.append('--no-observe')
            process = _lazy._run_child(target, lazy=lazy, out=out,
                                       extra=extra, capture=True, env=env)
            try:
                with open(out, encoding='utf-8') as file:
                    record = json.load(file)
            except (OSError, ValueError):
                record = {}     # os._exit() or a crash: no record
        self.seconds = time.perf_counter() - started
        self.lazy = lazy
        self.excluding = excluding
        self.record = record
        self.status = process.returncode
        self.stdout = _normalized(process.stdout)
        self.stderr = _normalized(process.stderr)
        self.loaded = set(record.get('modules_loaded', ()))
        effects = record.get('effects') or {}
        self.at_install = set(effects.get('modules_at_install', ()))
        # (kind, what) -> (module, importing)
        self.registrations = {}
        for kind, entries in (effects.get('registrations') or {}).items():
            for what, module, importing in entries:
                self.registrations[kind, what] = (module, importing)

    def importers(self):
        """module -> the module whose code imported it (first load)."""
        importer_of = {}
        for load in self.record.get('loads', ()):
            importer_of.setdefault(load['module'], load.get('importer'))
        return importer_of


def _shortened(line, width=80):
    if len(line) > width:
        line = line[:width - 3] + '...'
    return repr(line)


def _first_difference(a, b):
    """The first line that differs, or for a traceback its last line (the
    exception), in each text."""
    lines_a, lines_b = a.splitlines(), b.splitlines()
    number = next((n for n, (x, y) in enumerate(zip(lines_a, lines_b))
                   if x != y), min(len(lines_a), len(lines_b)))

    def shown(lines):
        if number >= len(lines):
            return 'nothing'
        if lines[number].startswith('Traceback (most recent call last)'):
            # The exception line of the last traceback: the first line
            # after its header that is not an indented frame line.
            last = max(i for i, line in enumerate(lines)
                       if line.startswith('Traceback (most recent call'))
            for line in lines[last + 1:]:
                if line and not line.startswith(' '):
                    return f'{_shortened(line)} (traceback)'
        return _shortened(lines[number])

    return f'line {number + 1}: {shown(lines_a)} eagerly, {shown(lines_b)} '\
           'with -L'


def _counts(kind, what, module, this, other):
    """Whether a registration by 'module' in 'this' run, missing from the
    'other' run, is a difference: not when the standard library made it
    (numbers registering int), nor when 'other' had the module before its
    recorder was installed (what it registered then went unrecorded), nor
    a subclass missing from a registry that 'other' never created."""
    if module is not None and (_is_stdlib(module)
                               or module in other.at_install):
        return False
    if kind == 'subclass':
        base = what.partition(' <- ')[0]
        owners = [m for m in this.loaded if base.startswith(m + '.')]
        return bool(owners) and max(owners, key=len) in other.loaded
    return True


def _differences(eager, run):
    """What differs in 'run' (with -L) from the eager run, as dicts."""
    found = []
    if eager.status != run.status:
        found.append({'kind': 'exit status',
                      'detail': f'{eager.status} eagerly, {run.status} '
                                'with -L'})
    for stream in ('stdout', 'stderr'):
        mine, theirs = getattr(eager, stream), getattr(run, stream)
        if mine != theirs:
            found.append({'kind': stream,
                          'detail': _first_difference(mine, theirs)})
    for side, this, other in (('missing with -L', eager, run),
                              ('only with -L', run, eager)):
        for key in sorted(this.registrations.keys()
                          - other.registrations.keys()):
            module, importing = this.registrations[key]
            if _counts(*key, module, this, other):
                found.append({'kind': 'registration', 'side': side,
                              'effect': key[0], 'what': key[1],
                              'module': module, 'importing': importing})
    return found


def _describe(difference):
    if difference['kind'] != 'registration':
        return f"{difference['kind']} {difference['detail']}"
    by = difference['module'] or 'unknown code'
    if difference['importing']:
        by += f", importing {difference['importing']}"
    return (f"{_KINDS.get(difference['effect'], difference['effect'])} "
            f"{difference['what']} (by {by}): {difference['side']}")


class _Session:
    """The runs of one check, within a budget."""

    def __init__(self, target, max_runs):
        self.target = target
        self.max_runs = max_runs
        self.runs = 0
        self.exhausted = False
        self.results = {}       # frozenset(excluding) -> agrees
        # The runs must be comparable: one hash seed for all of them (the
        # iteration order of sets of strings depends on it).
        self.env = dict(os.environ)
        seed = self.env.get('PYTHONHASHSEED', 'random')
        if seed == 'random':
            self.env['PYTHONHASHSEED'] = str(random.randrange(1, 2**32))
        self.eager = None

    def run(self, *, lazy, excluding=None, observe=False):
        self.runs += 1
        return _Run(self.target, lazy=lazy, excluding=excluding,
                    observe=observe, env=self.env)

    def agrees(self, excluding):
        """Whether -L with this excluding= agrees with the eager run.  A
        run beyond the budget (one is kept for the confirmation) is not
        made: the answer is then no."""
        key = frozenset(excluding)
        if key in self.results:
            return self.results[key]
        if self.runs >= self.max_runs - 1:
            self.exhausted = True
            return False
        run = self.run(lazy=True, excluding=key)
        agrees = self.results[key] = not _differences(self.eager, run)
        return agrees


def _ddmin(items, passes):
    """A 1-minimal sublist of 'items' for which passes() is true, by delta
    debugging (Zeller and Hildebrandt's ddmin); passes(items) must be
    true.  When passes() stops being able to tell (no runs left), what
    passed last is returned."""
    items = list(items)
    granularity = 2
    while len(items) >= 2:
        size = -(-len(items) // granularity)
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        for chunk in chunks:
            if passes(chunk):
                items, granularity = chunk, 2
                break
        else:
            for chunk in chunks:
                complement = [i for i in items if i not in chunk]
                if len(chunks) > 2 and passes(complement):
                    items = complement
                    granularity = max(granularity - 1, 2)
                    break
            else:
                if granularity >= len(items):
                    break
                granularity = min(len(items), granularity * 2)
    return items


def _units(candidates, importer_of):
    """Group candidate modules by the eager import tree: each unit is a
    module whose importer is not a candidate (the deferred statement -L
    never ran) with the candidates it imported, directly or not."""
    units = {}
    for module in sorted(candidates):
        root, seen = module, set()
        while importer_of.get(root) in candidates and root not in seen:
            seen.add(root)
            root = importer_of[root]
        units.setdefault(root, set()).add(module)
    return units


def _narrow(session, fixed, tiers, importer_of):
    """A small set of modules that, excluded together with 'fixed', makes
    -L agree with the eager run; None if no tier does.  The tiers are
    tried in order, smallest first."""
    tried = set()
    for tier in tiers:
        tier = set(tier) - set(fixed)
        if not tier or frozenset(tier) in tried:
            continue
        tried.add(frozenset(tier))
        if not session.agrees(fixed | tier):
            continue
        # First whole subtrees of the eager import tree, then the modules
        # inside the ones kept, their roots kept.
        units = _units(tier, importer_of)
        roots = _ddmin(sorted(units),
                       lambda chosen: session.agrees(
                           fixed.union(*(units[r] for r in chosen))))
        members = set().union(*(units[r] for r in roots)) - set(roots)
        if members and not session.agrees(fixed | set(roots)):
            members = _ddmin(sorted(members),
                             lambda chosen: session.agrees(
                                 fixed | set(roots) | set(chosen)))
        else:
            members = []
        return set(roots) | set(members)
    return None


def _minimize(session, entries):
    """A 1-minimal subset of 'entries', an excluding= setting with which -L
    agrees with the eager run: no entry of it can be dropped and still
    agree.  Delta debugging first for a long setting, then each entry
    dropped in turn, until none can be.  Returns (kept, minimal); minimal
    is false when the run budget stopped it first (what is kept then
    agrees, but some of it may not be needed)."""
    kept = sorted(entries)
    if len(kept) > 8:
        kept = _ddmin(kept, lambda chosen: session.agrees(set(chosen)))
    shrunk = True
    while shrunk and len(kept) > 1 and not session.exhausted:
        shrunk = False
        for entry in kept:
            rest = [other for other in kept if other != entry]
            if session.agrees(set(rest)):
                kept, shrunk = rest, True
                break
            if session.exhausted:
                break
    return set(kept), len(kept) <= 1 or not session.exhausted


def _location(file, line, module):
    """file:line, relative to the working directory or, for a file outside
    it, to the sys.path entry of 'module' (the module the file is)."""
    where = _lazy._location(file, line)
    if where.startswith('..') and module:
        parts = os.path.normpath(file).split(os.sep)
        depth = module.count('.') + 1
        if parts[-1] == '__init__.py':
            depth += 1
        where = f"{'/'.join(parts[-depth:])}:{line}"
    return where


def _statements(run):
    """module -> [(file:line, verdict)] of the deferred statements of the
    -L run that import it."""
    found = {}
    for record in run.record.get('deferred', ()):
        names = [record['module']]
        names += [f"{record['module']}.{name}"
                  for name in record.get('fromlist') or ()]
        where = _location(record.get('file'), record.get('line'),
                          record.get('importer'))
        for name in names:
            found.setdefault(name, []).append((where, record['verdict']))
    return found


def _where(statements, module, eager):
    """Where -L deferred the imports of 'module' and what became of them;
    or, when -L never reached one, where the eager run imported it."""
    entries = sorted(set(statements.get(module, ())))
    if not entries:
        for load in eager.record.get('loads', ()):
            if load['module'] == module and load.get('file'):
                where = _location(load['file'], load['line'],
                                  load.get('importer'))
                return f'; imported at {where} (not reached with -L)'
        return ''
    shown = ', '.join(f'{where} ({verdict})' for where, verdict
                      in entries[:2])
    if len(entries) > 2:
        shown += f', +{len(entries) - 2}'
    return f'; deferred at {shown}'


def _chain(module, eager, lazy):
    """The modules from the last one -L loaded down to 'module' whose
    imports -L deferred and never ran, following the eager run's import
    tree; empty when -L loaded 'module'."""
    importer_of = eager.importers()
    chain = []
    while (module and module != '__main__' and module not in lazy.loaded
           and module not in chain):
        chain.append(module)
        module = importer_of.get(module)
    return chain[::-1]


def _candidates(run):
    """module -> reason, for the late side effects and the side effects
    that did not run in the -L run 'run' (importlib.lazy report's
    side_effects): modules a program relying on them at start-up would
    exclude."""
    found = {}
    for entry in run.record.get('side_effects', ()):
        statement = entry['statement']
        where = _location(statement['file'], statement['line'],
                          statement['importer'])
        changes = '; '.join(text if kind == 'unread' else f'{kind} {text}'
                            for kind, text in entry['changes'])
        if entry['module'] != entry['exclude']:
            changes = f"{entry['module']}: {changes}"
        found.setdefault(entry['exclude'], f"{entry['verdict']}: {changes}; "
                         f"deferred at {where} ({statement['verdict']})")
    return found


def _write_json(json_file, findings):
    if json_file:
        with open(json_file, 'w', encoding='utf-8') as file:
            json.dump(findings, file, indent=1)


def check(target, *, json_file=None, max_runs=80, stream=None):
    """Run the program eagerly and with -L, compare, and suggest and
    confirm an excluding= setting that makes them agree.

    'target' is [SCRIPT, ARGS...] or ['-m', MODULE, ARGS...].  At most
    'max_runs' runs of the program are made.  Returns 0 when the runs
    agree, 1 when they differ and a suggestion made them agree, 2 when no
    suggestion did.
    """
    stream = sys.stdout if stream is None else stream
    w = stream.write
    started = time.perf_counter()
    session = _Session(target, max(max_runs, 3))
    eager = session.eager = session.run(lazy=False, observe=True)
    lazy = session.run(lazy=True, observe=True)
    found = _differences(eager, lazy)
    findings = {
        'command': target,
        'eager': {'exit_status': eager.status, 'modules': len(eager.loaded),
                  'seconds': round(eager.seconds, 3)},
        'lazy': {'exit_status': lazy.status, 'modules': len(lazy.loaded),
                 'seconds': round(lazy.seconds, 3)},
        'differences': found, 'excluding': {}, 'confirmed': None,
        'minimal': None, 'remaining': [], 'candidates': _candidates(lazy),
    }
    w(f"Lazy imports check: {' '.join(target)}\n"
      f'  eager: exit status {eager.status}, {len(eager.loaded)} modules, '
      f'{eager.seconds:.2f} s;  -L: exit status {lazy.status}, '
      f'{len(lazy.loaded)} modules, {lazy.seconds:.2f} s\n')
    candidates = findings['candidates']
    if candidates:
        # Not differences in this run: what -L moved or left out that
        # another run, or code reading the registry first, may need.
        w(f'\nSide effects that -L runs late or not at all '
          f'({len(candidates)}): candidates for excluding if the program '
          'relies on them at start-up\n')
        for module, reason in sorted(candidates.items()):
            w(f'    {module!r},  # {reason}\n')
    if not found:
        w('  no difference: the program behaves the same with -L\n')
        findings.update(runs=session.runs, exit_status=0,
                        seconds=round(time.perf_counter() - started, 3))
        _write_json(json_file, findings)
        return 0

    w(f'\nDifferences with -L ({len(found)}):\n')
    for difference in found:
        w(f'  {_describe(difference)}\n')

    statements = _statements(lazy)
    excluding = {}          # module -> reason
    unexplained = []
    for difference in found:
        if (difference['kind'] != 'registration'
                or difference['side'] != 'missing with -L'):
            unexplained.append(difference)
            continue
        module, importing = difference['module'], difference['importing']
        registrar = (importing if importing and importing not in lazy.loaded
                     else module)
        chain = _chain(registrar, eager, lazy)
        if not chain:
            unexplained.append(difference)
            continue
        what = (f"{_KINDS.get(difference['effect'], difference['effect'])} "
                f"{difference['what']}")
        for before, after in zip(chain, chain[1:] + [None]):
            reason = (f'registers {what} at import' if after is None
                      else f'imports {after}, which registers {what}')
            excluding.setdefault(before, reason)

    confirm = None
    if excluding:
        # Often the registrations explain everything: confirm at once.
        confirm = session.run(lazy=True, excluding=set(excluding))
        session.results[frozenset(excluding)] = not _differences(eager,
                                                                 confirm)
    if unexplained and not (confirm and session.results[
            frozenset(excluding)]):
        only_eager = eager.loaded - lazy.loaded - {'__main__'}
        later = {load['module'] for load in lazy.record.get('loads', ())
                 if load.get('cause') == 'lazy'}
        never_used = {name for name, entries in statements.items()
                      if name in only_eager
                      and any(v == 'never used' for _, v in entries)}
        fixed = set(excluding)
        narrowed = _narrow(session, fixed,
                           [set(candidates), never_used,
                            only_eager | later],
                           eager.importers())
        if narrowed is None and not session.exhausted:
            # Nothing made the runs agree: does the program agree with
            # itself?
            again = session.run(lazy=False)
            unstable = _differences(eager, again)
            if unstable:
                w('\nTwo eager runs differ too, so check cannot tell what '
                  '-L changes:\n'
                  f"  {_describe(unstable[0]).replace('with -L', 'again')}"
                  '\n')
                findings.update(runs=session.runs, exit_status=2,
                                unstable=True, seconds=round(
                                    time.perf_counter() - started, 3))
                _write_json(json_file, findings)
                return 2
        if narrowed:
            for module in sorted(narrowed):
                excluding.setdefault(
                    module, candidates[module].rpartition('; deferred at ')[0]
                    if module in candidates
                    else 'found by narrowing down: -L '
                    + ('imports it later' if module in later
                       else 'never imports it'))
            confirm = session.run(lazy=True, excluding=set(excluding))

    confirmed = minimal = None
    if confirm is not None:
        remaining = _differences(eager, confirm)
        confirmed = not remaining
        findings['remaining'] = remaining
    if confirmed:
        kept, minimal = _minimize(session, excluding)
        excluding = {module: reason for module, reason in excluding.items()
                     if module in kept}
        findings['minimal'] = minimal
    for module in excluding:
        excluding[module] += _where(statements, module, eager)
    findings['excluding'] = excluding
    findings['confirmed'] = confirmed
    seconds = time.perf_counter() - started
    if excluding:
        w('\nSuggested setting, at the program\'s start (before its other '
          'imports):\n\n'
          '    importlib.set_lazy_imports(excluding=[\n')
        for module, reason in sorted(excluding.items()):
            w(f'        {module!r},  # {reason}\n')
        w('    ])\n\n')
        if confirmed:
            w(f'confirmed: with it, -L agrees with the eager run '
              f'({session.runs} runs, {seconds:.1f} s)\n')
            if minimal:
                w('1-minimal: without any one of its entries, the runs '
                  'differ\n')
            else:
                w('not shown to be 1-minimal: --max-runs reached while '
                  'dropping entries one at a time; some may not be '
                  'needed\n')
        else:
            budget = ', --max-runs reached' if session.exhausted else ''
            w(f'not confirmed: with it, {len(remaining)} differences '
              f'remain ({session.runs} runs, {seconds:.1f} s{budget}):\n')
            for difference in remaining:
                w(f'  {_describe(difference)}\n')
    else:
        w(f'\nNo excluding= setting found that makes the runs agree '
          f'({session.runs} runs, {seconds:.1f} s')
        w(', --max-runs reached)\n' if session.exhausted else ')\n')
    status = 1 if confirmed else 2
    findings.update(runs=session.runs, exit_status=status,
                    seconds=round(seconds, 3))
    _write_json(json_file, findings)
    return status
