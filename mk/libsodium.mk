# SPDX-License-Identifier: MIT
# mk/libsodium.mk: libsodium built from its release source for the targets
# that have no system libsodium to link (mk/apple.mk: iOS; mk/musl.mk: musl),
# one static archive per target, cached under build/libsodium/.
#
# The source: Debian's orig tarball of libsodium 1.0.18, which is the tree
# of upstream's git tag 1.0.18 (no generated configure script), fetched from
# deb.debian.org and checked against its SHA-256 before anything is built
# from it. configure is not run: it would have to link and run test
# programs for the target, which an iOS cross build cannot do here. Each
# target instead gets the settings configure finds on that system
# (LIBSODIUM_DEFINES_<target>: every one is a fact of that C library, e.g.
# Darwin has memset_s and no explicit_bzero, musl has getrandom and
# explicit_bzero), compiles the portable sources of upstream's
# src/libsodium/Makefile.am (LIBSODIUM_SOURCES: all of the full, not
# --enable-minimal, library) that the links use (LIBSODIUM_LINKED, below),
# with the flags upstream's configure adds (LIBSODIUM_CFLAGS). A target's
# extra sources (x86-64's SSE/AVX implementations, chosen at run time by
# libsodium's CPU detection) come with the flags Makefile.am gives them.
#
#   $(call libsodium_archive,TARGET)   the archive's path, a prerequisite
#   $(LIBSODIUM_INCLUDE)               its headers (sodium.h, sodium/*.h with
#                                      the generated version.h)
#
# Why not upstream's own build.zig (tried for issue 29 on 2026-12-06):
# the release that has one and that this machine can fetch is
# 1.0.20-stable, as PyNaCl 1.6.0's sdist vendors it, and its build.zig
#   - needs Zig 0.15 (the Zig pinned for Apple, 0.17.1, cannot run it): a
#     second 45 MB toolchain, and the libsodium builds took 1m55s where
#     these rules take 1m24s;
#   - has no iOS case: built for aarch64-ios it finds no mmap, mprotect or
#     mlock, so sodium_malloc is malloc and sodium_free does not wipe (the
#     library's secrets rely on both); only building it as macOS code and
#     re-stamping the objects works;
#   - has no option for -fstack-protector, which these rules pass (as
#     upstream's configure does): the bundled libsodium would lose it on
#     every target;
#   - enables the SSE/AVX implementations on x86-64 only: 32-bit x86
#     Android would hash a passcode 5 times slower.
# A bundled crypto library losing a hardening flag is not a trade to make
# for a shorter build file; these rules stay until upstream's build.zig
# covers iOS and the stack protector.
#
# A target's mk file includes this one, sets libsodium_cc_<T>,
# libsodium_cflags_<T>, LIBSODIUM_DEFINES_<T>, libsodium_ar_<T> and,
# optionally, libsodium_groups_<T> (the x86-64 groups below), then calls
# $(eval $(call libsodium_rules,T)).

ifndef LIBSODIUM_MK
LIBSODIUM_MK := 1

LIBSODIUM_VERSION := 1.0.18
LIBSODIUM_URL     := http://deb.debian.org/debian/pool/main/libs/libsodium/libsodium_$(LIBSODIUM_VERSION).orig.tar.gz
LIBSODIUM_SHA256  := d59323c6b712a1519a5daf710b68f5e7fde57040845ffec53850911f10a5d4f4
LIBSODIUM_DIR     := $(BUILD)/libsodium
LIBSODIUM_TARBALL := $(LIBSODIUM_DIR)/libsodium_$(LIBSODIUM_VERSION).orig.tar.gz
LIBSODIUM_SRC     := $(LIBSODIUM_DIR)/libsodium-$(LIBSODIUM_VERSION)/src/libsodium
LIBSODIUM_INCLUDE := $(LIBSODIUM_SRC)/include
# The source tree is ready (unpacked, version.h generated).
LIBSODIUM_READY   := $(LIBSODIUM_DIR)/libsodium-$(LIBSODIUM_VERSION)/.ready

