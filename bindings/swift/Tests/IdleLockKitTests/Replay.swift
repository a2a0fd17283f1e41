// SPDX-License-Identifier: MIT
// The shipped lifecycle traces (traces/*.trace, their README.md
// has the format) replayed through the Swift API: every event is a call of
// IdleLockHandle (or of a BiometricRequest), the clock is the trace's
// time, biometrics=1 is a BiometricAuthenticator over a fake keystore that
// behaves as tools/replay/fake_keystore.h. It prints what the C replay tool
// (tools/replay/idlelock-replay.c) prints for the same file, so
// ReplayTests can compare the two byte for byte, as the Python and LuaJIT
// bindings' suites do: the binding decides as the core does. Only
// well-formed traces are replayed (the C tool's own suite checks its
// errors): a line this replay does not understand fails the test.
import CIdleLock
import CSodiumForTests
import Foundation
import IdleLockKit

struct ReplayError: Error, CustomStringConvertible {
    let description: String
}

/// tools/replay/fake_keystore.h as a BiometricAuthenticator: the host's
/// keystore, alive for the whole trace (across restarts).
final class FakeKeystore: BiometricAuthenticator, @unchecked Sendable {
    var available = true
    var nextAnswer = BiometricResult.ok
    var item: SecretBytes?

    var hasItem: Bool { item != nil }

    func wipe() {
        item?.wipe()
        item = nil
    }

    func keep(_ secret: SecretBytes) -> Bool {
        guard available, secret.count == 32 else { return false }
        item = secret.withUnsafeBytes { SecretBytes(copying: $0) }
        return true
    }

    func isAvailable() -> Bool { available }

    func storeSecret(_ secret: SecretBytes) throws {
        if !keep(secret) { throw BiometricCheckError.failed }
    }

    func loadSecret(reason: String?) async throws(BiometricCheckError) -> SecretBytes {
        let answer = nextAnswer
        nextAnswer = .ok
        switch answer {
        case .failed: throw .failed
        case .cancelled: throw .cancelled
        case .unavailable: throw .unavailable
        case .ok: break
        }
        guard available, let item else { throw .unavailable }
        return item.withUnsafeBytes { SecretBytes(copying: $0) }
    }

    func deleteSecret() { wipe() }

    func changeEnrolment() {
        item?.withUnsafeMutableBytes { bytes in
            for i in bytes.indices { bytes[i] = ~bytes[i] }
        }
    }
}

final class Replay {
    static let never = Int64.max
    static let statusNames = ["OK", "INVALID_ARGUMENT", "SESSION_LOCKED", "INVALID_PASSCODE", "LOCKED_OUT",
                              "LOCK_UNAVAILABLE", "NO_PASSCODE", "STORAGE", "NOT_FOUND", "BUFFER_TOO_SMALL",
                              "NO_MEMORY", "INTERNAL", "RETRY_LATER", "REAUTH_REQUIRED"]
    static let stateNames = ["UNLOCKED", "LOCKED", "LOCKED_OUT"]
    static let reasonNames = ["NONE", "IDLE", "BACKGROUNDED", "STARTUP", "MANUAL", "CLOCK"]
    static let answers: [String: BiometricResult] = ["ok": .ok, "fail": .failed, "cancel": .cancelled,
                                                      "unavailable": .unavailable]
    static let snapEvents: Set = ["start", "touch", "inactive", "background", "foreground", "check", "lock", "snapshot"]
    static let deviceKey = Array("idlelock-replay-test-device-key!".utf8)
    static let unlockReason = "Unlock the replayed session"

