// SPDX-License-Identifier: MIT
// Every shipped trace (traces/*.trace) replayed through the
// Swift API (Replay.swift) gives exactly what the C replay tool gives: the
// same line for every event, the same expectations held, the same exit
// status. The C tool is build/idlelock-replay, named by IDLELOCK_REPLAY
// (make test-swift-api sets it).
import Foundation
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let traces: [String] = {
    let folder = repositoryRoot.appendingPathComponent("traces")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".trace") }.sorted().map { "traces/" + $0 }
}()

@Suite struct ReplayTests {
    @Test func everyTraceIsHere() {
        #expect(traces.count >= 27)
    }

    @Test(arguments: traces)
    func theSwiftAPIReplaysTheTraceAsTheCToolDoes(_ trace: String) async throws {
        let tool = try #require(ProcessInfo.processInfo.environment["IDLELOCK_REPLAY"],
                                "IDLELOCK_REPLAY must name build/idlelock-replay (make test-swift-api sets it)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [trace]
        process.currentDirectoryURL = repositoryRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let c = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the C tool itself failed on \(trace)")
        let (swift, rc) = try await Replay.replay(trace, path: repositoryRoot.appendingPathComponent(trace).path)
        #expect(swift == c)
        #expect(rc == process.terminationStatus)
    }
}
