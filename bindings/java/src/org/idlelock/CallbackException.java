// SPDX-License-Identifier: MIT
package org.idlelock;

/**
 * A listener, the clock or the authenticator threw while the library ran
 * it inside a call on this thread. The binding never lets an exception
 * unwind into C: it catches it, lets the library finish the call (a clock
 * that threw reads as the earliest possible time, so an engaged unlocked
 * session locks with {@link Reason#CLOCK}; an authenticator that threw is
 * a failed check), and throws this from the call once it returned. The
 * cause is the first exception; later ones are suppressed exceptions, and
 * so is the call's own {@link IdleLockException} when it also failed.
 *
 * <p>A listener that throws on a thread the JVM did not create (the
 * watcher thread) has no call to throw from: its exception goes to that
 * thread's uncaught-exception handler.
 */
public class CallbackException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Made by the binding when a callback threw.
     *
     * @param message which callback threw, and in which call
     * @param cause what the callback threw
     */
    public CallbackException(String message, Throwable cause) { super(message, cause); }
}
