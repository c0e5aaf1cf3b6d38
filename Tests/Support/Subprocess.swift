import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`, for tests that run other programs (the `courier`
/// binary, curl, python, nginx, openssl, sha256sum).
///
/// Foundation's `Process` is not used because its `run()` trips AddressSanitizer inside
/// swift-corelibs-foundation (a heap-buffer-overflow in `findMaximumOpenFromProcSelfFD`), which
/// stops the whole test process; with this the suites that spawn programs run under ASan too.
/// The child gets `/dev/null` as standard input, default signal handling with nothing blocked
/// (libdispatch blocks signals in the test process, and a child would inherit that mask), and
/// none of the test process's other descriptors.
public final class Subprocess: @unchecked Sendable {
    // @unchecked Sendable: `pid` is constant; `exitStatus` and `captured` are behind `lock`.

    /// Where the child's standard output and error go.
    public enum OutputMode: Sendable {
        /// Collected; read them with `output()` once the child has exited.
        case capture
        /// Thrown away.
        case discard
    }

    /// What a finished child left.
    public struct Result: Sendable {
        /// The exit code, or 128 + the signal number when a signal ended it.
        public var status: Int32
        public var stdout: Data
        public var stderr: Data
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// A failure to start the child.
    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    public let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?
    private let group = DispatchGroup()
    private var captured: [Data] = [Data(), Data()]

    /// Starts `executable` (a path) with `arguments`.
    /// - Parameter environment: the child's whole environment; nil passes the test process's own.
    /// - Throws: `SpawnError` when the program cannot be started.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        output mode: OutputMode = .capture
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipes: [[Int32]] = []
        if mode == .capture {
            for target: Int32 in [1, 2] {
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { throw SpawnError(description: "pipe failed: errno \(errno)") }
                posix_spawn_file_actions_adddup2(&actions, ends[1], target)
                pipes.append(ends)
            }
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Only 0, 1 and 2 reach the child: not the test process's sockets, nor the pipes' own ends.
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let envp = variables.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }

        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        for ends in pipes { close(ends[1]) }
        guard status == 0 else {
            for ends in pipes { close(ends[0]) }
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        for (index, ends) in pipes.enumerated() {
            group.enter()
            let thread = Thread { [self] in
                let data = Self.readAll(ends[0])
                close(ends[0])
                lock.lock()
                captured[index] = data  // both readers write into one array: under the lock
                lock.unlock()
                group.leave()
            }
            thread.start()
        }
    }

    /// Waits for the child to exit, up to `timeout` seconds (forever when nil).
    /// - Returns: its status (see `Result.status`), or nil if it is still running at the deadline.
    @discardableResult
    public func wait(timeout: Double? = nil) -> Int32? {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            if let status = poll() { return status }
            if let deadline, Date() >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { poll() == nil }

    /// Sends `signal` to the child if it is still running.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` seconds, then kills the child (SIGKILL) if it is still running, and
    /// returns what it printed. Reads the output to the end, so call it once.
    public func finish(timeout: Double) -> Result {
        let status =
            wait(timeout: timeout)
            ?? {
                kill(pid, SIGKILL)
                return wait() ?? 128 + SIGKILL
            }()
        group.wait()
        lock.lock()
        defer { lock.unlock() }
        return Result(status: status, stdout: captured[0], stderr: captured[1])
    }

    /// Runs `executable` to the end (killed after `timeout` seconds) and returns what it printed.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        timeout: Double = 60
    ) throws -> Result {
        try Subprocess(executable, arguments, environment: environment).finish(timeout: timeout)
    }

    /// Runs `executable` to the end (killed after `timeout` seconds) and returns what it printed,
    /// polling with `Task.sleep` so that no cooperative thread is held while the program runs
    /// (a test that blocked one for a whole schemathesis run starved the rest of the suite).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        timeout: Double = 60
    ) async throws -> Result {
        let process = try Subprocess(executable, arguments, environment: environment)
        try await process.exit(within: timeout)
        return process.finish(timeout: 0)
    }

    /// Waits, without blocking a thread, until the child exits or `timeout` seconds pass.
    private func exit(within timeout: Double) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// A program of this package (`courier`, `notes-tool`), built next to the test bundle by
    /// `swift build --build-tests`; the debug build's copy when the bundle is elsewhere.
    public static func built(_ name: String, testFile: String = #filePath) -> URL {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ].compactMap { $0 }
        for directory in candidates {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: testFile).deletingLastPathComponent()
            .appendingPathComponent("../../.build/debug/\(name)").standardizedFileURL
    }

    /// The full path of `name` on PATH (or the usual system folders), if it is installed.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders =
            path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin"]
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            wait()
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare.
    private static let closeFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard
                let symbol = dlsym(
                    UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()

    /// Reaps the child once; later calls return the same status.
    private func poll() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        guard result == pid else { return nil }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
        let signal = raw & 0x7f
        exitStatus = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        return exitStatus
    }

    private static func readAll(_ descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }
}
