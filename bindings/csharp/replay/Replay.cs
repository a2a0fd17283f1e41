// SPDX-License-Identifier: MIT
// idlelock-replay-cs: the traces of traces replayed through the C#
// binding's public API, printing exactly what tools/replay/idlelock-replay.c
// prints (same header, event lines and totals), so that the two outputs can be
// compared byte for byte (compare-traces.sh, in make test-csharp). That is how
// a C# host knows the binding decides as the core does.
//
//   mono idlelock-replay-cs.exe FILE...
//
// The trace format is traces/README.md. Each event is the binding's
// call (IdleLock.Touch for `touch`, BiometricRequest.Finish for `bio-finish`,
// ...); its status is 0 or the IIdleLockError.Status of the exception it threw,
// and the state after it is the snapshot the call returned or its exception
// carried, else IdleLock.Snapshot() at the same clock reading, as the C tool
// does for the calls that take no snapshot. The host's keystore is a C# port of
// tools/replay/fake_keystore.h behind IAuthenticator. Exit status: 0 when every
// expect held, 1 when one did not, 2 for a trace this tool cannot run.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using LibIdleLock;

namespace LibIdleLock.Replay
{
    /// <summary>tools/replay/fake_keystore.h as an IAuthenticator: the host's keystore, which
    /// outlives restarts.</summary>
    sealed class FakeKeystore : IAuthenticator
    {
        public bool Available = true;
        public AuthResult NextAnswer = AuthResult.Ok;
        public bool HasSecret;
        public readonly byte[] Secret = new byte[IdleLock.AuthSecretBytes];

        public bool IsAvailable() { return Available; }

        /// <summary>fake_keystore_store_secret: false when the keystore refuses.</summary>
        public bool Keep(byte[] secret)
        {
            if (!Available || secret == null || secret.Length != IdleLock.AuthSecretBytes) return false;
            Buffer.BlockCopy(secret, 0, Secret, 0, Secret.Length);
            HasSecret = true;
            return true;
        }

        public void StoreSecret(byte[] secret)
        {
            if (!Keep(secret)) throw new AuthenticationException(AuthResult.Failed, "the fake keystore refuses the item");
        }

        public byte[] LoadSecret(string reason)
        {
            var answer = NextAnswer;
            NextAnswer = AuthResult.Ok;
            if (answer != AuthResult.Ok) throw new AuthenticationException(answer, "the fake keystore answers " + answer);
            if (!Available || !HasSecret) throw new AuthenticationException(AuthResult.Unavailable, "no item");
            return (byte[])Secret.Clone();
        }

        public void DeleteSecret() { Wipe(); }

        public void Wipe()
        {
            Array.Clear(Secret, 0, Secret.Length);
            HasSecret = false;
        }

        public void ChangeEnrolment()
        {
            if (!HasSecret) return;
            for (int i = 0; i < Secret.Length; i++) Secret[i] = (byte)~Secret[i];
        }
    }

    /// <summary>A trace this tool cannot run (the C tool's exit status 2).</summary>
    sealed class Malformed : Exception
    {
        public Malformed(string message) : base(message) { }
    }

    sealed class NamedRequest
    {
        public BiometricPurpose Purpose;
        public BiometricRequest Request; // null when the begin failed
        public bool HasSecret;           // an enable's secret, not yet used by a finish
    }