    let file: String
    let path: String
    var out = ""
    var line = 0
    var cfg: [String: Int64] = ["idle": never, "background": -1, "inactive": 30000, "grace": 1500, "attempts": 5,
                                "lock_on_start": 1, "warn": 0, "prompt_cap": 120000, "max_age": 0,
                                "after_reboot": 0, "max_uses": 0]
    var given: [String: Int64] = [:]
    var configSeen = false, eventSeen = false, headerPrinted = false
    var useStore = false, useDeviceKey = false, useBiometrics = false, wide = false
    let now = NowBox()
    var lock: IdleLockHandle?
    var lastStatus: Int32 = 0
    var snap: Snapshot?
    var value: [UInt8]?
    var events = 0, expects = 0, mismatches = 0
    let keystore = FakeKeystore()
    var storeDir: String?
    var storePath = ""
    var requests: [String: (purpose: String, request: BiometricRequest?, secret: SecretBytes?)] = [:]
    var reboots = 0

    final class NowBox: @unchecked Sendable {
        var value: Int64 = 0
    }

    /// `file` as the C tool shows it, read from `path`.
    init(file: String, path: String) {
        self.file = file
        self.path = path
    }

    // MARK: output

    static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return right ? fill + s : s + fill
    }

    func msText(_ v: Int64?) -> String { v.map(String.init) ?? "never" }
    func cfgMs(_ v: Int64) -> String { v == Self.never ? "never" : String(v) }

    var eventWidth: Int { useBiometrics || wide ? 18 : 10 }

    func printHeader() {
        if headerPrinted { return }
        headerPrinted = true
        var text = "== \(file): idle=\(cfgMs(cfg["idle"]!)) background="
        text += cfg["background"]! == -1 ? "same" : cfgMs(cfg["background"]!)
        text += " inactive=\(cfgMs(cfg["inactive"]!)) grace=\(cfgMs(cfg["grace"]!)) attempts=\(cfg["attempts"]!)"
        text += " lock_on_start=\(cfg["lock_on_start"]!)\(useBiometrics ? " biometrics=1" : "")"
        if cfg["warn"]! > 0 { text += " warn=\(cfg["warn"]!)" }
        if cfg["prompt_cap"]! != 120000 { text += " prompt_cap=\(cfg["prompt_cap"]!)" }
        if cfg["max_age"]! > 0 { text += " max_age=\(cfg["max_age"]!)" }
        if cfg["after_reboot"]! != 0 { text += " after_reboot=1" }
        if cfg["max_uses"]! > 0 { text += " max_uses=\(cfg["max_uses"]!)" }
        var columns = Self.pad("time", 8, right: true) + "  " + Self.pad("event", eventWidth) + "  " + Self.pad("status", 16)
        columns += "  " + Self.pad("state", 10) + "  " + Self.pad("reason", 12) + "  " + Self.pad("left", 4, right: true)
        columns += "  " + Self.pad("away", 4, right: true) + "  "
        if useBiometrics { columns += Self.pad("bio", 4, right: true) + "  " + Self.pad("avail", 5, right: true) + "  " }
        out += text + "\n" + columns + "until_idle\n"
    }

    static func escaped(_ data: [UInt8]) -> String {
        var s = ""
        for (i, b) in data.enumerated() {
            if i == 64 {
                s += "..."
                break
            }
            if b == 0x22 || b == 0x5C {
                s += "\\" + String(UnicodeScalar(b))
            } else if b >= 0x20 && b < 0x7F {
                s += String(UnicodeScalar(b))
            } else {
                s += "\\x" + (b < 16 ? "0" : "") + String(b, radix: 16)
            }
        }
        return s
    }

    static func name(_ names: [String], _ v: Int) -> String { v >= 0 && v < names.count ? names[v] : String(v) }

    func printEvent(_ ev: String, _ args: [[UInt8]]) {
        let s = snap!
        var text = Self.pad(String(now.value), 8, right: true) + "  " + Self.pad(ev, eventWidth) + "  "
        text += Self.pad(Self.name(Self.statusNames, Int(lastStatus)), 16) + "  "
        text += Self.pad(Self.name(Self.stateNames, Int(s.state.rawValue)), 10) + "  "
        text += Self.pad(Self.name(Self.reasonNames, Int(s.reason.rawValue)), 12) + "  "
        text += Self.pad(String(s.attemptsRemaining), 4, right: true) + "  " + Self.pad(s.isAway ? "1" : "0", 4, right: true) + "  "
        if useBiometrics {
            text += Self.pad(s.isBiometricsEnabled ? "1" : "0", 4, right: true) + "  "
            text += Self.pad(s.isBiometricsAvailable ? "1" : "0", 5, right: true) + "  "
        }
        text += msText(s.msUntilIdleLock)
        if cfg["warn"]! > 0 && s.isWarning { text += "  WARNING" }
        if s.isPasscodeRequired { text += "  PASSCODE-ONLY" }
        if let first = args.first, ev != "passcode" && ev != "unlock" { text += "  " + Self.escaped(first) }
        if let value { text += " = \"" + Self.escaped(value) + "\"" }
        out += text + "\n"
    }

    func malformed(_ message: String) -> ReplayError { ReplayError(description: "\(file):\(line): \(message)") }

    // MARK: config and expect

    func doConfig(_ tokens: [String]) throws {
        if eventSeen || configSeen { throw malformed("config after the first event, or twice") }
        configSeen = true
        for item in tokens.dropFirst() {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw malformed("config item '\(item)' is not key=value") }
            let (key, val) = (parts[0], parts[1])
            let v: Int64?
            switch key {
            case "idle", "inactive", "warn", "grace", "prompt_cap", "max_age": v = val == "never" ? Self.never : Int64(val)
            case "background": v = val == "same" ? -1 : val == "never" ? Self.never : Int64(val)
            case "attempts", "lock_on_start", "after_reboot", "max_uses": v = Int64(val)
            case "store", "device_key", "biometrics": v = val == "0" ? 0 : val == "1" ? 1 : nil
            default: throw malformed("unknown config key '\(key)'")
            }
            guard let v else { throw malformed("bad value '\(val)' for config key '\(key)'") }
            switch key {
            case "store": useStore = v == 1
            case "device_key": useDeviceKey = v == 1
            case "biometrics": useBiometrics = v == 1
            default:
                cfg[key] = v
                given[key] = v
                if ["prompt_cap", "max_age", "after_reboot", "max_uses"].contains(key) { wide = true }
            }
        }
    }

    func result(_ ok: Bool, _ key: String, _ want: String, _ got: String) {
        expects += 1
        if !ok {
            mismatches += 1
            out += "\(file):\(line): expected \(key)=\(want), got \(got)\n"
        }
    }

    func named(_ key: String, _ val: String, _ names: [String], _ got: Int) throws {
        guard let want = names.firstIndex(of: val) else { throw malformed("unknown \(key) '\(val)'") }
        result(want == got, key, val, Self.name(names, got))
    }

    func number(_ key: String, _ val: String, allowNever: Bool, _ got: Int64) throws {
        guard let want = allowNever && val == "never" ? Self.never : Int64(val) else {
            throw malformed("bad value '\(val)' for expect key '\(key)'")
        }
        result(want == got, key, val, allowNever && got == Self.never ? "never" : String(got))
    }

    func flag(_ key: String, _ val: String, _ got: Bool) throws {
        guard val == "0" || val == "1" else { throw malformed("expect key '\(key)' takes 0 or 1, not '\(val)'") }
        try number(key, val, allowNever: false, got ? 1 : 0)
    }

    func doExpect(_ tokens: [String], raw: [[UInt8]]) throws {
        guard eventSeen, let s = snap else { throw malformed("expect before any event") }
        for (index, item) in tokens.enumerated().dropFirst() {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { throw malformed("expect item '\(item)' is not key=value") }
            let (key, val) = (parts[0], parts[1])
            switch key {
            case "status": try named(key, val, Self.statusNames, Int(lastStatus))
            case "state": try named(key, val, Self.stateNames, Int(s.state.rawValue))
            case "reason": try named(key, val, Self.reasonNames, Int(s.reason.rawValue))
            case "attempts": try number(key, val, allowNever: false, Int64(s.attemptsRemaining))
            case "away": try flag(key, val, s.isAway)
            case "enabled": try flag(key, val, s.isEnabled)
            case "until_idle": try number(key, val, allowNever: true, s.msUntilIdleLock ?? Self.never)
            case "warning": try flag(key, val, s.isWarning)
            case "until_warning": try number(key, val, allowNever: true, s.msUntilWarning ?? Self.never)
            case "next": try number(key, val, allowNever: true, s.msUntilNextDeadline ?? Self.never)
            case "activity": try number(key, val, allowNever: false, s.lastActivityMs)
            case "value":
                let want = Array(raw[index].drop(while: { $0 != UInt8(ascii: "=") }).dropFirst())
                expects += 1
                if value != want {
                    mismatches += 1
                    let got = value.map { "\"" + Self.escaped($0) + "\"" }
                        ?? "no value (status \(Self.name(Self.statusNames, Int(lastStatus))))"
                    out += "\(file):\(line): expected value=\(String(decoding: want, as: UTF8.self)), got \(got)\n"
                }
            case "bio": try flag(key, val, s.isBiometricsEnabled)
            case "bio_available": try flag(key, val, s.isBiometricsAvailable)
            case "bio_item": try flag(key, val, keystore.hasItem)
            case "passcode_required": try flag(key, val, s.isPasscodeRequired)
            case "last_auth": try number(key, val, allowNever: true, s.lastAuthMs ?? Self.never)
            default: throw malformed("unknown expect key '\(key)'")
            }
        }
    }

    // MARK: the lock

    func options() -> IdleLockOptions {
        var o = IdleLockOptions()
        let now = self.now
        o.clock = { now.value }
        o.kdfOpslimit = 2
        o.kdfMemlimit = 19 * 1024 * 1024
        if let v = given["idle"] { o.idleAfterMs = v }
        if let v = given["background"] { o.backgroundAfterMs = v }
        if let v = given["inactive"] { o.inactiveAfterMs = v }
        if let v = given["grace"] { o.graceMs = v }
        if let v = given["attempts"] { o.maxAttempts = Int32(v) }
        if let v = given["lock_on_start"] { o.lockOnStart = v != 0 }
        if let v = given["warn"] { o.warnBeforeMs = v }
        if let v = given["prompt_cap"] { o.promptCapMs = v }
        if let v = given["max_age"] { o.passcodeMaxAgeMs = v }
        if let v = given["after_reboot"] { o.passcodeAfterReboot = v != 0 }
        if let v = given["max_uses"] { o.biometricMaxUses = Int32(v) }
        if useDeviceKey { o.deviceKey = Self.deviceKey.withUnsafeBytes { SecretBytes(copying: $0) } }
        if useBiometrics { o.unlockReason = Self.unlockReason }
        if useStore { o.storePath = storePath }
        return o
    }

    func ensureLock() throws {
        if lock != nil { return }
        if useStore && storeDir == nil {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idlelock-swift-replay-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
            storeDir = dir.path
            storePath = dir.appendingPathComponent("session.idlelock").path
        }
        printHeader()
        do {
            lock = try IdleLockHandle(options: options(), authenticator: useBiometrics ? keystore : nil)
        } catch {
            throw malformed("IdleLockHandle refused the config: \(error)")
        }
    }

    /// The C tool's stamp_other_boot: the store's two boot ids become
    /// another boot's, its integrity check recomputed.
    func stampOtherBoot() -> Bool {
        guard var buf = FileManager.default.contents(atPath: storePath).map(Array.init) else { return false }
        let n = buf.count
        guard n >= 460 + 32, n < 1 << 20, buf[8] == 2 else { return false }
        let number = String(reboots % 10000)
        let boot = Array(("replay-reboot-" + String(repeating: "0", count: 4 - number.count) + number + "-0000-000000000000").utf8)
        for offset in [64, 416] { buf.replaceSubrange(offset..<offset + 36, with: boot) }
        var subkey = [UInt8](repeating: 0, count: 32)
        var mac = [UInt8](repeating: 0, count: 32)
        if useDeviceKey {
            _ = Self.deviceKey.withUnsafeBufferPointer { key in
                crypto_kdf_derive_from_key(&subkey, 32, 1, "idlkstor", key.baseAddress!)
            }
            _ = crypto_generichash(&mac, 32, buf, UInt64(n - 32), subkey, 32)
        } else {
            _ = crypto_generichash(&mac, 32, buf, UInt64(n - 32), nil, 0)
        }
        buf.replaceSubrange(n - 32..<n, with: mac)
        return FileManager.default.createFile(atPath: storePath, contents: Data(buf))
    }

    func removeStore() {
        if let storeDir { try? FileManager.default.removeItem(atPath: storeDir) }
        storeDir = nil
    }

    // MARK: events

    /// (status, the call's snapshot when it reports one)
    func call(_ ev: String, _ args: [[UInt8]]) async throws(IdleLockError) -> Snapshot? {
        let lock = self.lock!
        let text = args.map { String(decoding: $0, as: UTF8.self) }
        switch ev {
        case "start": return try lock.start()
        case "touch": return try lock.touch()
        case "inactive": return try lock.inactive()
        case "background": return try lock.background()
        case "foreground": return try lock.foreground()
        case "check": return try lock.check()
        case "lock": return try lock.lock()
        case "snapshot": return try lock.snapshot()
        case "passcode": try await lock.setPasscode(args[0].withUnsafeBytes { SecretBytes(copying: $0) })
        case "unlock": return try await lock.unlock(passcode: args[0].withUnsafeBytes { SecretBytes(copying: $0) })
        case "disable": try lock.disable()
        case "put": try lock.putSecret(args[1].withUnsafeBytes { SecretBytes(copying: $0) }, named: text[0])
        case "get":
            let secret = try lock.secret(named: text[0])
            value = secret.withUnsafeBytes { Array($0) }
        case "remove": try lock.removeSecret(named: text[0])
        case "gate": try lock.requireUnlocked()
        case "enable-biometrics": try await lock.enableBiometrics()
        case "disable-biometrics": try lock.disableBiometrics()
        case "unlock-biometrics":
            keystore.nextAnswer = text.first.flatMap { Self.answers[$0] } ?? .ok
            defer { keystore.nextAnswer = .ok }
            return try await lock.unlockWithBiometrics()
        case "enrolment-change": keystore.changeEnrolment()
        case "bio-available": keystore.available = text[0] == "1"
        case "bio-begin":
            let enable = text[0] == "enable"
            let name = text.count == 2 ? text[1] : "req"
            requests[name] = (enable ? "enable" : "unlock", nil, nil)
            let request = enable ? try lock.beginBiometricEnable() : try lock.beginBiometricUnlock()
            requests[name] = (request.purpose == .enable ? "enable" : "unlock", request,
                              request.secret.map { s in s.withUnsafeBytes { SecretBytes(copying: $0) } })
            return request.snapshot
        case "bio-finish":
            return try bioFinish(text)
        case "recent-auth": try lock.requireRecentAuth(maxAgeMs: Int64(text[0])!)
        default: break
        }
        return nil
    }

    func bioFinish(_ text: [String]) throws(IdleLockError) -> Snapshot {
        let q = requests[text[0]]!
        let word = text[1]
        var result = Self.answers[word] ?? .ok
        var kept = false
        requests[text[0]]?.secret = nil
        let request = q.request!
        if q.purpose == "unlock" && result == .ok {
            let release = keystore.item!.withUnsafeBytes { SecretBytes(copying: $0) }
            if word == "wrong" { release.withUnsafeMutableBytes { $0[0] ^= 1 } }
            return try request.finish(secret: release)
        }
        if q.purpose == "enable" && result == .ok, let secret = q.secret {
            kept = keystore.keep(secret)
            if !kept { result = .failed }
        }
        do {
            return result == .ok ? try request.finish() : try request.finish(result: result)
        } catch {
            if kept { keystore.wipe() }
            throw error
        }
    }

    func runEvent(_ t: Int64, _ ev: String, _ args: [[UInt8]]) async throws {
        now.value = t
        eventSeen = true
        try ensureLock()
        events += 1
        value = nil
        let bioBefore = snap?.isBiometricsEnabled ?? false
        if ev == "restart" || ev == "reboot" {
            guard useStore else { throw malformed("\(ev) needs config store=1") }
            lock!.close()
            lock = nil
            if ev == "reboot" {
                reboots += 1
                if FileManager.default.fileExists(atPath: storePath) && !stampOtherBoot() {
                    throw malformed("reboot: the store cannot be rewritten")
                }
            }
            try ensureLock()
            lastStatus = 0
            snap = try lock!.snapshot()
        } else {
            var got: Snapshot?
            do {
                got = try await call(ev, args)
                lastStatus = 0
            } catch {
                if case .closed = error { throw malformed("the lock was closed") }
                lastStatus = error.status
                got = nil
            }
            if let got { snap = got } else { snap = try lock!.snapshot() }
        }
        // Without an authenticator the library cannot delete the host's
        // item: the host does, once the shortcut went off.
        if !useBiometrics && bioBefore && !(snap!.isBiometricsEnabled) { keystore.wipe() }
        printEvent(ev, args)
    }

    func doLine(_ raw: [UInt8]) async throws {
        let content = raw.split(separator: UInt8(ascii: "#"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let rawTokens = content.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }).map(Array.init)
        if rawTokens.isEmpty { return }
        let tokens = rawTokens.map { String(decoding: $0, as: UTF8.self) }
        if tokens[0] == "config" {
            try doConfig(tokens)
        } else if tokens[0] == "expect" {
            try doExpect(tokens, raw: rawTokens)
        } else {
            guard let t = Int64(tokens[0]), tokens.count >= 2 else { throw malformed("bad event line") }
            let ev = tokens[1]
            let known = Self.snapEvents.contains(ev) || ["passcode", "unlock", "disable", "put", "get", "remove", "gate",
                "restart", "enable-biometrics", "disable-biometrics", "unlock-biometrics", "enrolment-change",
                "bio-available", "bio-begin", "bio-finish", "recent-auth", "reboot"].contains(ev)
            guard known else { throw malformed("unknown event '\(ev)'") }
            try await runEvent(t, ev, Array(rawTokens.dropFirst(2)))
        }
    }

    /// Replays the trace; returns the C tool's exit status (0 or 1).
    func run() async throws -> Int32 {
        let data = Array(FileManager.default.contents(atPath: path) ?? Data())
        defer {
            lock?.close()
            removeStore()
        }
        for raw in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            line += 1
            try await doLine(Array(raw))
        }
        if data.last == UInt8(ascii: "\n") { line -= 1 }
        printHeader()
        out += "-- \(file): \(events) events, \(expects) expects, \(mismatches) failed\n\n"
        return mismatches > 0 ? 1 : 0
    }

    /// The C tool's output for one file, with its closing total line.
    static func replay(_ file: String, path: String) async throws -> (String, Int32) {
        let r = Replay(file: file, path: path)
        let rc = try await r.run()
        let total = "idlelock-replay: 1 trace, \(r.events) events, \(r.expects) expects, \(r.mismatches) failed\n"
        return (r.out + total, rc)
    }
}
