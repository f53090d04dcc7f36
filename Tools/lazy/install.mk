# Shipping the fork: make install, make dist, make check-dist, make bundle,
# and the optimized builds make bench-startup OPTIMIZE=1 compares.
#
# make install and make dist build the committed state of the repository
# (RELEASE_SRC, by default a tree made from the commit their revision names
# by Tools/lazy/debug-src.sh; $(SRC) in an export without .git), each in a
# build directory of its own: configure bakes the prefix into the
# interpreter and sysconfig.
#
#   PREFIX     where make install installs (default /usr/local); DESTDIR is
#              prepended to it, as for CPython's own make install
#   OPTIMIZE=1 configure with --enable-optimizations --with-lto (PGO + LTO,
#              as distributions build CPython; the profile run takes a
#              while) in separate build directories (suffix -opt)
#   REVISION   the patch-set revision named in sys.version and in the
#              tarball's name; git describe of HEAD unless given (needed
#              when building from an export without .git)
#   DIST_PREFIX the placeholder prefix the relocatable tree is configured
#              with (embedders that find no prefix fall back to it)

PREFIX      ?= /usr/local
DESTDIR     ?=
OPTIMIZE    ?=
DIST_PREFIX ?= /opt/lazy-cpython
OPT_SUFFIX  := $(if $(OPTIMIZE),-opt)
OPT_FLAGS   := $(if $(OPTIMIZE),--enable-optimizations --with-lto)
RELEASE     := $(BUILD)/release$(OPT_SUFFIX)
DIST_BUILD  := $(BUILD)/dist-build$(OPT_SUFFIX)
DIST        := $(BUILD)/dist$(OPT_SUFFIX)
RELEASE_SNAP := $(BUILD)/src-release

# One commit and one revision for the whole make run, so that a commit
# landing meanwhile cannot give a tree of one commit the name of another.
# In an export of the repository without .git there is no commit: the
# release is built from $(SRC) (make src) and REVISION must be given.
RELEASE_COMMIT := $(shell [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = \
	"$$(pwd -P)" ] && git rev-parse -q --verify HEAD)
RELEASE_SRC ?= $(if $(RELEASE_COMMIT),$(RELEASE_SNAP),$(SRC))
ifeq ($(origin REVISION),undefined)
REVISION := $(if $(RELEASE_COMMIT),$(shell sh $(T)/revision.sh $(RELEASE_COMMIT)))
endif
export REVISION

.PHONY: install dist check-dist bundle release-src fork-opt vanilla-opt

release-src:
	@if [ -z "$(REVISION)" ]; then \
		echo "install: no git repository here: give the revision, e.g. REVISION=1.0" >&2; \
		exit 1; fi
	@if [ "$(RELEASE_SRC)" = "$(RELEASE_SNAP)" ]; then \
		sh $(T)/debug-src.sh $(RELEASE_SNAP) $(RELEASE_COMMIT); \
	elif [ "$(RELEASE_SRC)" = "$(SRC)" ]; then \
		[ -d $(SRC)/.git ] || sh $(T)/src.sh $(SRC); sh $(T)/link.sh $(SRC); fi

install: deps release-src  ## build for PREFIX (OPTIMIZE=1: PGO+LTO), install into $(DESTDIR)$(PREFIX)
	@sh $(T)/build.sh $(RELEASE_SRC) $(RELEASE) --prefix=$(PREFIX) $(OPT_FLAGS)
	@sh $(T)/install.sh $(RELEASE) $(DESTDIR)

dist: deps release-src  ## relocatable tarball $(DIST)/lazy-cpython-<version>-<rev>-<arch>.tar.xz
	@sh $(T)/build.sh $(RELEASE_SRC) $(DIST_BUILD) --prefix=$(DIST_PREFIX) $(OPT_FLAGS)
	@sh $(T)/dist.sh $(DIST_BUILD) $(DIST)

check-dist: dist  ## unpack the tarball in two directories; -L, venv, pip, sysconfig from each
	@sh $(T)/check-dist.sh $(DIST)/$$(sh $(T)/lib.sh dist-name).tar.xz

bundle: release-src  ## the whole change as one patch, $(BUILD)/dist/lazy-cpython-<version>.patch
	@sh $(T)/bundle.sh make $(RELEASE_SRC) $(BUILD)/dist

# The fork and vanilla built as make install OPTIMIZE=1 builds them, from
# the trees make build and make vanilla use (for make bench-startup OPTIMIZE=1).
fork-opt: deps src  ## the fork built with PGO+LTO, $(BUILD)/fork-opt (make bench-startup OPTIMIZE=1)
	@sh $(T)/link.sh $(SRC)
	@sh $(T)/build.sh $(SRC) $(BUILD)/fork-opt --enable-optimizations --with-lto

vanilla-opt: deps $(PRISTINE)/configure  ## vanilla built with PGO+LTO, $(BUILD)/vanilla-opt
	@sh $(T)/build.sh $(PRISTINE) $(BUILD)/vanilla-opt --enable-optimizations --with-lto