    sealed class Trace
    {
        const long Never = IdleLock.Never;
        const long DefaultPromptCapMs = 120000;
        static readonly string[] StatusNames =
        {
            "OK", "INVALID_ARGUMENT", "SESSION_LOCKED", "INVALID_PASSCODE", "LOCKED_OUT", "LOCK_UNAVAILABLE",
            "NO_PASSCODE", "STORAGE", "NOT_FOUND", "BUFFER_TOO_SMALL", "NO_MEMORY", "INTERNAL", "RETRY_LATER",
            "REAUTH_REQUIRED",
        };
        static readonly string[] StateNames = { "UNLOCKED", "LOCKED", "LOCKED_OUT" };
        static readonly string[] ReasonNames = { "NONE", "IDLE", "BACKGROUNDED", "STARTUP", "MANUAL", "CLOCK" };
        static readonly string[] Answers = { "ok", "fail", "cancel", "unavailable" };
        static readonly AuthResult[] AnswerCodes = { AuthResult.Ok, AuthResult.Failed, AuthResult.Cancelled, AuthResult.Unavailable };
        // The fixed device key of config device_key=1 and the prompt text of biometrics=1 (idlelock-replay.c).
        static readonly byte[] TestDeviceKey = Encoding.ASCII.GetBytes("idlelock-replay-test-device-key!");
        const string UnlockReason = "Unlock the replayed session";

        public static long TotalFiles, TotalEvents, TotalExpects, TotalMismatches;

        readonly string file;
        long line;
        // The config as the C tool shows it: idlelock_config_init's defaults, then the trace's keys.
        long idle = Never, background = IdleLock.SameAsIdle, inactive = 30000, grace = 1500, warn, promptCap = DefaultPromptCapMs, maxAge;
        int attempts = 5, lockOnStart = 1, afterReboot, maxUses;
        readonly HashSet<string> set = new HashSet<string>();
        bool configSeen, eventSeen, headerPrinted, useStore, useDeviceKey, useBiometrics, wide;
        long now;
        IdleLock lk;
        int lastStatus;
        Snapshot snap;
        byte[] value;
        long events, expects, mismatches;
        readonly FakeKeystore keystore = new FakeKeystore();
        string storeDir, storePath;
        readonly Dictionary<string, NamedRequest> requests = new Dictionary<string, NamedRequest>();
        readonly List<BiometricRequest> begun = new List<BiometricRequest>(); // kept: never dropped to a finalizer mid-trace
        int reboots;

        Trace(string file) { this.file = file; }

        Malformed Bad(string what) { return new Malformed(file + ":" + line + ": " + what); }

        // -- printing, as idlelock-replay.c ------------------------------------------

        static string Escaped(byte[] p)
        {
            var b = new StringBuilder();
            for (int i = 0; i < p.Length; i++)
            {
                if (i == 64) { b.Append("..."); break; }
                byte c = p[i];
                if (c == '"' || c == '\\') b.Append('\\').Append((char)c);
                else if (c >= 0x20 && c < 0x7f) b.Append((char)c);
                else b.Append("\\x").Append(c.ToString("x2"));
            }
            return b.ToString();
        }

        static string Ms(long v) { return v == Never ? "never" : v.ToString(); }

        static string Name(string[] names, long v) { return v >= 0 && v < names.Length ? names[v] : v.ToString(); }

        int EventWidth { get { return useBiometrics || wide ? 18 : 10; } }

        void PrintHeader()
        {
            if (headerPrinted) return;
            headerPrinted = true;
            var b = new StringBuilder();
            b.Append("== ").Append(file).Append(": idle=").Append(Ms(idle));
            b.Append(" background=").Append(background == IdleLock.SameAsIdle ? "same" : Ms(background));
            b.Append(" inactive=").Append(Ms(inactive)).Append(" grace=").Append(Ms(grace));
            b.Append(" attempts=").Append(attempts).Append(" lock_on_start=").Append(lockOnStart);
            if (useBiometrics) b.Append(" biometrics=1");
            if (warn > 0) b.Append(" warn=").Append(warn);
            if (promptCap != DefaultPromptCapMs) b.Append(" prompt_cap=").Append(promptCap);
            if (maxAge > 0) b.Append(" max_age=").Append(maxAge);
            if (afterReboot != 0) b.Append(" after_reboot=1");
            if (maxUses > 0) b.Append(" max_uses=").Append(maxUses);
            Console.WriteLine(b);
            b.Clear();
            b.Append(string.Format("{0,8}  ", "time")).Append("event".PadRight(EventWidth)).Append("  ")
             .Append("status".PadRight(16)).Append("  ").Append("state".PadRight(10)).Append("  ")
             .Append("reason".PadRight(12)).Append(string.Format("  {0,4}  {1,4}  ", "left", "away"));
            if (useBiometrics) b.Append(string.Format("{0,4}  {1,5}  ", "bio", "avail"));
            b.Append("until_idle");
            Console.WriteLine(b);
        }