# upstream's Makefile.am: libsodium_la_SOURCES (with HAVE_TI_MODE's headers
# only, and the portable salsa20 of !HAVE_AMD64_ASM), its !MINIMAL
# additions, and the two randombytes implementations (sysrandom, and
# librdrand's internal one, which uses RDRAND only where compiled for it).
LIBSODIUM_SOURCES := \
    crypto_aead/chacha20poly1305/sodium/aead_chacha20poly1305.c \
    crypto_aead/xchacha20poly1305/sodium/aead_xchacha20poly1305.c \
    crypto_auth/crypto_auth.c \
    crypto_auth/hmacsha256/auth_hmacsha256.c \
    crypto_auth/hmacsha512/auth_hmacsha512.c \
    crypto_auth/hmacsha512256/auth_hmacsha512256.c \
    crypto_box/crypto_box.c \
    crypto_box/crypto_box_easy.c \
    crypto_box/crypto_box_seal.c \
    crypto_box/curve25519xsalsa20poly1305/box_curve25519xsalsa20poly1305.c \
    crypto_core/ed25519/ref10/ed25519_ref10.c \
    crypto_core/hchacha20/core_hchacha20.c \
    crypto_core/hsalsa20/ref2/core_hsalsa20_ref2.c \
    crypto_core/hsalsa20/core_hsalsa20.c \
    crypto_core/salsa/ref/core_salsa_ref.c \
    crypto_generichash/crypto_generichash.c \
    crypto_generichash/blake2b/generichash_blake2.c \
    crypto_generichash/blake2b/ref/blake2b-compress-ref.c \
    crypto_generichash/blake2b/ref/blake2b-ref.c \
    crypto_generichash/blake2b/ref/generichash_blake2b.c \
    crypto_hash/crypto_hash.c \
    crypto_hash/sha256/hash_sha256.c \
    crypto_hash/sha256/cp/hash_sha256_cp.c \
    crypto_hash/sha512/hash_sha512.c \
    crypto_hash/sha512/cp/hash_sha512_cp.c \
    crypto_kdf/blake2b/kdf_blake2b.c \
    crypto_kdf/crypto_kdf.c \
    crypto_kx/crypto_kx.c \
    crypto_onetimeauth/crypto_onetimeauth.c \
    crypto_onetimeauth/poly1305/onetimeauth_poly1305.c \
    crypto_onetimeauth/poly1305/donna/poly1305_donna.c \
    crypto_pwhash/argon2/argon2-core.c \
    crypto_pwhash/argon2/argon2-encoding.c \
    crypto_pwhash/argon2/argon2-fill-block-ref.c \
    crypto_pwhash/argon2/argon2.c \
    crypto_pwhash/argon2/blake2b-long.c \
    crypto_pwhash/argon2/pwhash_argon2i.c \
    crypto_pwhash/argon2/pwhash_argon2id.c \
    crypto_pwhash/crypto_pwhash.c \
    crypto_scalarmult/crypto_scalarmult.c \
    crypto_scalarmult/curve25519/ref10/x25519_ref10.c \
    crypto_scalarmult/curve25519/scalarmult_curve25519.c \
    crypto_secretbox/crypto_secretbox.c \
    crypto_secretbox/crypto_secretbox_easy.c \
    crypto_secretbox/xsalsa20poly1305/secretbox_xsalsa20poly1305.c \
    crypto_secretstream/xchacha20poly1305/secretstream_xchacha20poly1305.c \
    crypto_shorthash/crypto_shorthash.c \
    crypto_shorthash/siphash24/shorthash_siphash24.c \
    crypto_shorthash/siphash24/ref/shorthash_siphash24_ref.c \
    crypto_sign/crypto_sign.c \
    crypto_sign/ed25519/sign_ed25519.c \
    crypto_sign/ed25519/ref10/keypair.c \
    crypto_sign/ed25519/ref10/open.c \
    crypto_sign/ed25519/ref10/sign.c \
    crypto_stream/chacha20/stream_chacha20.c \
    crypto_stream/chacha20/ref/chacha20_ref.c \
    crypto_stream/crypto_stream.c \
    crypto_stream/salsa20/stream_salsa20.c \
    crypto_stream/xsalsa20/stream_xsalsa20.c \
    crypto_verify/sodium/verify.c \
    randombytes/randombytes.c \
    sodium/codecs.c \
    sodium/core.c \
    sodium/runtime.c \
    sodium/utils.c \
    sodium/version.c \
    crypto_stream/salsa20/ref/salsa20_ref.c \
    crypto_box/curve25519xchacha20poly1305/box_curve25519xchacha20poly1305.c \
    crypto_box/curve25519xchacha20poly1305/box_seal_curve25519xchacha20poly1305.c \
    crypto_core/ed25519/core_ed25519.c \
    crypto_core/ed25519/core_ristretto255.c \
    crypto_pwhash/scryptsalsa208sha256/crypto_scrypt-common.c \
    crypto_pwhash/scryptsalsa208sha256/scrypt_platform.c \
    crypto_pwhash/scryptsalsa208sha256/pbkdf2-sha256.c \
    crypto_pwhash/scryptsalsa208sha256/pwhash_scryptsalsa208sha256.c \
    crypto_pwhash/scryptsalsa208sha256/nosse/pwhash_scryptsalsa208sha256_nosse.c \
    crypto_scalarmult/ed25519/ref10/scalarmult_ed25519_ref10.c \
    crypto_scalarmult/ristretto255/ref10/scalarmult_ristretto255_ref10.c \
    crypto_secretbox/xchacha20poly1305/secretbox_xchacha20poly1305.c \
    crypto_shorthash/siphash24/shorthash_siphashx24.c \
    crypto_shorthash/siphash24/ref/shorthash_siphashx24_ref.c \
    crypto_sign/ed25519/ref10/obsolete.c \
    crypto_stream/salsa2012/ref/stream_salsa2012_ref.c \
    crypto_stream/salsa2012/stream_salsa2012.c \
    crypto_stream/salsa208/ref/stream_salsa208_ref.c \
    crypto_stream/salsa208/stream_salsa208.c \
    crypto_stream/xchacha20/stream_xchacha20.c \
    randombytes/sysrandom/randombytes_sysrandom.c \
    randombytes/internal/randombytes_internal_random.c

