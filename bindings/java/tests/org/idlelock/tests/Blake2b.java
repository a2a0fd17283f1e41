// SPDX-License-Identifier: MIT
package org.idlelock.tests;

/**
 * BLAKE2b (RFC 7693) with a key, a salt and a personalisation, for the
 * replay's `reboot` (it recomputes a store's integrity check, as
 * tools/replay/idlelock-replay.c does with libsodium's crypto_generichash and
 * crypto_kdf_derive_from_key; the JDK has no BLAKE2b). A test helper: no
 * secret goes through it but the replay's fixed test key.
 */
final class Blake2b {
    private Blake2b() {}

    private static final long[] IV = {
        0x6a09e667f3bcc908L, 0xbb67ae8584caa73bL, 0x3c6ef372fe94f82bL, 0xa54ff53a5f1d36f1L,
        0x510e527fade682d1L, 0x9b05688c2b3e6c1fL, 0x1f83d9abfb41bd6bL, 0x5be0cd19137e2179L,
    };

    private static final int[][] SIGMA = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
        {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
        {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
        {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
        {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
        {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
        {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
        {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
        {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    };

    private static long le64(byte[] b, int off) {
        long v = 0;
        for (int i = 7; i >= 0; i--) v = (v << 8) | (b[off + i] & 0xff);
        return v;
    }

    private static void compress(long[] h, byte[] block, long counter, boolean last) {
        long[] m = new long[16];
        for (int i = 0; i < 16; i++) m[i] = le64(block, 8 * i);
        long[] v = new long[16];
        System.arraycopy(h, 0, v, 0, 8);
        System.arraycopy(IV, 0, v, 8, 8);
        v[12] ^= counter;
        if (last) v[14] = ~v[14];
        for (int r = 0; r < 12; r++) {
            int[] s = SIGMA[r % 10];
            g(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
            g(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
            g(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
            g(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
            g(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
            g(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
            g(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
            g(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
        }
        for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
    }

    private static void g(long[] v, int a, int b, int c, int d, long x, long y) {
        v[a] = v[a] + v[b] + x;
        v[d] = Long.rotateRight(v[d] ^ v[a], 32);
        v[c] = v[c] + v[d];
        v[b] = Long.rotateRight(v[b] ^ v[c], 24);
        v[a] = v[a] + v[b] + y;
        v[d] = Long.rotateRight(v[d] ^ v[a], 16);
        v[c] = v[c] + v[d];
        v[b] = Long.rotateRight(v[b] ^ v[c], 63);
    }

    /** BLAKE2b of {@code data} into {@code outLen} bytes; key, salt (16) and personal (16) may be null. */
    static byte[] hash(int outLen, byte[] data, int dataLen, byte[] key, byte[] salt, byte[] personal) {
        int keyLen = key == null ? 0 : key.length;
        long[] h = IV.clone();
        h[0] ^= 0x01010000L ^ ((long) keyLen << 8) ^ outLen;
        if (salt != null) {
            h[4] ^= le64(salt, 0);
            h[5] ^= le64(salt, 8);
        }
        if (personal != null) {
            h[6] ^= le64(personal, 0);
            h[7] ^= le64(personal, 8);
        }
        byte[] all;
        if (keyLen > 0) {
            all = new byte[128 + dataLen];
            System.arraycopy(key, 0, all, 0, keyLen);
            System.arraycopy(data, 0, all, 128, dataLen);
        } else {
            all = new byte[dataLen];
            System.arraycopy(data, 0, all, 0, dataLen);
        }
        int n = all.length;
        byte[] block = new byte[128];
        int off = 0;
        long counter = 0;
        while (n - off > 128) {
            System.arraycopy(all, off, block, 0, 128);
            counter += 128;
            compress(h, block, counter, false);
            off += 128;
        }
        java.util.Arrays.fill(block, (byte) 0);
        System.arraycopy(all, off, block, 0, n - off);
        counter += n - off;
        compress(h, block, counter, true);
        byte[] out = new byte[outLen];
        for (int i = 0; i < outLen; i++) out[i] = (byte) (h[i / 8] >>> (8 * (i % 8)));
        return out;
    }

    /** libsodium's crypto_kdf_derive_from_key (BLAKE2b-based, 1.0.18). */
    static byte[] kdf(int outLen, long subkeyId, String context, byte[] key) {
        byte[] salt = new byte[16];
        for (int i = 0; i < 8; i++) salt[i] = (byte) (subkeyId >>> (8 * i));
        byte[] personal = new byte[16];
        byte[] ctx = context.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(ctx, 0, personal, 0, 8);
        return hash(outLen, new byte[0], 0, key, salt, personal);
    }
}