        void PrintEvent(string ev, List<byte[]> args)
        {
            var s = snap;
            var b = new StringBuilder();
            b.Append(string.Format("{0,8}  ", now)).Append(ev.PadRight(EventWidth)).Append("  ")
             .Append(Name(StatusNames, lastStatus).PadRight(16)).Append("  ")
             .Append(Name(StateNames, (int)s.State).PadRight(10)).Append("  ")
             .Append(Name(ReasonNames, (int)s.Reason).PadRight(12))
             .Append(string.Format("  {0,4}  {1,4}  ", s.AttemptsRemaining, s.IsAway ? 1 : 0));
            if (useBiometrics) b.Append(string.Format("{0,4}  {1,5}  ", s.IsBiometricsEnabled ? 1 : 0, s.IsBiometricsAvailable ? 1 : 0));
            b.Append(Ms(s.MsUntilIdleLock));
            if (warn > 0 && s.IsWarning) b.Append("  WARNING");
            if (s.IsPasscodeRequired) b.Append("  PASSCODE-ONLY");
            if (args.Count > 0 && ev != "passcode" && ev != "unlock") b.Append("  ").Append(Escaped(args[0]));
            if (value != null) b.Append(" = \"").Append(Escaped(value)).Append('"');
            Console.WriteLine(b);
        }

        // -- numbers -------------------------------------------------------------------

        static bool Int64(string s, out long v)
        {
            v = 0;
            if (s.Length == 0 || s == "+" || s == "-") return false;
            for (int i = (s[0] == '+' || s[0] == '-') ? 1 : 0; i < s.Length; i++) if (s[i] < '0' || s[i] > '9') return false;
            return long.TryParse(s, System.Globalization.NumberStyles.AllowLeadingSign, System.Globalization.CultureInfo.InvariantCulture, out v);
        }

        long MsValue(string key, string s)
        {
            long v;
            if (s == "never") return Never;
            if (!Int64(s, out v)) throw Bad("bad value '" + s + "' for config key '" + key + "'");
            return v;
        }

        int IntValue(string key, string s)
        {
            long v;
            if (!Int64(s, out v) || v < int.MinValue || v > int.MaxValue) throw Bad("bad value '" + s + "' for config key '" + key + "'");
            return (int)v;
        }

        bool Flag(string key, string s)
        {
            if (s != "0" && s != "1") throw Bad("bad value '" + s + "' for config key '" + key + "'");
            return s == "1";
        }

        // -- config --------------------------------------------------------------------

        void Config(List<string> tok)
        {
            if (eventSeen) throw Bad("config after the first event");
            if (configSeen) throw Bad("config given twice");
            configSeen = true;
            foreach (var item in tok.Skip(1))
            {
                int eq = item.IndexOf('=');
                if (eq <= 0) throw Bad("config item '" + item + "' is not key=value");
                string key = item.Substring(0, eq), val = item.Substring(eq + 1);
                if (!set.Add(key)) throw Bad("config key '" + key + "' given twice");
                switch (key)
                {
                    case "idle": idle = MsValue(key, val); break;
                    case "background": background = val == "same" ? IdleLock.SameAsIdle : MsValue(key, val); break;
                    case "inactive": inactive = MsValue(key, val); break;
                    case "warn": warn = MsValue(key, val); break;
                    case "grace": grace = MsValue(key, val); break;
                    case "attempts": attempts = IntValue(key, val); break;
                    case "lock_on_start": lockOnStart = IntValue(key, val); break;
                    case "store": useStore = Flag(key, val); break;
                    case "device_key": useDeviceKey = Flag(key, val); break;
                    case "biometrics": useBiometrics = Flag(key, val); break;
                    case "prompt_cap": promptCap = MsValue(key, val); wide = true; break;
                    case "max_age": maxAge = MsValue(key, val); wide = true; break;
                    case "after_reboot": afterReboot = IntValue(key, val); wide = true; break;
                    case "max_uses": maxUses = IntValue(key, val); wide = true; break;
                    default: throw Bad("unknown config key '" + key + "'");
                }
            }
        }

