# What the shell drivers of Tools/lazy share.  A driver sources it first:
#
#     . "$(dirname "$0")/lib.sh"
#
# and then has
#
#   top, tools      the repository's root and Tools/lazy, absolute
#   prog            the driver's name for its messages (build.sh: "build")
#   VERSION, TARBALL, SHA256, ...   the upstream release, from UPSTREAM
#
#   clean_env       unset the variables listed in clean-env.txt (each can
#                   change what a test expects or what a run measures)
#   say MSG...      "prog: MSG" on stdout; warn MSG... the same on stderr;
#   die MSG...      warn, then exit 1
#   step TITLE...   the title of one step of a long run (make test)
#
#   unpack_upstream DEST       the pristine tarball (fetch.sh) into DEST
#   init_queue DIR             DIR, an unpacked tree, as a git repository
#                              whose one commit is tagged "upstream"
#   apply_series DIR QUEUE     commit every patch of QUEUE/series in DIR
#   make_venv PYTHON DIR REQUIREMENTS [PIP-OPTION...]
#                              a venv of PYTHON with REQUIREMENTS installed,
#                              kept while DIR/.ok is newer than REQUIREMENTS
#   own_files                  the fork's own files at CPython paths (those
#                              under OWN_DIRS), one a line
#   dist_name                  lazy-cpython-<version>-<revision>-<machine>,
#                              the name of make dist's tarball and its top
#                              directory
#   testsubdirs                the TESTSUBDIRS lines of Makefile.pre.in for
#                              the fork's test directories
#   install_check OBJDIR       make test's install step (see below)
#
# Run as a command, lib.sh runs one of them for the Makefile and the
# patches' instructions:
#
#     sh Tools/lazy/lib.sh venv PYTHON DIR REQUIREMENTS [PIP-OPTION...]
#     sh Tools/lazy/lib.sh own-files | dist-name | testsubdirs
#     sh Tools/lazy/lib.sh install-check OBJDIR
#
# Plain POSIX sh: the drivers run under dash as well as bash.  Functions
# keep their variables in names starting with an underscore and their own
# name, as sh has no local variables.

tools=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$tools/../.." && pwd)
prog=$(basename "$0" .sh)
. "$top/UPSTREAM"

# Where the fork's own files live: the top directories of CPython that
# hold one (own_files, debug-src.sh).
OWN_DIRS="Objects Include Python Modules Lib Doc InternalDocs Misc Parser Programs PC"

clean_env() {
    for _clean_env_name in $(sed 's/#.*//' "$tools/clean-env.txt"); do
        unset "$_clean_env_name"
    done
}

say() { echo "$prog: $*"; }
warn() { echo "$prog: $*" >&2; }
die() { warn "$@"; exit 1; }
step() { printf '\n=== %s\n' "$*"; }

unpack_upstream() {
    sh "$tools/fetch.sh" >/dev/null || exit 1
    mkdir -p "$1"
    tar -xf "$top/build/$TARBALL" -C "$1" --strip-components=1
}

# The patch-queue trees (src.sh, debug-src.sh) are git repositories whose
# commits have fixed identities and dates, so that the same tarball and the
# same patches always give the same commits.
queue_git() {
    _queue_git_dir=$1
    shift
    GIT_AUTHOR_NAME=upstream GIT_AUTHOR_EMAIL=upstream@invalid \
        GIT_COMMITTER_NAME=lazy-cpython GIT_COMMITTER_EMAIL=lazy-cpython@invalid \
        GIT_AUTHOR_DATE='2000-01-01T00:00:00Z' GIT_COMMITTER_DATE='2000-01-01T00:00:00Z' \
        git -C "$_queue_git_dir" -c core.autocrlf=false \
        -c core.whitespace=-trailing-space "$@"
}

init_queue() {
    _init_queue_dir=$1
    queue_git "$_init_queue_dir" init -q -b main
    # Upstream's .gitignore would hide some pristine files; track them all.
    queue_git "$_init_queue_dir" add -A -f .
    queue_git "$_init_queue_dir" commit -q -m "upstream: CPython $VERSION ($TARBALL)"
    queue_git "$_init_queue_dir" tag upstream
    echo '__pycache__/' >>"$_init_queue_dir/.git/info/exclude"
}

