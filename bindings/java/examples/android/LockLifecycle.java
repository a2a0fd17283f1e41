import androidx.lifecycle.Lifecycle;
import androidx.lifecycle.LifecycleEventObserver;
import androidx.lifecycle.LifecycleOwner;
import androidx.lifecycle.ProcessLifecycleOwner;
import org.idlelock.IdleLock;
import org.idlelock.Platform;

/** The app's lifecycle, reported to the lock: create one in Application.onCreate(). */
final class LockLifecycle implements LifecycleEventObserver {
    private final IdleLock lock;

    LockLifecycle(IdleLock lock) {
        this.lock = lock;
        ProcessLifecycleOwner.get().getLifecycle().addObserver(this); // the whole app, not one activity
    }

    @Override public void onStateChanged(LifecycleOwner source, Lifecycle.Event event) {
        // ON_STOP: the app left the screen (background); ON_RESUME: back. The library maps the names.
        lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, event.name());
    }
}
