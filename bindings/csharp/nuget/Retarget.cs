// SPDX-License-Identifier: MIT
// Retarget.exe IN OUT NETSTANDARD_FACADE: makes the package's netstandard2.0
// assembly (make nuget, mk/csharp.mk) from the binding compiled by mcs
// against .NET Framework 4.7.1's reference assemblies.
//
// No .NET SDK, and so no netstandard 2.0 reference assembly, can be had on
// this machine (only Debian's packages and PyPI are reachable); Mono's mcs
// can only compile against .NET Framework reference assemblies. What makes
// an assembly a netstandard2.0 one is what it references: every type it
// uses resolves through the assembly "netstandard, Version=2.0.0.0,
// PublicKeyToken=cc7b13ffcd2ddd51", which each runtime implements (.NET 6+,
// Mono, Unity, Godot's .NET) by forwarding to its own core library. So this
// tool, with Mono.Cecil (Debian's mono-devel), moves every type reference
// of the framework assemblies (mscorlib, System, System.Core) to that
// assembly, after checking that netstandard 2.0 has the type: Mono's
// netstandard facade (NETSTANDARD_FACADE) forwards exactly the types of
// netstandard 2.0, and a type it does not list fails the build, naming it.
// Members are not checked here (a facade lists types only): the suites run
// this assembly on Mono (test-nuget), and the binding uses only members
// netstandard 2.0 has (Marshal, SafeHandle, GCHandle, AppDomain's exit
// events, Regex). The module version id is derived from the contents
// (Cecil's DeterministicMvid), so the same sources give the same bytes.
using System;
using System.Collections.Generic;
using System.Linq;
using Mono.Cecil;

static class Retarget
{
    static readonly string[] Framework = { "mscorlib", "System", "System.Core" };

    static int Main(string[] args)
    {
        if (args.Length != 3)
        {
            Console.Error.WriteLine("usage: Retarget.exe IN OUT NETSTANDARD_FACADE");
            return 2;
        }
        var facade = ModuleDefinition.ReadModule(args[2]);
        if (facade.Assembly.Name.Name != "netstandard" || facade.Assembly.Name.Version != new Version(2, 0, 0, 0))
        {
            Console.Error.WriteLine("Retarget: {0} is not netstandard 2.0.0.0 but {1}", args[2], facade.Assembly.Name);
            return 2;
        }
        var inStandard = new HashSet<string>(facade.ExportedTypes.Select(t => t.FullName));
        var netstandard = new AssemblyNameReference("netstandard", new Version(2, 0, 0, 0))
        {
            PublicKeyToken = new byte[] { 0xcc, 0x7b, 0x13, 0xff, 0xcd, 0x2d, 0xdd, 0x51 },
        };

        var module = ModuleDefinition.ReadModule(args[0]);
        var missing = new SortedSet<string>();
        foreach (var type in module.GetTypeReferences())
        {
            var outer = type;
            while (outer.DeclaringType != null) outer = outer.DeclaringType;
            var scope = outer.Scope as AssemblyNameReference;
            if (scope == null || !Framework.Contains(scope.Name)) continue;
            // Nested types are listed by their own full name too (Outer/Inner).
            if (!inStandard.Contains(type.FullName) && !inStandard.Contains(outer.FullName))
            {
                missing.Add(type.FullName + " (from " + scope.Name + ")");
                continue;
            }
            outer.Scope = netstandard;
        }
        if (missing.Count > 0)
        {
            Console.Error.WriteLine("Retarget: netstandard 2.0 has no {0}: the binding cannot target it as it is",
                string.Join(", ", missing));
            return 1;
        }
        var others = module.AssemblyReferences.Where(r => !Framework.Contains(r.Name)).ToList();
        if (others.Count > 0)
        {
            Console.Error.WriteLine("Retarget: {0} also references {1}: only the framework is expected",
                args[0], string.Join(", ", others.Select(r => r.FullName)));
            return 1;
        }
        module.AssemblyReferences.Clear();
        module.AssemblyReferences.Add(netstandard);
        module.Write(args[1], new WriterParameters { DeterministicMvid = true });

        // What was written references netstandard alone.
        var written = ModuleDefinition.ReadModule(args[1]);
        var refs = string.Join(", ", written.AssemblyReferences.Select(r => r.FullName));
        if (refs != netstandard.FullName)
        {
            Console.Error.WriteLine("Retarget: {0} references {1}, not netstandard alone", args[1], refs);
            return 1;
        }
        return 0;
    }
}