# What upstream's configure adds on clang and gcc (configure.ac), and what
# every system here has: a 64-bit or 32-bit little-endian CPU, pthreads,
# mmap/mprotect/mlock/madvise, posix_memalign, C99 variable arrays.
LIBSODIUM_CFLAGS := -O2 -fvisibility=hidden -fno-strict-aliasing -fno-strict-overflow -fstack-protector \
    -w -I$(LIBSODIUM_INCLUDE)/sodium
LIBSODIUM_DEFINES_COMMON := -DCONFIGURED=1 -DPACKAGE_NAME='"libsodium"' -DPACKAGE_VERSION='"$(LIBSODIUM_VERSION)"' \
    -DNATIVE_LITTLE_ENDIAN=1 -DHAVE_PTHREAD=1 -DHAVE_ATOMIC_OPS=1 -DHAVE_WEAK_SYMBOLS=1 -DHAVE_INLINE_ASM=1 \
    -DHAVE_SYS_MMAN_H=1 -DHAVE_MMAP=1 -DHAVE_MPROTECT=1 -DHAVE_MLOCK=1 -DHAVE_MADVISE=1 \
    -DHAVE_POSIX_MEMALIGN=1 -DHAVE_GETPID=1 -DHAVE_NANOSLEEP=1 -DHAVE_C_VARARRAYS=1 \
    -DHAVE_ALLOCA=1 -DHAVE_ALLOCA_H=1

libsodium_archive = $(LIBSODIUM_DIR)/$(1)/libsodium.a
libsodium_objects = $(patsubst %.c,$(LIBSODIUM_DIR)/$(1)/obj/%.o,$(2))

$(LIBSODIUM_TARBALL):
	@mkdir -p $(@D)
	@printf '  %-7s %s\n' FETCH $(LIBSODIUM_URL)
	$(Q)$(PYTHON) -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
	    $(LIBSODIUM_URL) $@.part
	$(Q)echo "$(LIBSODIUM_SHA256)  $@.part" | sha256sum -c --quiet - \
	    || { echo "libsodium: $@.part is not the pinned release (SHA-256 $(LIBSODIUM_SHA256))" >&2; rm -f $@.part; exit 1; }
	$(Q)mv $@.part $@

