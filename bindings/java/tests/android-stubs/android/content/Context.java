package android.content;

/** Stub (tests only). */
public class Context {
}
