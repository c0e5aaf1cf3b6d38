import CourierPrimitives
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every loop shares: the configuration, derived limits and the function that answers requests.
final class HTTPServerContext: Sendable {
    /// The figures a connection reads on every request, copied out of the configuration once: reading
    /// them through the configuration copies the whole struct (and retains everything it holds).
    struct ConnectionSettings: Sendable {
        var maxPipelinedRequests: Int
        var bodySpillThreshold: Int
        var idleTimeout: UInt64
        var requestTimeout: UInt64
        var writeTimeout: UInt64
        var responseTimeout: UInt64
    }

    let configuration: MockServerConfiguration
    let settings: ConnectionSettings
    let limits: HTTPRequestParser.Limits
    let spillDirectory: String
    let respond: @Sendable (ServerRequest) -> ServerResponse
    /// The answer when it is cheap enough to make on an event loop (a static stub matched by the request
    /// line and headers); nil sends the request to ``handlerQueue``.
    let respondOnLoop: @Sendable (ServerRequest) -> ServerResponse?
    /// Where requests are answered when their answer is not cheap: off the event loops, so that
    /// validation, templating, parsing and disk I/O never stall the connections a loop serves.
    let handlerQueue = DispatchQueue(
        label: "MockServer.handlers", qos: .userInitiated, attributes: .concurrent)

    init(
        configuration: MockServerConfiguration,
        respondOnLoop: @escaping @Sendable (ServerRequest) -> ServerResponse? = { _ in nil },
        respond: @escaping @Sendable (ServerRequest) -> ServerResponse
    ) {
        self.respondOnLoop = respondOnLoop
        self.configuration = configuration
        self.settings = ConnectionSettings(
            maxPipelinedRequests: configuration.maxPipelinedRequests,
            bodySpillThreshold: configuration.bodySpillThreshold,
            idleTimeout: configuration.idleTimeout.nanoseconds,
            requestTimeout: configuration.requestTimeout.nanoseconds,
            writeTimeout: configuration.writeTimeout.nanoseconds,
            responseTimeout: configuration.responseTimeout.nanoseconds)
        self.limits = HTTPRequestParser.Limits(
            maxRequestLineBytes: configuration.maxRequestLineBytes,
            maxHeaderBytes: configuration.maxHeaderBytes,
            maxHeaderCount: configuration.maxHeaderCount, maxBodyBytes: configuration.maxBodyBytes)
        self.spillDirectory = (configuration.uploadsDirectory ?? FileManager.default.temporaryDirectory).path
        self.respond = respond
    }
}

/// The socket server: one listening socket, accepted round-robin onto a fixed set of event loops.
final class HTTPServer: Sendable {
    private struct State {
        var loops: [EventLoop] = []
        var port = 0
        var started = false
        var stopped = false
    }

    private let context: HTTPServerContext
    private let state = Locked(State())

    init(context: HTTPServerContext) {
        self.context = context
    }

    /// The bound port (0 before ``start()``).
    var port: Int { state.withLock { $0.port } }

    /// Binds, listens and starts the loop threads.
    /// - Throws: ``SocketSystem/Failure`` when the address cannot be bound, or when already started.
    func start() throws {
        try state.withLock { state in
            guard !state.started else {
                throw SocketSystem.Failure(call: "start (already started)", code: EALREADY)
            }
            let configuration = context.configuration
            let listener = try SocketSystem.listen(
                host: configuration.host, port: configuration.port, backlog: configuration.backlog)
            var loops: [EventLoop] = []
            do {
                for index in 0..<max(1, configuration.eventLoopCount) {
                    loops.append(try EventLoop(index: index, context: context))
                }
            } catch {
                close(listener.fd)
                for loop in loops { loop.poller.close() }
                throw error
            }
            let acceptor = loops[0]
            do {
                try acceptor.adoptListener(listener.fd)
            } catch {
                close(listener.fd)
                for loop in loops { loop.poller.close() }
                throw error
            }
            if loops.count > 1 {
                let targets = loops
                var next = 0
                acceptor.distribute = { fd, address in
                    let target = targets[next]
                    next = (next + 1) % targets.count
                    if target === acceptor {
                        acceptor.adopt(fd: fd, address: address)
                    } else {
                        // A loop that has already exited cannot take it: close it here.
                        if !target.execute({ target.adopt(fd: fd, address: address) }) { close(fd) }
                    }
                }
            }
            for loop in loops {
                let thread = Thread { loop.run() }
                thread.name = "courier-mock-loop-\(loop.index)"
                thread.start()
            }
            state.loops = loops
            state.port = listener.port
            state.started = true
        }
    }

    /// Stops accepting, lets in-flight responses finish for up to the configured grace period, then closes
    /// everything. Idempotent; returns when every loop thread has exited, also when another call is
    /// already stopping the server. It blocks: async code uses ``shutdownOffThePool()``.
    func shutdown() {
        let grace = context.configuration.shutdownGracePeriod
        let (loops, first): ([EventLoop], Bool) = state.withLock { state in
            guard state.started else { return ([], false) }
            defer { state.stopped = true }
            return (state.loops, !state.stopped)
        }
        guard !loops.isEmpty else { return }
        if first {
            for loop in loops { loop.requestStop(grace: grace.nanoseconds) }
        }
        let deadline = DispatchTime.now() + .nanoseconds(Int(grace.nanoseconds) + 2_000_000_000)
        let finished = loops.map { $0.waitUntilFinished(timeout: deadline) }
        guard first else { return }
        // The acceptor's distribute closure holds every loop, the acceptor included: a cycle.
        // Break it once the acceptor's thread, the only reader of that closure, has exited.
        if finished[0] { loops[0].distribute = nil }
        state.withLock { $0.loops = [] }
    }

    /// ``shutdown()`` on a thread of its own, so no thread of the cooperative pool waits for the loops.
    func shutdownOffThePool() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                self.shutdown()
                continuation.resume()  // the only resume: the thread runs this closure once
            }
            thread.name = "courier-mock-shutdown"
            thread.start()
        }
    }
}