        IdleLockOptions Options()
        {
            if (lockOnStart != 0 && lockOnStart != 1) throw Bad("lock_on_start=" + lockOnStart + " has no C# form (a bool)");
            if (afterReboot != 0 && afterReboot != 1) throw Bad("after_reboot=" + afterReboot + " has no C# form (a bool)");
            var o = new IdleLockOptions
            {
                IdleAfterMs = idle, BackgroundAfterMs = background, InactiveAfterMs = inactive, GraceMs = grace,
                MaxAttempts = attempts, LockOnStart = lockOnStart == 1, WarnBeforeMs = warn, PromptCapMs = promptCap,
                PasscodeMaxAgeMs = maxAge, PasscodeAfterReboot = afterReboot == 1, BiometricMaxUses = maxUses,
                KdfOpslimit = IdleLock.KdfOpslimitMin, KdfMemlimit = IdleLock.KdfMemlimitMin,
                Clock = () => now,
            };
            if (useDeviceKey) o.DeviceKey = TestDeviceKey;
            if (useBiometrics)
            {
                o.Authenticator = keystore;
                o.UnlockReason = UnlockReason;
            }
            if (useStore)
            {
                if (storeDir == null)
                {
                    storeDir = Path.Combine(Path.GetTempPath(), "idlelock-replay-cs-" + Guid.NewGuid().ToString("N"));
                    Directory.CreateDirectory(storeDir);
                    storePath = Path.Combine(storeDir, "session.idlelock");
                }
                o.StorePath = storePath;
            }
            return o;
        }

        void EnsureLock()
        {
            if (lk != null) return;
            var o = Options();
            PrintHeader();
            try
            {
                lk = new IdleLock(o);
            }
            catch (Exception e)
            {
                throw Bad("the binding refused the config: " + e.Message);
            }
        }

        void RemoveStore()
        {
            if (storeDir == null) return;
            File.Delete(storePath);
            File.Delete(storePath + ".lock");
            Directory.Delete(storeDir);
            storeDir = null;
        }

        // -- reboot: the store's boot ids rewritten (idlelock-replay.c, stamp_other_boot) ---

        [DllImport("libsodium.so.23")] static extern int crypto_generichash(byte[] o, UIntPtr olen, byte[] i, ulong ilen, byte[] key, UIntPtr keylen);
        [DllImport("libsodium.so.23")] static extern int crypto_kdf_derive_from_key(byte[] sub, UIntPtr sublen, ulong id, byte[] ctx, byte[] key);

        void StampOtherBoot()
        {
            if (!File.Exists(storePath)) return;
            var buf = File.ReadAllBytes(storePath);
            int n = buf.Length;
            if (n < 460 + 32 || buf[8] != 2) throw Bad("reboot: the store is no version-2 store, or cannot be rewritten");
            var boot = Encoding.ASCII.GetBytes(string.Format("replay-reboot-{0:D4}-0000-000000000000", reboots % 10000));
            foreach (int at in new[] { 64, 416 }) Buffer.BlockCopy(boot, 0, buf, at, 36);
            var body = new byte[n - 32];
            Buffer.BlockCopy(buf, 0, body, 0, body.Length);
            var hash = new byte[32];
            if (useDeviceKey)
            {
                var sub = new byte[32];
                crypto_kdf_derive_from_key(sub, new UIntPtr(32), 1, Encoding.ASCII.GetBytes("idlkstor"), TestDeviceKey);
                crypto_generichash(hash, new UIntPtr(32), body, (ulong)body.Length, sub, new UIntPtr(32));
                Array.Clear(sub, 0, sub.Length);
            }
            else
            {
                crypto_generichash(hash, new UIntPtr(32), body, (ulong)body.Length, null, UIntPtr.Zero);
            }
            Buffer.BlockCopy(hash, 0, buf, n - 32, 32);
            File.WriteAllBytes(storePath, buf);
        }

