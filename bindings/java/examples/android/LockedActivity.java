import androidx.fragment.app.FragmentActivity;
import org.idlelock.IdleLock;

/** Every activity of the app extends this: each touch, key or trackball event is activity. */
abstract class LockedActivity extends FragmentActivity {
    abstract IdleLock lock();                            // the app's one lock (your Application holds it)

    @Override public void onUserInteraction() {
        super.onUserInteraction();
        lock().touch();                                  // cheap: no I/O while unlocked
    }
}
