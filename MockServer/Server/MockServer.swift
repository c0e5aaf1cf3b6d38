import CourierPrimitives
import Foundation

/// An in-process HTTP/1.1 mock server: admin API, WireMock-style stubs, chaos, then your handlers.
///
/// Requests are answered on a few event-loop threads (``MockServerConfiguration/eventLoopCount``); handlers
/// run synchronously on those threads, so they must not block.
public final class MockServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: MockServerConfiguration
    let router: RequestRouter
    private let store: StubStore
    private let http: HTTPServer
    /// Whether the server has stopped, and who waits for it.
    private let stopped = Locked<(done: Bool, next: Int, waiters: [Int: CheckedContinuation<Void, Never>])>(
        (false, 0, [:]))

    /// Creates a server; nothing is bound until ``start()``.
    /// - Parameters:
    ///   - configuration: sockets, limits, stubs and chaos settings.
    ///   - handlers: handlers tried in order after the admin API, stubs and chaos.
    public init(configuration: MockServerConfiguration = .init(), handlers: [any HTTPHandler] = []) {
        self.configuration = configuration
        let store = StubStore(
            filesDirectory: configuration.mappingsDirectory.map { MappingLoader.layout(of: $0).files },
            globalTemplating: configuration.globalResponseTemplating)
        let router = RequestRouter(configuration: configuration, store: store, handlers: handlers)
        self.store = store
        self.router = router
        self.http = HTTPServer(
            context: HTTPServerContext(
                configuration: configuration, respondOnLoop: { request in router.respondOnLoop(request) },
                respond: { request in router.respond(to: request) }))
        router.shutdownHook.withLock { hook in
            hook = { [weak self] in
                guard let server = self else { return }
                // Off the loop thread that is answering: shutting down waits for the loops.
                let thread = Thread { server.shutdown() }
                thread.name = "courier-mock-admin-shutdown"
                thread.start()
            }
        }
    }

    deinit {
        http.shutdown()
    }

    /// Loads the mapping files, binds the socket and starts serving; afterwards ``port`` is the real port.
    /// - Throws: ``MockServerError`` when a mapping file is invalid (a `bodyFileName` that names no file in
    ///   `__files` included), the address cannot be bound, or the server was already started.
    public func start() throws {
        try loadMappings()
        do {
            try http.start()
        } catch let failure as SocketSystem.Failure {
            throw MockServerError(message: failure.description)
        }
    }

    /// Installs the mapping folder's stubs as the defaults, binding nothing (``start()`` and an
    /// in-process answerer both begin here).
    /// - Throws: ``MockServerError`` when a mapping file is invalid.
    package func loadMappings() throws {
        if let directory = configuration.mappingsDirectory {
            do {
                store.installDefaults(
                    try MappingLoader.load(
                        from: directory, globalTemplating: configuration.globalResponseTemplating))
            } catch {
                throw MockServerError(message: "cannot load mappings from \(directory.path): \(error)")
            }
        }
    }

    /// Answers `request` through the chain a connection's requests go through (admin API, stubs,
    /// chaos, handlers, the near-miss 404), without a socket; the journal records it.
    /// - Parameter request: the request, as a connection would have parsed it.
    /// - Returns: the whole response, or why it needs a socket.
    package func answerInProcess(_ request: ServerRequest) -> InProcessAnswer {
        let (response, matched) = router.respondReportingMatch(to: request)
        return InProcessAnswer(response, matched: matched, method: request.method)
    }

    /// The bound port (0 before ``start()``).
    public var port: Int { http.port }

    /// The server's base URL, `http://HOST:PORT`.
    public var baseURL: URL {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return URL(string: "http://\(host):\(port)")!  // allowed: host and port are always URL-safe here
    }

    /// Adds a stub from WireMock mapping JSON (one mapping, or `{"mappings": [...]}`).
    /// - Parameter json: the mapping document.
    /// - Returns: the ids of the added stubs.
    /// - Throws: ``MockServerError`` naming the problem when the text is not strict JSON (with the line and
    ///   column) or not a valid mapping (a `bodyFileName` that names no file in the files folder included).
    @discardableResult
    public func addStubs(json: Data) throws -> [String] {
        do {
            let stubs = try MappingLoader.mappings(
                in: try JSONValue.parseStrictly(json), location: "mapping",
                globalTemplating: store.globalTemplating, filesDirectory: store.bodyFilesDirectory)
            for stub in stubs { store.add(stub) }
            return stubs.map(\.id)
        } catch let error as ValuePattern.InvalidMapping {
            throw MockServerError(message: error.description)
        } catch {
            throw MockServerError(message: "mapping: \(error)")
        }
    }

    /// Removes every stub (files-loaded ones too, until ``resetStubs()``).
    public func removeAllStubs() {
        store.removeAll()
    }

    /// Returns to the stubs loaded from the mappings folder, with every scenario at `Started`, and clears the
    /// request journal (as `POST /__admin/reset` does).
    public func resetStubs() {
        store.resetToDefaults()
        router.journal.clear()
    }

    /// Starts recording: every request is forwarded to `targetBaseURL` until ``stopRecording()``, as
    /// `POST /__admin/recordings/start` does.
    /// - Parameter targetBaseURL: the upstream, e.g. `https://api.example.com`.
    /// - Throws: ``MockServerError`` when the URL is not http(s) or a recording is already running.
    public func startRecording(targetBaseURL: URL) throws {
        let spec: RecordSpec
        do {
            spec = try RecordSpec.parse(
                .object(["targetBaseUrl": .string(targetBaseURL.absoluteString)]), requireTarget: true)
        } catch {
            throw MockServerError(message: "\(error)")
        }
        guard router.recorder.start(spec) else {
            throw MockServerError(message: "a recording is already running")
        }
    }

    /// Stops recording: the recorded requests become stubs, saved with their bodies to the mappings folder
    /// when the server has one, as `POST /__admin/recordings/stop` does.
    /// - Returns: the ids of the new stubs.
    /// - Throws: ``MockServerError`` when no recording is running or the stubs cannot be saved.
    @discardableResult
    public func stopRecording() throws -> [String] {
        guard let (spec, exchanges, dropped) = router.recorder.stop() else {
            throw MockServerError(message: "no recording is running")
        }
        if dropped > 0 {
            router.log("the recording left out \(dropped) exchanges: over its budget of exchanges or bytes")
        }
        do {
            return try router.admin.installRecorded(exchanges, spec).map(\.id)
        } catch {
            throw MockServerError(message: "cannot keep the recorded stubs: \(error)")
        }
    }

    /// How many stubs are installed.
    public var stubCount: Int { store.all.count }

    /// The requests the journal holds (admin requests are not journaled), oldest first: what a test in
    /// this package reads to see what reached the server, without a request of its own.
    package var journaledRequests: [ServerRequest] { router.journal.snapshot().entries.map(\.request) }

    /// Stops accepting, lets in-flight responses finish for up to
    /// ``MockServerConfiguration/shutdownGracePeriod``, and closes every connection.
    ///
    /// Idempotent; blocks until the loop threads have exited, so from async code call ``stop()`` instead.
    /// Do not call it from a handler.
    public func shutdown() {
        http.shutdown()
        markStopped()
    }

    /// Returns once the server has stopped (after ``shutdown()``, ``stop()`` or `POST /__admin/shutdown`), or
    /// when the calling task is cancelled.
    public func waitUntilStopped() async {
        let ticket = stopped.withLock { state in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = stopped.withLock { state in
                    if state.done || Task.isCancelled { return true }
                    state.waiters[ticket] = continuation
                    return false
                }
                // Otherwise markStopped or the cancellation handler resumes it: whichever removes it first.
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            stopped.withLock { $0.waiters.removeValue(forKey: ticket) }?.resume()
        }
    }

    private func markStopped() {
        let waiters = stopped.withLock { state in
            state.done = true
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Shuts the server down as ``shutdown()`` does, waiting on a thread of its own rather than blocking
    /// the caller's: other tasks keep running meanwhile. Idempotent. Do not call it from a handler.
    public func stop() async {
        await http.shutdownOffThePool()
        markStopped()
    }
}

/// A mock server failure, such as a port already in use.
public struct MockServerError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var message: String

    /// Creates an error.
    /// - Parameter message: what went wrong.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Starts a mock server, runs `body` with it, and always shuts it down (with ``MockServer/stop()``, which
/// does not block the cooperative pool; responses still delayed for clients that have left are cut).
/// - Parameters:
///   - configuration: the server configuration (port 0 picks a free port).
///   - handlers: handlers tried after the admin API, stubs and chaos.
///   - body: the code using the running server.
/// - Returns: what `body` returns.
/// - Throws: ``MockServerError`` when the server cannot start, or what `body` throws.
public func withMockServer<T: Sendable>(
    configuration: MockServerConfiguration = .init(), handlers: [any HTTPHandler] = [],
    _ body: (MockServer) async throws -> T
) async throws -> T {
    let server = MockServer(configuration: configuration, handlers: handlers)
    try server.start()
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
