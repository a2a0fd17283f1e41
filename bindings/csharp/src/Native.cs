// SPDX-License-Identifier: MIT
// Loading libidlelock and checking it serves this binding; the C ABI itself
// (include/idlelock.h) as P/Invoke declarations and blittable struct mirrors
// is generated into Generated.cs. Internal: IdleLock validates every argument
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

    internal static partial class Native
    {
        // "idlelock" finds libidlelock.so (Linux, Android), libidlelock.dylib,
        // idlelock.dll. iOS links the library statically into the player.
#if UNITY_IOS && !UNITY_EDITOR
        internal const string Lib = "__Internal";
#else
        internal const string Lib = "idlelock";
#endif

        // The P/Invoke declarations, the struct mirrors (ConfigNative, ...), their
        // sizes and the header version are Generated.cs's, from include/idlelock.h.

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
                return new InvalidOperationException("libidlelock is older than this binding (header " + IdleLock.HeaderVersion + "): " + e.Message, e);
            }
            string prefix = "libidlelock " + Utf8At(idlelock_version()) + " does not match this binding (header " + IdleLock.HeaderVersion + "): ";
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
