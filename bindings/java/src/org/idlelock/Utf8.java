// SPDX-License-Identifier: MIT
package org.idlelock;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Strict UTF-8, in and out. Java strings are UTF-16: an unpaired surrogate
 * has no UTF-8 form, and {@code String.getBytes(UTF_8)} would silently
 * replace it with '?', so a passcode typed one way could never be entered
 * again. These helpers refuse it instead ({@link InvalidArgumentException}).
 */
final class Utf8 {
    private Utf8() {}

    private static CharsetEncoder encoder() {
        return StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    /**
     * Encodes {@code chars} straight into a new array, larger than needed;
     * the encoded length is written to {@code len[0]}. The caller owns the
     * array and must wipe it ({@link Arrays#fill(byte[], byte)}); the
     * encoder keeps no copy. {@code what} names the argument in the error.
     */
    static byte[] encodeSecret(char[] chars, String what, int[] len) {
        // At most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2).
        byte[] out = new byte[Math.max(1, chars.length * 3)];
        ByteBuffer bytes = ByteBuffer.wrap(out);
        CharsetEncoder enc = encoder();
        CoderResult r = enc.encode(CharBuffer.wrap(chars), bytes, true);
        if (r.isUnderflow()) {
            r = enc.flush(bytes);
        }
        if (!r.isUnderflow()) {
            Arrays.fill(out, (byte) 0);
            throw new InvalidArgumentException(what
                    + " is not valid UTF-16 (an unpaired surrogate near character "
                    + bytesToChars(chars, bytes.position()) + "): it has no UTF-8 form");
        }
        len[0] = bytes.position();
        return out;
    }

    private static int bytesToChars(char[] chars, int bytePos) {
        int b = 0;
        for (int i = 0; i < chars.length; i++) {
            char c = chars[i];
            b += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
            if (b > bytePos) return i;
        }
        return chars.length;
    }

    /** {@code s} as NUL-terminated UTF-8, for a C string argument. */
    static byte[] cString(String s, String what) {
        if (s.indexOf('\0') >= 0) {
            throw new InvalidArgumentException(what + " contains a NUL character, which a C string cannot hold");
        }
        ByteBuffer b;
        try {
            b = encoder().encode(CharBuffer.wrap(s));
        } catch (CharacterCodingException e) {
            throw new InvalidArgumentException(what + " is not valid UTF-16 (an unpaired surrogate): it has no UTF-8 form");
        }
        byte[] out = new byte[b.remaining() + 1];
        b.get(out, 0, out.length - 1);
        return out;
    }

    /** UTF-8 from the library (messages, names): malformed bytes become U+FFFD. */
    static String decode(byte[] utf8) {
        if (utf8 == null) return "";
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        try {
            return d.decode(ByteBuffer.wrap(utf8)).toString();
        } catch (CharacterCodingException e) {
            return new String(utf8, StandardCharsets.UTF_8);
        }
    }
}
