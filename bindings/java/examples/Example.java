import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.idlelock.IdleLock;
import org.idlelock.InvalidPasscodeException;
import org.idlelock.Platform;
import org.idlelock.Snapshot;
import org.idlelock.State;

public final class Example {
    public static void main(String[] args) {
        char[] passcode = {'2', '4', '6', '8'};            // from your passcode field: never a String
        byte[] token = "session-token".getBytes(StandardCharsets.UTF_8);
        try (IdleLock lock = IdleLock.builder()
                .idleAfterMs(5 * 60_000)                     // lock after 5 minutes without input
                .backgroundAfterMs(30_000)                   // or after 30 s away
                .build()) {
            AtomicReference<State> shown = new AtomicReference<>(State.UNLOCKED);
            lock.subscribe(s -> {                            // on the thread of the call, here
                if (shown.getAndSet(s.state()) != s.state()) System.out.println("now " + s.state() + " (" + s.reason() + ")");
            });
            lock.setPasscode(passcode);                      // Argon2id: off the UI thread in an app
            lock.putSecret("token", token);                  // sealed while locked
            Arrays.fill(token, (byte) 0);                    // the lock keeps its own copy
            lock.touch();                                    // on every input event
            lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "ON_STOP");
            lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, "ON_RESUME");
            lock.lock();                                     // "Lock now"
            try {
                lock.unlock(new char[] {'1', '3', '5', '7'});
            } catch (InvalidPasscodeException e) {
                System.out.println("wrong passcode, " + e.attemptsRemaining() + " attempts left");
            }
            Snapshot s = lock.unlock(passcode);
            byte[] secret = lock.getSecret("token");         // a new array: yours to wipe
            System.out.println(s.state() + ", token " + new String(secret, StandardCharsets.UTF_8));
            Arrays.fill(secret, (byte) 0);
        } finally {
            Arrays.fill(passcode, '\0');
        }
    }
}