# git am allows no fuzz: a patch that does not apply exactly stops here.
apply_series() {
    _apply_series_dir=$1 _apply_series_queue=$2
    grep -v '^[[:space:]]*\(#\|$\)' "$_apply_series_queue/series" |
        while read -r _apply_series_patch; do
            if ! queue_git "$_apply_series_dir" am -q --whitespace=nowarn --keep-cr \
                    "$_apply_series_queue/$_apply_series_patch"; then
                queue_git "$_apply_series_dir" am --abort 2>/dev/null || true
                warn "patch $_apply_series_patch does not apply; fix it (no fuzz is allowed)"
                exit 1
            fi
        done
}

make_venv() {
    _make_venv_py=$1 _make_venv_dir=$2 _make_venv_req=$3
    shift 3
    if [ -f "$_make_venv_dir/.ok" ] && [ ! "$_make_venv_req" -nt "$_make_venv_dir/.ok" ]; then
        return 0
    fi
    say "creating $_make_venv_dir from $_make_venv_py"
    rm -rf "$_make_venv_dir"
    if ! "$_make_venv_py" -m venv "$_make_venv_dir" ||
        ! "$_make_venv_dir/bin/python" -m pip install --quiet \
            --disable-pip-version-check "$@" -r "$_make_venv_req"; then
        warn "installing $_make_venv_req into $_make_venv_dir failed (PyPI must be reachable)"
        return 1
    fi
    touch "$_make_venv_dir/.ok"
    say "$_make_venv_dir ready"
}

own_files() {
    # shellcheck disable=SC2086
    if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = \
            "$(cd "$top" && pwd -P)" ]; then
        (cd "$top" &&
            git ls-files --cached --others --exclude-standard -- $OWN_DIRS)
    else
        # An export without .git (make install REVISION=...): every file but
        # byte-code caches.
        (cd "$top" && find $OWN_DIRS -type f ! -path '*/__pycache__/*' 2>/dev/null |
            LC_ALL=C sort)
    fi | while read -r _own_files_f; do
        if [ -f "$top/$_own_files_f" ]; then echo "$_own_files_f"; fi
    done
}

dist_name() {
    echo "lazy-cpython-$VERSION-$(sh "$tools/revision.sh")-$(uname -m)"
}

# Every directory under Lib/test/test_lazy_imports but __pycache__, as the
# patch "build: install the lazy import tests" lists them: regenerate that
# hunk with it after adding or removing a directory (test_tools checks the
# list).
testsubdirs() {
    (cd "$top/Lib" &&
        find test/test_lazy_imports -type d ! -name __pycache__ \
            ! -path '*/__pycache__/*' |
        LC_ALL=C sort | sed 's/^/\t\t/; s/$/ \\/')
}

# make test's install step: CPython's make install of a build of the fork
# (install.sh) into the prefix that build.sh configured it with,
# OBJDIR/install, emptied first, then the smoke check run by the installed
# interpreter from there (smoke.py: layout, sys.version and platform,
# sysconfig, -L, a venv installing a stock cp313 wheel, pip3).
install_check() {
    _install_check_obj=$(realpath "$1")
    _install_check_prefix=$(sed -n 's/^prefix=[[:space:]]*//p' \
        "$_install_check_obj/Makefile")
    if [ "$_install_check_prefix" != "$_install_check_obj/install" ]; then
        die "$_install_check_obj is configured for" \
            "$_install_check_prefix, not $_install_check_obj/install"
    fi
    rm -rf "$_install_check_prefix"
    sh "$tools/install.sh" "$_install_check_obj" &&
        "$_install_check_prefix/bin/python3" -I "$tools/smoke.py" "$_install_check_prefix"
}

if [ "$(basename "$0")" = lib.sh ] && [ $# -gt 0 ]; then
    set -eu
    _lib_command=$1
    shift
    case $_lib_command in
        venv) clean_env; make_venv "$@" ;;
        own-files) own_files ;;
        dist-name) dist_name ;;
        testsubdirs) testsubdirs ;;
        install-check) install_check "$@" ;;
        *) die "unknown command $_lib_command (venv, own-files," \
                "dist-name, testsubdirs, install-check)" ;;
    esac
fi