        // -- events --------------------------------------------------------------------

        static readonly Dictionary<string, int[]> Arity = new Dictionary<string, int[]>
        {
            { "start", new[] { 0, 0 } }, { "touch", new[] { 0, 0 } }, { "inactive", new[] { 0, 0 } },
            { "background", new[] { 0, 0 } }, { "foreground", new[] { 0, 0 } }, { "check", new[] { 0, 0 } },
            { "lock", new[] { 0, 0 } }, { "snapshot", new[] { 0, 0 } },
            { "passcode", new[] { 1, 1 } }, { "unlock", new[] { 1, 1 } }, { "disable", new[] { 0, 0 } },
            { "put", new[] { 2, 2 } }, { "get", new[] { 1, 1 } }, { "remove", new[] { 1, 1 } }, { "gate", new[] { 0, 0 } },
            { "restart", new[] { 0, 0 } }, { "enable-biometrics", new[] { 0, 0 } }, { "disable-biometrics", new[] { 0, 0 } },
            { "unlock-biometrics", new[] { 0, 1 } }, { "enrolment-change", new[] { 0, 0 } }, { "bio-available", new[] { 1, 1 } },
            { "bio-begin", new[] { 1, 2 } }, { "bio-finish", new[] { 2, 2 } }, { "recent-auth", new[] { 1, 1 } },
            { "reboot", new[] { 0, 0 } },
        };

        static string S(byte[] b) { return Encoding.UTF8.GetString(b); }

        /// <summary>Runs one call: its status (0, or the status its exception reports) and the
        /// snapshot it returned or carried (null when it has none).</summary>
        static int Call(Func<Snapshot> call, out Snapshot result)
        {
            result = null;
            try
            {
                result = call();
                return 0;
            }
            catch (Exception e) when (e is IIdleLockError)
            {
                result = ((IIdleLockError)e).Snapshot;
                return ((IIdleLockError)e).Status;
            }
        }

        static int Call(Action call)
        {
            Snapshot unused;
            return Call(() => { call(); return null; }, out unused);
        }

