# Tern: kernel-space SIIT/NAT64 translator.
#
#   make              build tern.ko (for the running kernel) and the tern CLI
#   make install      install both (module under /lib/modules/KREL/updates;
#                     libxt_TERN.so where iptables looks for extensions)
#   make check        install test dependencies, run every test in VMs
#   make demo         boot a VM and show real traffic translated
#   make compare-jool randomized comparison with Jool 4.1.9 (installs it;
#                     COMPARE_PACKETS=50 for a smoke run, COMPARE_SEED=N)
#   make bench        Tern beside forwarding, Jool and Tayga in one VM (6.1),
#                     ~65-90 min on a quiet host; table, plots in .build/bench/DATE/
#
# KREL/KDIR pick another kernel: make KREL=6.12.117+deb12-amd64
KREL ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KREL)/build
PREFIX ?= /usr/local

all: module cli

module:
	$(MAKE) -C mod KDIR=$(KDIR)

usr/configure: usr/configure.ac usr/Makefile.am usr/cli/Makefile.am \
		usr/xtables/Makefile.am
	cd usr && autoreconf -fi

usr/Makefile: usr/configure
	cd usr && ./configure --prefix=$(PREFIX)

cli: usr/Makefile
	$(MAKE) -C usr

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR)/mod INSTALL_MOD_DIR=updates modules_install
	depmod -a $(KREL)
	$(MAKE) -C usr install

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
	rm -rf .build

.PHONY: all module cli install check demo compare-jool bench clean
