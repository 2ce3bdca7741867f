# Tern: kernel-space SIIT/NAT64 translator.
#
#   make              build tern.ko (for the running kernel) and the tern CLI
#   make install      install both (module under /lib/modules/KREL/updates,
#                     CLI under PREFIX, default /usr/local; libxt_TERN.so
#                     where iptables looks for extensions); DESTDIR=/stage
#                     installs into a staging tree (no depmod then)
#   make uninstall    remove what make install installed (same KREL,
#                     PREFIX and DESTDIR)
#   make dkms-src     install the module's sources for DKMS in
#                     $(DESTDIR)/usr/src/tern-VERSION (then: dkms add tern/VERSION)
#   make dist         tern-VERSION.tar.gz (what rpm/tern.spec builds from)
#   make distcheck    unpack that tarball in a temporary directory, build,
#                     install and uninstall module (for KDIR) and CLI from it
#   make check        install test dependencies, run every test in VMs
#   make demo         boot a VM and show real traffic translated
#   make compare-jool randomized comparison with Jool 4.1.9 (installs it;
#                     COMPARE_PACKETS=50 for a smoke run, COMPARE_SEED=N)
#   make bench        Tern beside forwarding, Jool and Tayga in one VM (6.1),
#                     ~2 h on a quiet host (10M NAT64 sessions); table, plots in .build/bench/DATE/
#
# KREL/KDIR pick another kernel: make KREL=6.12.117+deb12-amd64
KREL ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KREL)/build
PREFIX ?= /usr/local
# The version of everything: configure, dkms.conf and rpm/tern.spec take it
# from there (the rules below write it into the last two).
TERN_VERSION := $(shell cat VERSION)

all: versions module cli

versions: dkms.conf rpm/tern.spec

dkms.conf: VERSION
	sed -i 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="$(TERN_VERSION)"/' $@

rpm/tern.spec: VERSION
	sed -i 's/^Version:.*/Version:        $(TERN_VERSION)/' $@

module:
	$(MAKE) -C mod KDIR=$(KDIR)

usr/configure: usr/configure.ac usr/Makefile.am usr/cli/Makefile.am \
		usr/xtables/Makefile.am
	cd usr && autoreconf -fi

# configure runs again when PREFIX changes: the units it makes name the
# CLI's path, so that `make install PREFIX=/usr` after `make` installs
# the CLI where they say.
.build/prefix: FORCE
	@mkdir -p .build
	@echo '$(PREFIX)' | cmp -s - $@ || echo '$(PREFIX)' >$@

usr/Makefile: usr/configure .build/prefix
	cd usr && ./configure --prefix=$(PREFIX)

cli: usr/Makefile
	$(MAKE) -C usr

# depmod only for the live system: a package's scripts run it on the target.
# The release modules_install installs for is KDIR's UTS_RELEASE (Debian's
# 6.1 headers say 6.1.192 in include/config/kernel.release).
MOD_KREL = $$(sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null | grep . || echo $(KREL))
install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR)/mod INSTALL_MOD_PATH=$(DESTDIR) \
		INSTALL_MOD_DIR=updates modules_install
	$(if $(DESTDIR),,depmod -a $(MOD_KREL))
	$(MAKE) -C usr install DESTDIR=$(DESTDIR)

# The module, whichever compression modules_install gave it.
uninstall: usr/Makefile
	rm -f $(DESTDIR)/lib/modules/$(MOD_KREL)/updates/tern.ko \
		$(DESTDIR)/lib/modules/$(MOD_KREL)/updates/tern.ko.*
	$(if $(DESTDIR),,depmod -a $(MOD_KREL))
	$(MAKE) -C usr uninstall DESTDIR=$(DESTDIR)

# What `dkms build` needs and nothing else: mod/ (not its KUnit suites),
# include/, VERSION, dkms.conf, Kbuild (for DKMS's clean step).
DKMS_SRC = $(DESTDIR)/usr/src/tern-$(TERN_VERSION)
dkms-src: versions
	install -d $(DKMS_SRC)
	install -m 644 VERSION dkms.conf Kbuild $(DKMS_SRC)/
	find mod include -path mod/tests -prune -o -type f \
		\( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) ! -name '*.mod.c' \
		-exec install -D -m 644 {} $(DKMS_SRC)/{} \;

# The tarball holds the files git tracks in these paths (from a checkout).
DIST_PATHS = Makefile Kbuild VERSION dkms.conf README.md COPYING mod include usr rpm systemd
DIST_NAME = tern-$(TERN_VERSION)
dist: versions
	@git rev-parse --git-dir >/dev/null 2>&1 || \
		{ echo "make dist: needs a git checkout (it packs the files git tracks)"; exit 1; }
	rm -rf .build/dist
	mkdir -p .build/dist/$(DIST_NAME)
	git ls-files -z -- $(DIST_PATHS) | \
		xargs -0 sh -c 'for f; do [ -e "$$f" ] && printf "%s\0" "$$f"; done' sh | \
		xargs -0 cp -p --parents -t .build/dist/$(DIST_NAME)
	tar -C .build/dist --sort=name --owner=0 --group=0 --numeric-owner \
		-czf $(DIST_NAME).tar.gz $(DIST_NAME)
	rm -rf .build/dist
	@echo "make dist: $(DIST_NAME).tar.gz"

distcheck: dist
	d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	tar -xzf $(DIST_NAME).tar.gz -C "$$d" && \
	$(MAKE) -C "$$d/$(DIST_NAME)" install KDIR=$(KDIR) DESTDIR="$$d/root" PREFIX=/usr && \
	$(MAKE) -C "$$d/$(DIST_NAME)" dkms-src DESTDIR="$$d/root" && \
	test -x "$$d/root/usr/bin/tern" && \
	ls "$$d"/root/lib/modules/*/updates/tern.ko* && \
	test -f "$$d/root/usr/src/$(DIST_NAME)/dkms.conf" && \
	rm -rf "$$d/root/usr/src" && \
	$(MAKE) -C "$$d/$(DIST_NAME)" uninstall KDIR=$(KDIR) DESTDIR="$$d/root" PREFIX=/usr && \
	left=$$(find "$$d/root" ! -type d) && \
	{ [ -z "$$left" ] || { echo "make uninstall left: $$left"; exit 1; }; } && \
	echo "make distcheck: $(DIST_NAME).tar.gz builds, installs and uninstalls"

check:
	bash test/check.sh

demo:
	bash test/demo.sh

compare-jool:
	bash test/compare/run.sh

bench:
	bash test/bench/bench.sh

clean:
	-$(MAKE) -C mod KDIR=$(KDIR) clean
	-[ -f usr/Makefile ] && $(MAKE) -C usr distclean
	rm -rf .build tern-*.tar.gz

.PHONY: all versions module cli install uninstall dkms-src dist distcheck check demo \
	compare-jool bench clean FORCE

FORCE:
