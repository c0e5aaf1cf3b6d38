import Foundation

/// Runs the built `courier` executable and collects what it prints.
struct CourierProcess {
    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: String
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The `courier` binary next to the test bundle (`swift build --build-tests` builds both).
    static var executable: URL {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ].compactMap { $0 }
        for directory in candidates {
            let url = directory.appendingPathComponent("courier")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../.build/debug/courier").standardizedFileURL
    }

    /// Runs `courier arguments…` to completion with a time limit.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60)
        async throws -> Output
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "COURIER_TRANSPORT")
        env.merge(environment) { $1 }
        process.environment = env
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain both pipes while the child runs, so a large body cannot fill a pipe and stall it.
        async let out = Task.detached { stdout.fileHandleForReading.readDataToEndOfFile() }.value
        async let err = Task.detached { stderr.fileHandleForReading.readDataToEndOfFile() }.value
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: await out,
            stderr: String(decoding: await err, as: UTF8.self))
    }
}
