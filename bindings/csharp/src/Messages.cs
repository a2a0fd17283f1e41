// SPDX-License-Identifier: MIT
// The library's messages in the binding's words, and the binding's own checks
// of its arguments (the .NET exceptions a C# caller expects).
using System;
using System.Collections.Generic;
using System.Text;
using System.Text.RegularExpressions;

namespace LibIdleLock
{
    internal static class Messages
    {
        // The C names the library's messages use, as this binding spells them:
        // generated from include/idlelock.h and bindings/names.txt. A name not
        // listed (a libsodium function, a file name) is left as it is.
        static readonly Dictionary<string, string> names = HeaderTables.Names;

        static readonly Regex token = new Regex(@"(?<![A-Za-z0-9_])(config\.)?([a-z][a-z0-9]*(?:_[a-z0-9]+)+|clock|authenticator|IDLELOCK_[A-Z0-9_]*[A-Z0-9](?:_\*)?)(?![A-Za-z0-9_])",
                                               RegexOptions.CultureInvariant);

        /// <summary>A message of the library with its C names replaced by the binding's
        /// (config.idle_after_ms -> IdleLockOptions.IdleAfterMs, IDLELOCK_NEVER -> IdleLock.Never).</summary>
        internal static string Translate(string message)
        {
            if (string.IsNullOrEmpty(message)) return message;
            string translated = token.Replace(message, m =>
            {
                string mine;
                bool prefixed = m.Groups[1].Success;
                string name = m.Groups[2].Value;
                if (names.TryGetValue(name, out mine))
                    return prefixed ? "IdleLockOptions." + mine : mine;
                if (prefixed) return "IdleLockOptions." + Pascal(name);
                if (name == "clock" || name == "authenticator") return m.Value; // plain words
                if (name.StartsWith("IDLELOCK_", StringComparison.Ordinal) && !name.StartsWith("IDLELOCK_ERR_", StringComparison.Ordinal))
                    return "IdleLock." + Pascal(name.Substring(9).ToLowerInvariant());
                return m.Value;
            });
            // LockOnStart is a bool here
            return translated.Replace("LockOnStart is 0", "LockOnStart is false").Replace("LockOnStart to 1", "LockOnStart to true");
        }

        /// <summary>The C name of a config field, for the ParamName of the
        /// InvalidArgumentException the constructor throws: the first option a message names.</summary>
        internal static string OptionNamed(string message)
        {
            if (message == null) return null;
            var m = Regex.Match(message, @"\bconfig\.([a-z_]+)");
            if (!m.Success) return null;
            string mine;
            return names.TryGetValue(m.Groups[1].Value, out mine) ? mine.Split('.')[0] : Pascal(m.Groups[1].Value);
        }

        static string Pascal(string snake)
        {
            var b = new StringBuilder(snake.Length);
            foreach (var part in snake.Split('_'))
            {
                if (part.Length == 0) continue;
                b.Append(char.ToUpperInvariant(part[0])).Append(part, 1, part.Length - 1);
            }
            return b.ToString();
        }
    }

    /// <summary>The binding's checks of its arguments, before the library is called.</summary>
    internal static class Arguments
    {
        internal static void NotNull(object value, string paramName)
        {
            if (value == null) throw new ArgumentNullException(paramName, paramName + " is null");
        }

        /// <summary>offset and count describe a range inside an array of length: the
        /// checks of Stream.Write, with the library's exception for a range outside.</summary>
        internal static void Range(int length, int offset, int count)
        {
            if (offset < 0) throw new ArgumentOutOfRangeException("offset", offset, "offset is negative");
            if (count < 0) throw new ArgumentOutOfRangeException("count", count, "count is negative");
            if (count > length - offset)
                throw new InvalidArgumentException("offset " + offset + " and count " + count +
                    " describe a range past the end of the array (length " + length + ")", "count");
        }
    }
}
