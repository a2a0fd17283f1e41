// SPDX-License-Identifier: MIT
// The C ABI of libidlelock (include/idlelock.h 1.2) as P/Invoke declarations
// and blittable struct mirrors. Internal: IdleLock validates every argument
// before it calls one of these, and passes the handle as a plain pointer
// inside IdleLockHandle.Enter / Exit (which keep it alive while a call is in
// flight; cheaper than marshalling a SafeHandle on the hot path). The mirrors
// are checked against the library's size functions before the first handle
// is made (Native.EnsureAbi).
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;

namespace LibIdleLock
{
    // IL2CPP compiles a static method passed to C as a function pointer only
    // when it carries an attribute of this name (Unity's AOT namespace has
    // one; declaring our own, internal, keeps the binding free of
    // UnityEngine and avoids a clash with it).
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { Type = type; }
        public Type Type { get; private set; }
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct ConfigNative
    {
        public uint size;
        public int lock_on_start;
        public long idle_after_ms;
        public long background_after_ms;
        public long inactive_after_ms;
        public long grace_ms;
        public int max_attempts;
        public uint reserved0;
        public ulong kdf_opslimit;
        public ulong kdf_memlimit;
        public IntPtr store_path;
        public IntPtr clock;
        public IntPtr clock_ctx;
        public IntPtr authenticator;
        public IntPtr unlock_reason;
        public IntPtr device_key;
        public UIntPtr device_key_len;
        // 1.1
        public long prompt_cap_ms;
        public long warn_before_ms;
        public IntPtr delay_schedule;
        public UIntPtr delay_schedule_len;
        // 1.2: the passcode policies (0: off, the config_init defaults)
        public long passcode_max_age_ms;
        public int passcode_after_reboot;
        public int biometric_max_uses;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct SnapshotNative
    {
        public uint size;
        public int state;
        public ulong seq;
        public int reason;
        public int is_enabled;
        public int is_biometrics_enabled;
        public int is_biometrics_available;
        public int is_away;
        public int attempts_remaining;
        public long last_activity_ms;
        public long ms_until_idle_lock;
        // 1.1
        public int is_warning;
        public int reserved1;
        public long ms_until_warning;
        public long ms_until_retry;
        public long ms_until_next_deadline;
        // 1.2
        public int is_passcode_required;
        public int reserved2;
        public long last_auth_ms;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct AuthenticatorNative
    {
        public uint size;
        public uint reserved0;
        public IntPtr ctx;
        public IntPtr is_available;
        public IntPtr store_secret;
        public IntPtr load_secret;
        public IntPtr delete_secret;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct DelayStepNative
    {
        public int failed_attempts;
        public int reserved0;
        public long delay_ms;
    }

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void ListenerFn(IntPtr ctx, IntPtr snapshot);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate long ClockFn(IntPtr ctx);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int IsAvailableFn(IntPtr ctx);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int StoreSecretFn(IntPtr ctx, IntPtr secret, UIntPtr len);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int LoadSecretFn(IntPtr ctx, IntPtr reason, IntPtr output, UIntPtr cap, IntPtr outLen);
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int DeleteSecretFn(IntPtr ctx);

    internal static class Native
    {
        // "idlelock" finds libidlelock.so (Linux, Android), libidlelock.dylib,
        // idlelock.dll. iOS links the library statically into the player.
#if UNITY_IOS && !UNITY_EDITOR
        internal const string Lib = "__Internal";
#else
        internal const string Lib = "idlelock";
#endif
        internal const int HeaderVersionNumber = 10202;
        internal const int HeaderVersionMajor = 1;
        internal const int HeaderVersionMinor = 2;

        internal static readonly int SnapshotSize = Marshal.SizeOf(typeof(SnapshotNative));
        internal static readonly int ConfigSize = Marshal.SizeOf(typeof(ConfigNative));
        internal static readonly int AuthenticatorSize = Marshal.SizeOf(typeof(AuthenticatorNative));
        internal static readonly int DelayStepSize = Marshal.SizeOf(typeof(DelayStepNative));

        const CallingConvention C = CallingConvention.Cdecl;

        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_config_init(ref ConfigNative cfg, UIntPtr size);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_create(ref ConfigNative cfg, out IntPtr handle);
        [DllImport(Lib, CallingConvention = C)] internal static extern void idlelock_destroy(IntPtr handle);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_watch_start(IntPtr h);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_watch_stop(IntPtr h);

        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_start(IntPtr h, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_touch(IntPtr h, IntPtr nullSnapshot);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_inactive(IntPtr h, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_background(IntPtr h, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_foreground(IntPtr h, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_check(IntPtr h, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_lock(IntPtr h, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_snapshot_get(IntPtr h, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_lifecycle(IntPtr h, int platform, byte[] stateName, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_prompt_begin(IntPtr h, out ulong token);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_prompt_end(IntPtr h, ulong token);

        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_set_passcode(IntPtr h, IntPtr utf8, UIntPtr len);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_unlock(IntPtr h, IntPtr utf8, UIntPtr len, ref SnapshotNative s);

        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_enable_biometrics(IntPtr h);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_disable_biometrics(IntPtr h);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_unlock_with_biometrics(IntPtr h, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_disable(IntPtr h);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_biometric_begin(IntPtr h, int purpose, out ulong token, [Out] byte[] secret, UIntPtr len, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_biometric_finish(IntPtr h, ulong token, int result, byte[] secret, UIntPtr len, ref SnapshotNative s);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_require_recent_auth(IntPtr h, long maxAgeMs);

        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_subscribe(IntPtr h, IntPtr fn, IntPtr ctx, out ulong token);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_unsubscribe(IntPtr h, ulong token);

        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_secret_put(IntPtr h, byte[] name, IntPtr data, UIntPtr len);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_secret_get(IntPtr h, byte[] name, [In, Out] byte[] buf, ref UIntPtr len);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_secret_remove(IntPtr h, byte[] name);
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_require_unlocked(IntPtr h);

        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_delay_schedule_ios(out IntPtr steps, out UIntPtr len);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr idlelock_status_name(int status);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr idlelock_last_error();
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr idlelock_version();
        [DllImport(Lib, CallingConvention = C)] internal static extern int idlelock_version_number();
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr idlelock_config_size();
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr idlelock_snapshot_size();
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr idlelock_authenticator_size();
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr idlelock_delay_step_size();

        /// <summary>A NUL-terminated UTF-8 string the library owns, as a string.</summary>
        internal static string Utf8At(IntPtr p)
        {
            if (p == IntPtr.Zero) return "";
            int n = 0;
            while (Marshal.ReadByte(p, n) != 0) n++;
            var bytes = new byte[n];
            Marshal.Copy(p, bytes, 0, n);
            return Encoding.UTF8.GetString(bytes);
        }

        internal static string LastError() { return Utf8At(idlelock_last_error()); }

        // The library calls of IdleLock's static members, each in a method of its own:
        // Mono resolves a P/Invoke when it compiles the method that calls it, and it
        // compiles a static member before IdleLock's static constructor (which loads the
        // NuGet package's library) runs; so a static member must call none directly.

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static string VersionString() { return Utf8At(idlelock_version()); }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static int VersionNumber() { return idlelock_version_number(); }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static string StatusName(int status) { return Utf8At(idlelock_status_name(status)); }

        /// <summary>The library's iOS-like preset, or null when it failed.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static List<KeyValuePair<int, long>> IosDelaySchedule()
        {
            IntPtr steps;
            UIntPtr len;
            if (idlelock_delay_schedule_ios(out steps, out len) != 0) return null;
            var list = new List<KeyValuePair<int, long>>();
            for (int i = 0; i < (int)len.ToUInt64(); i++)
            {
                var s = (DelayStepNative)Marshal.PtrToStructure(new IntPtr(steps.ToInt64() + i * DelayStepSize), typeof(DelayStepNative));
                list.Add(new KeyValuePair<int, long>(s.failed_attempts, s.delay_ms));
            }
            return list;
        }

        static readonly object abiLock = new object();
        static Exception abiProblem;
        static bool abiChecked;

        /// <summary>Throws (each time) when the library cannot serve this
        /// binding: not found, another ABI major, an older minor, or struct
        /// mirrors whose size differs from the library's.</summary>
        internal static void EnsureAbi()
        {
            if (!abiChecked)
            {
                lock (abiLock)
                {
                    if (!abiChecked)
                    {
                        abiProblem = CheckAbi();
                        abiChecked = true;
                    }
                }
            }
            if (abiProblem is DllNotFoundException)
                throw new DllNotFoundException(abiProblem.Message, abiProblem);
            if (abiProblem != null)
                throw new InvalidOperationException(abiProblem.Message, abiProblem);
        }

        static Exception CheckAbi()
        {
            NativeLoader.LoadPackaged();
            int number;
            try
            {
                number = idlelock_version_number();
            }
            catch (DllNotFoundException e)
            {
                return new DllNotFoundException("libidlelock could not be loaded: keep the NuGet package's runtimes/ folder " +
                    "beside LibIdleLock.dll (looked for " + (NativeLoader.Searched ?? "nothing: no runtimes/<rid> for this system") +
                    "), or put libidlelock.so where the runtime finds native plugins (Unity: Assets/Plugins/<cpu>/; " +
                    "a Mono program: LD_LIBRARY_PATH)", e);
            }
            catch (EntryPointNotFoundException e)
            {
                return new InvalidOperationException("libidlelock is older than this binding (header 1.2.0): " + e.Message, e);
            }
            string prefix = "libidlelock " + Utf8At(idlelock_version()) + " does not match this binding (header 1.2.0): ";
            int major = number / 10000, minor = number / 100 % 100;
            if (major != HeaderVersionMajor) return new InvalidOperationException(prefix + "another ABI major");
            if (minor < HeaderVersionMinor) return new InvalidOperationException(prefix + "its minor is older than the header's");
            bool same = minor == HeaderVersionMinor;
            var sizes = new[]
            {
                Tuple.Create("idlelock_config", ConfigSize, (long)idlelock_config_size().ToUInt64()),
                Tuple.Create("idlelock_snapshot", SnapshotSize, (long)idlelock_snapshot_size().ToUInt64()),
                Tuple.Create("idlelock_authenticator", AuthenticatorSize, (long)idlelock_authenticator_size().ToUInt64()),
                Tuple.Create("idlelock_delay_step", DelayStepSize, (long)idlelock_delay_step_size().ToUInt64()),
            };
            foreach (var s in sizes)
            {
                if (same ? s.Item3 != s.Item2 : s.Item3 < s.Item2)
                    return new InvalidOperationException(prefix + s.Item1 + " is " + s.Item3 +
                        " bytes in the library, " + s.Item2 + " in the binding's mirror");
            }
            return null;
        }
    }
}
