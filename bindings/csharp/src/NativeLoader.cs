// SPDX-License-Identifier: MIT
// Finds the native library the NuGet package ships beside the assembly, for
// runtimes that do not look there themselves.
//
// The package (make nuget) holds lib/net45/LibIdleLock.dll and
// runtimes/<rid>/native/libidlelock.so for linux-x64, linux-arm64 and
// linux-arm: the self-contained variant, whose soname is "libidlelock.so".
// .NET resolves runtimes/<rid>/native itself (the deps.json of a
// PackageReference); Mono does not. So before the first P/Invoke the binding
// looks for runtimes/<rid>/native/libidlelock.so beside the assembly (an
// app's bin folder, as the .NET SDK lays it out) and, only when the assembly
// is still inside the installed package (its folder is lib/<tfm>/), two levels
// up, at the package's own runtimes/ (never above an app's folder: a folder
// there may be writable by others, and a file planted in it would run in the
// app; tests/planted-library.sh), and loads it with
// dlopen, from IdleLock's static constructor: Mono resolves a P/Invoke when
// it compiles the method that calls it, so the library must be loaded before
// the first such method is compiled. The runtime's own lookup of [DllImport("idlelock")] then asks the
// loader for "libidlelock.so", which is that library already loaded (the
// loader matches a loaded library's soname before it searches any folder).
// Where there is no such folder (Unity's Plugins/, Godot, an iOS player, a
// library on LD_LIBRARY_PATH), nothing is loaded here and the runtime's own
// lookup decides, as before. Loading the same file .NET would load changes
// nothing there.
using System;
using System.IO;
using System.Runtime.InteropServices;

namespace LibIdleLock
{
    internal static class NativeLoader
    {
        const int RtldNow = 2;

        [DllImport("libdl.so.2", EntryPoint = "dlopen")] static extern IntPtr dlopen_libdl(string file, int mode);
        [DllImport("libc.so.6", EntryPoint = "dlopen")] static extern IntPtr dlopen_libc(string file, int mode);

        /// <summary>The file loaded from a runtimes/ folder, or null (read by the tests
        /// and by the not-found message).</summary>
        internal static string Loaded { get; private set; }

        /// <summary>Where the binding looked (for the not-found message), or null when it did not.</summary>
        internal static string Searched { get; private set; }

        /// <summary>The NuGet runtime identifier of this process's CPU on Linux
        /// (linux-x64, linux-arm64, linux-arm), from the ELF header of the running
        /// program: a 32-bit ARM process on a 64-bit kernel is linux-arm. Null
        /// elsewhere.</summary>
        internal static string Rid()
        {
            var head = new byte[20];
            try
            {
                using (var f = new FileStream("/proc/self/exe", FileMode.Open, FileAccess.Read))
                {
                    if (f.Read(head, 0, head.Length) != head.Length) return null;
                }
            }
            catch (Exception)
            {
                return null; // not Linux, or no /proc
            }
            if (head[0] != 0x7f || head[1] != (byte)'E' || head[2] != (byte)'L' || head[3] != (byte)'F' || head[5] != 1)
                return null; // not a little-endian ELF file
            int machine = head[18] | head[19] << 8;
            bool is64 = head[4] == 2;
            if (machine == 62 && is64) return "linux-x64";
            if (machine == 183 && is64) return "linux-arm64";
            if (machine == 40 && !is64) return "linux-arm";
            return null;
        }

        static bool tried;

        /// <summary>Loads the package's library when it lies beside the assembly, once. Never throws.</summary>
        internal static void LoadPackaged()
        {
            lock (typeof(NativeLoader))
            {
                if (tried) return;
                tried = true;
            }
            try
            {
                string rid = Rid();
                string location = typeof(NativeLoader).Assembly.Location; // "" under IL2CPP
                if (rid == null || string.IsNullOrEmpty(location)) return;
                string dir = Path.GetDirectoryName(Path.GetFullPath(location));
                string relative = Path.Combine(Path.Combine(Path.Combine("runtimes", rid), "native"), "libidlelock.so");
                var candidates = new System.Collections.Generic.List<string> { Path.Combine(dir, relative) };
                // Two folders up only from a package's own lib/<tfm>/: anywhere else that
                // folder is not the app's (an app in /tmp/x/bin would load /tmp/runtimes/...,
                // which any local user can create).
                string parent = Path.GetDirectoryName(dir);
                if (parent != null && Path.GetFileName(parent) == "lib")
                    candidates.Add(Path.Combine(Path.GetDirectoryName(parent) ?? parent, relative));
                Searched = string.Join(", ", candidates.ToArray());
                foreach (var path in candidates)
                {
                    if (!File.Exists(path)) continue;
                    if (Open(path) != IntPtr.Zero)
                    {
                        Loaded = path;
                        return;
                    }
                }
            }
            catch (Exception)
            {
                // the runtime's own lookup decides
            }
        }

        static IntPtr Open(string path)
        {
            try
            {
                return dlopen_libdl(path, RtldNow);
            }
            catch (Exception e) when (e is DllNotFoundException || e is EntryPointNotFoundException)
            {
                return dlopen_libc(path, RtldNow); // a C library with dlopen in libc alone
            }
        }
    }
}
