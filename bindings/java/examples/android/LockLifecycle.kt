import androidx.fragment.app.FragmentActivity
import androidx.lifecycle.Lifecycle
import androidx.lifecycle.LifecycleEventObserver
import androidx.lifecycle.LifecycleOwner
import androidx.lifecycle.ProcessLifecycleOwner
import org.idlelock.IdleLock
import org.idlelock.Platform

/** The app's lifecycle, reported to the lock: create one in Application.onCreate(). */
class LockLifecycle(private val lock: IdleLock) : LifecycleEventObserver {
    init {
        ProcessLifecycleOwner.get().lifecycle.addObserver(this)   // the whole app, not one activity
    }

    override fun onStateChanged(source: LifecycleOwner, event: Lifecycle.Event) {
        // ON_STOP: the app left the screen (background); ON_RESUME: back. The library maps the names.
        lock.lifecycle(Platform.ANDROID_LIFECYCLE_EVENT, event.name)
    }
}

/** Every activity of the app extends this: each touch, key or trackball event is activity. */
abstract class LockedActivity : FragmentActivity() {
    abstract val lock: IdleLock                                   // the app's one lock (your Application holds it)

    override fun onUserInteraction() {
        super.onUserInteraction()
        lock.touch()                                              // cheap: no I/O while unlocked
    }
}