        void Event(List<string> tok, List<byte[]> raw)
        {
            long t;
            if (!Int64(tok[0], out t)) throw Bad("bad time '" + tok[0] + "' (a signed 64-bit decimal)");
            if (tok.Count < 2) throw Bad("missing event after the time");
            string ev = tok[1];
            int[] arity;
            if (!Arity.TryGetValue(ev, out arity)) throw Bad("unknown event '" + ev + "'");
            var args = raw.Skip(2).ToList();
            var sargs = tok.Skip(2).ToList();
            if (args.Count < arity[0] || args.Count > arity[1]) throw Bad("event '" + ev + "' takes " + arity[0] + ".." + arity[1] + " arguments");
            now = t;
            eventSeen = true;
            EnsureLock();
            events++;
            value = null;
            bool bioBefore = snap != null && snap.IsBiometricsEnabled;
            Snapshot result = null;
            int st;
            switch (ev)
            {
                case "start": st = Call(() => lk.Start(), out result); break;
                case "touch": st = Call(lk.Touch); break; // no snapshot: Snapshot() below
                case "inactive": st = Call(() => lk.Inactive(), out result); break;
                case "background": st = Call(() => lk.Background(), out result); break;
                case "foreground": st = Call(() => lk.Foreground(), out result); break;
                case "check": st = Call(() => lk.Check(), out result); break;
                case "lock": st = Call(() => lk.Lock(), out result); break;
                case "snapshot": st = Call(() => lk.Snapshot(), out result); break;
                case "passcode": st = Call(() => lk.SetPasscodeUtf8(args[0])); break;
                case "unlock": st = Call(() => lk.UnlockUtf8(args[0]), out result); break;
                case "disable": st = Call(lk.Disable); break;
                case "put": st = Call(() => lk.PutSecret(S(args[0]), args[1])); break;
                case "get":
                    byte[] got = null;
                    st = Call(() => got = lk.GetSecret(S(args[0])));
                    value = got;
                    break;
                case "remove": st = Call(() => lk.RemoveSecret(S(args[0]))); break;
                case "gate": st = Call(lk.RequireUnlocked); break;
                case "enable-biometrics": st = Call(lk.EnableBiometrics); break;
                case "disable-biometrics": st = Call(lk.DisableBiometrics); break;
                case "recent-auth":
                    long ms;
                    if (!Int64(sargs[0], out ms)) throw Bad("recent-auth takes ms, not '" + sargs[0] + "'");
                    st = Call(() => lk.RequireRecentAuth(ms));
                    break;
                case "enrolment-change":
                    if (!useBiometrics) throw Bad("enrolment-change needs config biometrics=1");
                    keystore.ChangeEnrolment();
                    st = 0;
                    break;
                case "bio-available":
                    if (!useBiometrics) throw Bad("bio-available needs config biometrics=1");
                    keystore.Available = Flag("bio-available", sargs[0]);
                    st = 0;
                    break;
                case "unlock-biometrics":
                    int k = sargs.Count == 1 ? Array.IndexOf(Answers, sargs[0]) : 0;
                    if (k < 0) throw Bad("unknown answer '" + sargs[0] + "' for unlock-biometrics");
                    keystore.NextAnswer = AnswerCodes[k];
                    st = Call(() => lk.UnlockWithBiometrics(), out result);
                    keystore.NextAnswer = AuthResult.Ok;
                    break;
                case "restart":
                case "reboot":
                    if (!useStore) throw Bad(ev + " needs config store=1");
                    lk.Dispose();
                    lk = null;
                    if (ev == "reboot")
                    {
                        reboots++;
                        StampOtherBoot();
                    }
                    EnsureLock();
                    st = 0;
                    break;
                case "bio-begin": st = BioBegin(sargs, out result); break;
                case "bio-finish": st = BioFinish(sargs, out result); break;
                default: throw Bad("unknown event '" + ev + "'");
            }
            lastStatus = st;
            if (result == null || st == 1)
            {
                int sst = Call(() => lk.Snapshot(), out result);
                if (sst != 0)
                {
                    mismatches++;
                    Console.WriteLine(file + ":" + line + ": idlelock_snapshot_get failed: " + Name(StatusNames, sst));
                }
            }
            snap = result;
            // Without an authenticator the host deletes its own item once the shortcut went off.
            if (!useBiometrics && bioBefore && !snap.IsBiometricsEnabled) keystore.Wipe();
            PrintEvent(ev, args);
        }

        int BioBegin(List<string> a, out Snapshot result)
        {
            if (a[0] != "unlock" && a[0] != "enable") throw Bad("bio-begin takes unlock or enable, not '" + a[0] + "'");
            string name = a.Count == 2 ? a[1] : "req";
            var q = new NamedRequest { Purpose = a[0] == "enable" ? BiometricPurpose.Enable : BiometricPurpose.Unlock };
            requests[name] = q;
            BiometricRequest r = null;
            int st = Call(() =>
            {
                r = q.Purpose == BiometricPurpose.Enable ? lk.BeginBiometricEnable() : lk.BeginBiometricUnlock();
                return r.Snapshot;
            }, out result);
            q.Request = r;
            q.HasSecret = r != null && q.Purpose == BiometricPurpose.Enable;
            if (r != null) begun.Add(r);
            return st;
        }

