# rxe-cc: congestion control for SoftRoCE (rxe).
#
#   make            userspace tools + patched rdma_rxe.ko for the test kernel
#   make test       every test: unit tests, build checks, VM selftests
#   make demo       the main job: boot the test VM and run the demo
#   make eval       the evaluation suite (scripts/eval.list), build/eval/index.html
#   make help       all targets

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD := $(TOP)/build
KDIR ?=
T ?=
EVAL ?=
TESTBED ?= um

.PHONY: all help deps user kernel module patches checkpatch test test-debug test-distro unit \
	selftest bench demo eval vm-shell um-shell deb clean

all: user module

help:
	@echo "targets:"
	@echo "  all         user + module (default)"
	@echo "  deps        install the Debian packages the project needs"
	@echo "  user        build the C++ tools and unit tests (build/user)"
	@echo "  kernel      build or reuse the cached test kernel"
	@echo "  module      build the patched rdma_rxe.ko (KDIR=... for another kernel tree)"
	@echo "  patches     emit the change as a git format-patch series (build/patches)"
	@echo "  checkpatch  patches + checkpatch.pl --strict on every patch"
	@echo "  unit        userspace unit tests only (CTest)"
	@echo "  selftest    selftests only, on User-Mode Linux (TESTBED=qemu: the QEMU VM);"
	@echo "              T='netns_basic ...' picks tests"
	@echo "  test        everything; ends with 'N passed, N failed'"
	@echo "  test-debug  the selftests on the debug kernel (UML: lockdep, KASAN, UBSAN,"
	@echo "              kmemleak); T='...' picks tests"
	@echo "  test-distro the packages on Debian's own 6.12 kernel under QEMU: DKMS build,"
	@echo "              modprobe, netns_basic cc_netlink cc_dcqcn_cnp (T='...' picks tests)"
	@echo "  bench       stock vs patched rxe throughput in one VM boot"
	@echo "              (scripts/bench traffic|scale: rxecc-traffic; 1000 QPs per device,"
	@echo "              memory and CPU with CC on; scripts/bench --help)"
	@echo "  demo        boot the test VM, run the demo, write plots (build/demo)"
	@echo "  eval        every algorithm x scenario of scripts/eval.list, short flows"
	@echo "              (EVAL='--full' for 8 s flows); build/eval/index.html"
	@echo "  vm-shell    interactive shell in the test VM"
	@echo "  um-shell    interactive shell in the User-Mode Linux test kernel"
	@echo "  deb         Debian packages rxe-cc-dkms and rxe-cc-tools, lintian-checked"
	@echo "              (build/deb; packaging/README.md)"
	@echo "  clean       remove build/ (the kernel cache in ~/.cache/rxe-cc stays)"
	@echo "variables: KDIR=<kernel build tree>, RXECC_DEBUG=1 (debug test kernel),"
	@echo "           TESTBED=um|qemu (make selftest), RXECC_ARCH=um (make kernel, module),"
	@echo "           RXECC_TESTBED=qemu (make test: every selftest on QEMU),"
	@echo "           EVAL='scripts/eval options'"

deps:
	@scripts/install-deps

user: deps
	@scripts/user-build $(BUILD)/user

kernel: deps
	@scripts/kernel-build

module: deps
	@scripts/module-build $(KDIR)

patches: deps
	@scripts/patches

checkpatch: deps
	@scripts/patches --check

unit: user
	@ctest --test-dir $(BUILD)/user --output-on-failure

# the selftests' own variables, passed into the VM (cc_nlfuzz's replay)
SELFTEST_ENV := $(foreach v,RXECC_NLFUZZ_SEED RXECC_NLFUZZ_REQUESTS,$(if $($(v)),$(v)=$($(v))))

selftest: user
ifeq ($(TESTBED),qemu)
	@scripts/module-build $(KDIR) >/dev/null
	@scripts/vm-run --fabric-nics 12 --timeout 4200 --out $(BUILD)/selftest -- \
		env $(SELFTEST_ENV) selftests/rxe_cc/run.sh $(T)
else ifeq ($(TESTBED),um)
	@RXECC_ARCH=um scripts/module-build >/dev/null
	@scripts/um-run --fabric-nics 12 --timeout 4200 --out $(BUILD)/selftest-um -- \
		env $(SELFTEST_ENV) selftests/rxe_cc/run.sh $(T)
else
	$(error TESTBED must be um or qemu, not '$(TESTBED)')
endif

test:
	@scripts/test

test-debug:
	@scripts/test-debug $(T)

test-distro:
	@scripts/test-distro $(T)

bench: user module
	@scripts/bench

demo: user module
	@scripts/demo

eval: user module
	@scripts/eval $(EVAL)

vm-shell: module
	@scripts/vm-run --shell

um-shell: deps
	@RXECC_ARCH=um scripts/module-build >/dev/null
	@scripts/um-run --shell

deb: deps
	@scripts/deb-build

clean:
	rm -rf $(BUILD)
