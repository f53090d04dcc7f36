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
#
# Plain POSIX sh: the drivers run under dash as well as bash.  Functions
# keep their variables in names starting with an underscore and their own
# name, as sh has no local variables.

tools=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$tools/../.." && pwd)
prog=$(basename "$0" .sh)
. "$top/UPSTREAM"

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