        int BioFinish(List<string> a, out Snapshot result)
        {
            NamedRequest q;
            if (!requests.TryGetValue(a[0], out q)) throw Bad("bio-finish of '" + a[0] + "', which no bio-begin named");
            string[] results = { "ok", "fail", "cancel", "unavailable", "wrong" };
            int k = Array.IndexOf(results, a[1]);
            if (k < 0) throw Bad("unknown result '" + a[1] + "' for bio-finish");
            if (q.Purpose == BiometricPurpose.Enable && k == 4) throw Bad("bio-finish ... wrong is for an unlock request");
            var outcome = k == 4 ? AuthResult.Ok : AnswerCodes[k];
            if (q.Purpose == BiometricPurpose.Unlock && outcome == AuthResult.Ok && !keystore.HasSecret)
                throw Bad("bio-finish " + a[1] + ": the fake keystore holds no item to release");
            if (q.Request == null)
                throw Bad("bio-finish of '" + a[0] + "', whose bio-begin failed: the C# binding hands out no request to finish");
            byte[] release = null;
            bool kept = false;
            if (q.Purpose == BiometricPurpose.Unlock && outcome == AuthResult.Ok)
            {
                release = (byte[])keystore.Secret.Clone();
                if (k == 4) release[0] ^= 1;
            }
            if (q.Purpose == BiometricPurpose.Enable && outcome == AuthResult.Ok && q.HasSecret)
            {
                // The check passed: the host keeps the secret behind it (or fails to, and says so).
                kept = keystore.Keep(q.Request.Secret);
                if (!kept) outcome = AuthResult.Failed;
            }
            q.HasSecret = false;
            var request = q.Request;
            int st = Call(() => request.Finish(outcome, release), out result);
            if (kept && st != 0) keystore.Wipe(); // an enable the library did not take: the host deletes it
            return st;
        }

        // -- expect --------------------------------------------------------------------

        void Result(bool ok, string key, string want, string got)
        {
            expects++;
            if (ok) return;
            mismatches++;
            Console.WriteLine(file + ":" + line + ": expected " + key + "=" + want + ", got " + got);
        }

        void Named(string key, string val, string[] names, long got)
        {
            int want = Array.IndexOf(names, val);
            if (want < 0) throw Bad("unknown " + key + " '" + val + "'");
            Result(want == got, key, val, Name(names, got));
        }

        void Number(string key, string val, bool allowNever, long got)
        {
            long want;
            if (allowNever && val == "never") want = Never;
            else if (!Int64(val, out want)) throw Bad("bad value '" + val + "' for expect key '" + key + "'");
            Result(want == got, key, val, allowNever && got == Never ? "never" : got.ToString());
        }

        void Flag01(string key, string val, bool got)
        {
            if (val != "0" && val != "1") throw Bad("expect key '" + key + "' takes 0 or 1, not '" + val + "'");
            Number(key, val, false, got ? 1 : 0);
        }

        void Expect(List<string> tok, List<byte[]> raw)
        {
            if (!eventSeen) throw Bad("expect before any event");
            if (tok.Count < 2) throw Bad("expect with nothing to check");
            var s = snap;
            for (int i = 1; i < tok.Count; i++)
            {
                int eq = tok[i].IndexOf('=');
                if (eq <= 0) throw Bad("expect item '" + tok[i] + "' is not key=value");
                string key = tok[i].Substring(0, eq), val = tok[i].Substring(eq + 1);
                switch (key)
                {
                    case "status": Named(key, val, StatusNames, lastStatus); break;
                    case "state": Named(key, val, StateNames, (int)s.State); break;
                    case "reason": Named(key, val, ReasonNames, (int)s.Reason); break;
                    case "attempts": Number(key, val, false, s.AttemptsRemaining); break;
                    case "away": Flag01(key, val, s.IsAway); break;
                    case "enabled": Flag01(key, val, s.IsEnabled); break;
                    case "until_idle": Number(key, val, true, s.MsUntilIdleLock); break;
                    case "warning": Flag01(key, val, s.IsWarning); break;
                    case "until_warning": Number(key, val, true, s.MsUntilWarning); break;
                    case "next": Number(key, val, true, s.MsUntilNextDeadline); break;
                    case "activity": Number(key, val, false, s.LastActivityMs); break;
                    case "bio": Flag01(key, val, s.IsBiometricsEnabled); break;
                    case "bio_available": Flag01(key, val, s.IsBiometricsAvailable); break;
                    case "bio_item": Flag01(key, val, keystore.HasSecret); break;
                    case "passcode_required": Flag01(key, val, s.IsPasscodeRequired); break;
                    case "last_auth": Number(key, val, true, s.LastAuthMs); break;
                    case "value":
                        // The value's raw bytes, as the trace holds them.
                        var want = raw[i].Skip(eq + 1).ToArray();
                        bool ok = value != null && value.SequenceEqual(want);
                        expects++;
                        if (!ok)
                        {
                            mismatches++;
                            Console.WriteLine(file + ":" + line + ": expected value=" + val + ", got " +
                                (value != null ? "\"" + Escaped(value) + "\"" : "no value (status " + Name(StatusNames, lastStatus) + ")"));
                        }
                        break;
                    default: throw Bad("unknown expect key '" + key + "'");
                }
            }
        }