# Unpacked, and version.h made from version.h.in as configure makes it.
$(LIBSODIUM_READY): $(LIBSODIUM_TARBALL)
	@printf '  %-7s %s\n' UNPACK $(@D)
	$(Q)echo "$(LIBSODIUM_SHA256)  $<" | sha256sum -c --quiet -
	$(Q)rm -rf $(@D)
	$(Q)tar -xzf $< -C $(LIBSODIUM_DIR)
	$(Q)sed -e 's/@VERSION@/$(LIBSODIUM_VERSION)/' -e 's/@SODIUM_LIBRARY_VERSION_MAJOR@/10/' \
	    -e 's/@SODIUM_LIBRARY_VERSION_MINOR@/3/' -e 's/@SODIUM_LIBRARY_MINIMAL_DEF@//' \
	    $(LIBSODIUM_INCLUDE)/sodium/version.h.in > $(LIBSODIUM_INCLUDE)/sodium/version.h
	$(Q)touch $@

# x86-64's SIMD implementations (Makefile.am's libsse2 ... libaesni, for a
# build without HAVE_AMD64_ASM): each group's sources and the flags
# Makefile.am compiles them with. libsodium picks one at run time from the
# CPU's features (sodium_init); the defines that enable them are
# LIBSODIUM_DEFINES_X86_64.
LIBSODIUM_X86_64_GROUPS := sse2 ssse3 sse41 avx2 avx512f aesni
libsodium_x86_64_flags_sse2    := -msse2
libsodium_x86_64_sources_sse2  := crypto_onetimeauth/poly1305/sse2/poly1305_sse2.c \
    crypto_pwhash/scryptsalsa208sha256/sse/pwhash_scryptsalsa208sha256_sse.c \
    crypto_stream/salsa20/xmm6int/salsa20_xmm6int-sse2.c
libsodium_x86_64_flags_ssse3   := -msse2 -mssse3
libsodium_x86_64_sources_ssse3 := crypto_generichash/blake2b/ref/blake2b-compress-ssse3.c \
    crypto_pwhash/argon2/argon2-fill-block-ssse3.c crypto_stream/chacha20/dolbeau/chacha20_dolbeau-ssse3.c
libsodium_x86_64_flags_sse41   := -msse2 -mssse3 -msse4.1
libsodium_x86_64_sources_sse41 := crypto_generichash/blake2b/ref/blake2b-compress-sse41.c
libsodium_x86_64_flags_avx2    := -msse2 -mssse3 -msse4.1 -mavx -mavx2
libsodium_x86_64_sources_avx2  := crypto_generichash/blake2b/ref/blake2b-compress-avx2.c \
    crypto_pwhash/argon2/argon2-fill-block-avx2.c crypto_stream/chacha20/dolbeau/chacha20_dolbeau-avx2.c \
    crypto_stream/salsa20/xmm6int/salsa20_xmm6int-avx2.c
libsodium_x86_64_flags_avx512f   := -msse2 -mssse3 -msse4.1 -mavx -mavx2 -mavx512f
libsodium_x86_64_sources_avx512f := crypto_pwhash/argon2/argon2-fill-block-avx512f.c
libsodium_x86_64_flags_aesni   := -msse2 -mssse3 -maes -mpclmul
libsodium_x86_64_sources_aesni := crypto_aead/aes256gcm/aesni/aead_aes256gcm_aesni.c
LIBSODIUM_DEFINES_X86_64 := -DHAVE_CPUID=1 -DHAVE_MMINTRIN_H=1 -DHAVE_EMMINTRIN_H=1 -DHAVE_PMMINTRIN_H=1 \
    -DHAVE_TMMINTRIN_H=1 -DHAVE_SMMINTRIN_H=1 -DHAVE_AVXINTRIN_H=1 -DHAVE_AVX2INTRIN_H=1 \
    -DHAVE_AVX512FINTRIN_H=1 -DHAVE_WMMINTRIN_H=1 -DHAVE_RDRAND=1