        // -- lines and files -----------------------------------------------------------

        static readonly byte[] Blanks = Encoding.ASCII.GetBytes(" \t\r\n\v\f");

        void Line(byte[] bytes)
        {
            int hash = Array.IndexOf(bytes, (byte)'#');
            int end = hash < 0 ? bytes.Length : hash;
            if (Array.IndexOf(bytes, (byte)0, 0, end) >= 0) throw Bad("NUL byte in line");
            var raw = new List<byte[]>();
            int i = 0;
            while (i < end)
            {
                while (i < end && Array.IndexOf(Blanks, bytes[i]) >= 0) i++;
                int start = i;
                while (i < end && Array.IndexOf(Blanks, bytes[i]) < 0) i++;
                if (i > start) raw.Add(bytes.Skip(start).Take(i - start).ToArray());
            }
            if (raw.Count == 0) return;
            if (raw.Count > 32) throw Bad("more than 32 items on one line");
            var tok = raw.Select(S).ToList();
            if (tok[0] == "config") Config(tok);
            else if (tok[0] == "expect") Expect(tok, raw);
            else Event(tok, raw);
        }

        /// <summary>Replays one file: 0, 1 (an expect failed) or throws Malformed.</summary>
        public static int Run(string path)
        {
            var trace = new Trace(path);
            var bytes = File.ReadAllBytes(path);
            try
            {
                int start = 0;
                while (start < bytes.Length)
                {
                    int nl = Array.IndexOf(bytes, (byte)'\n', start);
                    int stop = nl < 0 ? bytes.Length : nl + 1;
                    trace.line++;
                    trace.Line(bytes.Skip(start).Take(stop - start).ToArray());
                    start = stop;
                }
            }
            finally
            {
                if (trace.lk != null) trace.lk.Dispose();
                trace.RemoveStore();
                TotalFiles++;
                TotalEvents += trace.events;
                TotalExpects += trace.expects;
                TotalMismatches += trace.mismatches;
            }
            trace.PrintHeader();
            Console.WriteLine("-- " + path + ": " + trace.events + " events, " + trace.expects + " expects, " + trace.mismatches + " failed");
            Console.WriteLine();
            return trace.mismatches > 0 ? 1 : 0;
        }
    }

    static class Program
    {
        static int Main(string[] args)
        {
            if (args.Length == 0)
            {
                Console.Error.WriteLine("usage: idlelock-replay-cs FILE...");
                return 2;
            }
            int status = 0;
            foreach (var path in args)
            {
                try
                {
                    if (Trace.Run(path) != 0) status = 1;
                }
                catch (Malformed e)
                {
                    Console.Out.Flush();
                    Console.Error.WriteLine(e.Message);
                    return 2;
                }
            }
            long files = Trace.TotalFiles;
            Console.WriteLine("idlelock-replay: " + files + " trace" + (files == 1 ? "" : "s") + ", " + Trace.TotalEvents + " events, " +
                              Trace.TotalExpects + " expects, " + Trace.TotalMismatches + " failed");
            return status;
        }
    }
}