# The aes256gcm of the library without SIMD: its functions report "not
# available" (crypto_aead_aes256gcm_is_available() == 0), as upstream's
# build does on a CPU without AES-NI.
LIBSODIUM_PORTABLE_AES := crypto_aead/aes256gcm/aesni/aead_aes256gcm_aesni.c

# libsodium_group_rules TARGET FLAGS SOURCES: objects of SOURCES with the
# target's flags and FLAGS.
define libsodium_group_rules
$(call libsodium_objects,$(1),$(3)): $(LIBSODIUM_DIR)/$(1)/obj/%.o: $(LIBSODIUM_READY)
	@mkdir -p $$(@D)
	$$(BUILD_STEP) CC $$@ $$(libsodium_cc_$(1)) $$(libsodium_cflags_$(1)) $$(LIBSODIUM_CFLAGS) $$(LIBSODIUM_DEFINES_COMMON) \
	    $$(LIBSODIUM_DEFINES_$(1)) $(2) -c $(LIBSODIUM_SRC)/$$*.c -o $$@
endef

# The archive members the links take (a static archive gives a link only
# the members it needs, so the others never reach a library): the closure
# of what the library calls (sodium_init picks every primitive's
# implementation, so scalarmult and the SIMD variants come in) and what
# the musl replay tool calls, the same on every target (their link maps,
# `-Wl,-Map`, list 44 members on x86-64 and 33 on ARM, all named here).
# Only these are compiled: the shipped bytes are those of the full
# archive, for 44 of 102 compiles. A library that calls a libsodium
# function outside them does not link (musl and Android: --no-undefined;
# Apple: test-apple's check that every name left undefined is
# libSystem's): add the file that defines it.
LIBSODIUM_LINKED := aead_xchacha20poly1305 argon2-core argon2-encoding argon2-fill-block-avx2 \
    argon2-fill-block-avx512f argon2-fill-block-ref argon2-fill-block-ssse3 argon2 blake2b-compress-avx2 \
    blake2b-compress-ref blake2b-compress-sse41 blake2b-compress-ssse3 blake2b-long blake2b-ref \
    chacha20_dolbeau-avx2 chacha20_dolbeau-ssse3 chacha20_ref codecs core core_hchacha20 core_salsa_ref \
    crypto_generichash crypto_kdf crypto_pwhash ed25519_ref10 generichash_blake2b kdf_blake2b \
    onetimeauth_poly1305 poly1305_donna poly1305_sse2 pwhash_argon2i pwhash_argon2id randombytes \
    randombytes_sysrandom runtime salsa20_ref salsa20_xmm6int-avx2 salsa20_xmm6int-sse2 \
    scalarmult_curve25519 stream_chacha20 stream_salsa20 utils verify x25519_ref10
libsodium_linked = $(foreach s,$(1),$(if $(filter $(notdir $(basename $(s))),$(LIBSODIUM_LINKED)),$(s)))

# The sources of TARGET: the portable ones, and its x86-64 groups or, with
# none, the aes256gcm file compiled without AES-NI; those the links take.
libsodium_all_sources = $(call libsodium_linked,$(LIBSODIUM_SOURCES) \
    $(if $(libsodium_groups_$(1)),$(foreach g,$(libsodium_groups_$(1)),$(libsodium_x86_64_sources_$(g))),$(LIBSODIUM_PORTABLE_AES)))

# libsodium_rules TARGET: its objects and archive.
define libsodium_rules
$(eval $(call libsodium_group_rules,$(1),,$(LIBSODIUM_SOURCES) $(if $(libsodium_groups_$(1)),,$(LIBSODIUM_PORTABLE_AES))))
$(foreach g,$(libsodium_groups_$(1)),$(eval $(call libsodium_group_rules,$(1),$(libsodium_x86_64_flags_$(g)),$(libsodium_x86_64_sources_$(g)))))
$(call libsodium_archive,$(1)): $(call libsodium_objects,$(1),$(call libsodium_all_sources,$(1)))
	$$(Q)rm -f $$@
	$$(BUILD_STEP) AR $$@ $$(libsodium_ar_$(1)) rcs $$@ $$^
endef

endif
