import Foundation

/// One client connection, owned by one event loop and touched only on that loop's thread.
///
/// That thread's accesses never overlap, so the fields are not checked for exclusive access at
/// run time: the checks cost some 3,500 instructions a request (15% of the server's own work).
///
/// Reading feeds the pure ``HTTPRequestParser``; each complete request is answered by the server's
/// handler chain and queued as a ``Slot``; slots are written strictly in request order (pipelining).
final class Connection {
    /// How a connection ends.
    enum CloseKind {
        /// Stop writing, then read and discard until the client closes (so it sees our last response).
        case graceful
        /// Close now.
        case abrupt
        /// Close with a TCP reset.
        case reset
    }

    /// Values handed to another thread and back to the loop that owns them.
    // unchecked Sendable: the value is only used on its loop's thread; other threads merely carry it.
    struct LoopBound<Value>: @unchecked Sendable {
        let value: Value
    }

    /// A response waiting its turn.
    final class Slot {
        let method: String
        let rangeHeader: String?
        /// The request's `If-Range`, which decides whether `rangeHeader` is honoured.
        @exclusivity(unchecked) var ifRangeHeader: String?
        @exclusivity(unchecked) var response: ServerResponse
        @exclusivity(unchecked) var keepAlive: Bool
        let interim: Bool
        @exclusivity(unchecked) var ready: Bool
        /// The loop's read that brought the request: a kept body file checked after it is fresh enough
        /// (none known: checked again).
        @exclusivity(unchecked) var arrivedWith = UInt64.max

        init(
            method: String, rangeHeader: String?, response: ServerResponse, keepAlive: Bool, interim: Bool,
            ready: Bool
        ) {
            self.method = method
            self.rangeHeader = rangeHeader
            self.response = response
            self.keepAlive = keepAlive
            self.interim = interim
            self.ready = ready
        }
    }

    /// Where the body of the response being written comes from.
    enum BodySource {
        case none
        case bytes(Data, offset: Int, end: Int)
        case file(fd: Int32, offset: Int64, remaining: Int64)
        case generated(producer: @Sendable (Int64, Int) -> Data, offset: Int64, remaining: Int64)
        case dribble(chunks: [[UInt8]], next: Int, interval: UInt64)
        /// Chunks with a pause before each after the first; `drop` closes the connection
        /// abruptly after the last instead of ending the body.
        case paced(chunks: [[UInt8]], next: Int, interval: UInt64, drop: Bool)
    }

    /// The response currently being written.
    struct Active {
        var source: BodySource
        var closeAfter: CloseKind?
    }

    let fd: Int32
    let remoteAddress: String
    unowned let loop: EventLoop
    @exclusivity(unchecked) var parser: HTTPRequestParser
    @exclusivity(unchecked) var head: RequestHead?
    @exclusivity(unchecked) var body = BodyCollector()
    @exclusivity(unchecked) var queue: [Slot] = []
    @exclusivity(unchecked) var active: Active?
    @exclusivity(unchecked) var out: [UInt8] = []
    @exclusivity(unchecked) var outIndex = 0
    @exclusivity(unchecked) var closeWhenFlushed: CloseKind?
    @exclusivity(unchecked) var stopParsing = false
    /// Whether a request of this connection is with a handler thread: the next one is parsed only once
    /// it is answered, so a connection's requests reach the handlers one at a time, in order.
    @exclusivity(unchecked) var handling = false
    @exclusivity(unchecked) var readEOF = false
    /// The number of the loop's read that last brought this connection bytes (see
    /// ``EventLoop/completeRead()``).
    @exclusivity(unchecked) var lastRead: UInt64 = 0
    @exclusivity(unchecked) var closed = false
    @exclusivity(unchecked) var lingering = false
    @exclusivity(unchecked) var lingerDeadline: UInt64 = 0
    @exclusivity(unchecked) var serverStopping = false
    @exclusivity(unchecked) var dribbleWaiting = false
    /// Set when ``pump()`` stopped early to share the loop; more output is ready.
    @exclusivity(unchecked) var yielded = false
    @exclusivity(unchecked) var lastActivity: UInt64
    @exclusivity(unchecked) var requestStartedAt: UInt64 = 0
    @exclusivity(unchecked) var writeBlockedSince: UInt64 = 0
    /// When the response being written must be fully sent (0: none); a slow reader cannot hold it longer.
    @exclusivity(unchecked) var responseDeadline: UInt64 = 0
    @exclusivity(unchecked) var interestRead = true
    @exclusivity(unchecked) var interestWrite = false

    static let outputBudget = 65536
    /// The most bytes one connection writes before letting the loop serve others.
    static let fairnessQuantum = 256 * 1024

    init(fd: Int32, remoteAddress: String, loop: EventLoop) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.loop = loop
        self.parser = HTTPRequestParser(limits: loop.context.limits)
        self.settings = loop.context.settings
        self.lastActivity = SocketSystem.monotonicNanos()
        out.reserveCapacity(4096)
    }

    /// The server's per-request figures (a copy: they never change).
    let settings: HTTPServerContext.ConnectionSettings

    /// Whether nothing is in progress in either direction.
    var isIdle: Bool {
        queue.isEmpty && active == nil && outIndex == out.count && head == nil && !parser.isInsideRequest
            && closeWhenFlushed == nil
    }

    // MARK: - Events

    /// The first half of a readiness event: reads what arrived, and answers nothing yet. The loop reads
    /// every ready connection before it answers any (``finishEvent()``), so that the requests of one
    /// poll share the checks of a kept body file made after they all arrived. Returns whether
    /// ``finishEvent()`` has work to do.
    func readEvent(readable: Bool, writable: Bool) -> Bool {
        guard !closed else { return false }
        guard readable else { return writable }
        let scratch = loop.scratch
        if lingering {
            for _ in 0..<16 {
                let count = SocketSystem.receive(fd, scratch)
                if count > 0 { continue }
                if count < 0 && SocketSystem.lastErrorIsTransient { return false }
                close(.abrupt)
                return false
            }
            return false
        }
        let count = SocketSystem.receive(fd, scratch)
        if count > 0 {
            lastRead = loop.completeRead()
            let now = SocketSystem.monotonicNanos()
            lastActivity = now
            if requestStartedAt == 0 && head == nil && !parser.isInsideRequest { requestStartedAt = now }
            parser.append(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
            return true
        } else if count == 0 {
            readEOF = true
            if head != nil || parser.isInsideRequest {
                // The client gave up mid-request: there is nothing complete to answer.
                stopParsing = true
                body.discard()
                head = nil
            }
            return true
        } else if !SocketSystem.lastErrorIsTransient {
            close(.abrupt)
            return false
        }
        return writable
    }

    /// The second half of a readiness event: answers what was read and writes what can be written.
    func finishEvent() {
        drive()
    }

    /// Parses, answers and writes as far as possible, then updates the poller interest.
    func drive() {
        guard !closed else { return }
        var again = true
        while again && !closed {
            let progress = processInput()
            if closed { return }
            pump()
            if closed { return }
            again = progress.parsed || (progress.blocked && queue.count < settings.maxPipelinedRequests)
        }
        if readEOF && queue.isEmpty && active == nil && outIndex == out.count && closeWhenFlushed == nil {
            close(.abrupt)
            return
        }
        if cutIfAbandoned() { return }
        updateInterest()
    }

    private func updateInterest() {
        guard !closed else { return }
        let wantRead: Bool
        let roomToBuffer = parser.bufferedByteCount < 4 * 1024 * 1024
        if lingering {
            wantRead = true
        } else if serverStopping {
            // Nothing more is parsed, but a client that leaves must be noticed (see `cutIfAbandoned`).
            wantRead = !readEOF && roomToBuffer
        } else {
            wantRead =
                !readEOF && !stopParsing && queue.count < settings.maxPipelinedRequests && roomToBuffer
        }
        let wantWrite = outIndex < out.count || yielded
        if wantRead != interestRead || wantWrite != interestWrite {
            interestRead = wantRead
            interestWrite = wantWrite
            watch(read: wantRead, write: wantWrite)
        }
    }

    /// Changes what the poller watches this connection for; a refusal is logged and closes the
    /// connection, which could otherwise wait forever for readiness it will never be told of.
    func watch(read: Bool, write: Bool) {
        do {
            try loop.poller.modify(fd, read: read, write: write)
        } catch {
            loop.context.configuration.log("connection from \(remoteAddress): closed, unwatchable: \(error)")
            close(.abrupt)
        }
    }

    /// Answers a connection the server cannot serve with `status` and `reason`, then closes it; written
    /// at once, without the loop (the connection is not watched).
    static func refuse(_ fd: Int32, status: Int, reason: String) {
        let body = reason + "\n"
        let head =
            "HTTP/1.1 \(status) \(ResponseEncoding.reason(for: status))\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array((head + body).utf8)
        _ = bytes.withUnsafeBytes { SocketSystem.send(fd, $0) }
        SocketSystem.closeDescriptor(fd)
    }

    // MARK: - Requests

    private func processInput() -> (parsed: Bool, blocked: Bool) {
        var parsed = false
        var bodyless: RequestHead?
        defer {
            // Never left pending (its end always follows), but a head must not be lost if it were.
            if let bodyless, !closed, !stopParsing, head == nil { head = bodyless }
        }
        while !stopParsing && !closed && !handling {
            if head == nil && bodyless == nil && queue.count >= settings.maxPipelinedRequests {
                return (parsed, true)
            }
            let event: HTTPRequestParser.Event?
            do {
                event = try parser.next()
            } catch {
                fail(error)
                return (true, false)
            }
            guard let event else { break }
            parsed = true
            switch event {
            case .head(let newHead) where newHead.framing == .none && head == nil:
                // No body: its end is the next event. Until then the head is held here, not stored.
                bodyless = newHead
            case .head(let newHead):
                head = newHead
                body = BodyCollector()
                if newHead.expectContinue {
                    queue.append(
                        Slot(
                            method: newHead.method, rangeHeader: nil, response: ServerResponse(status: 100),
                            keepAlive: true, interim: true, ready: true))
                }
            case .body(let bytes):
                do {
                    try body.append(
                        bytes, threshold: settings.bodySpillThreshold,
                        directory: loop.context.spillDirectory)
                } catch {
                    fail(error)
                    return (true, false)
                }
            case .end(let trailers):
                if let bodylessHead = bodyless {
                    bodyless = nil
                    finishRequest(bodylessHead, body: (Data(), nil), trailers: trailers)
                    continue
                }
                guard let head else { break }
                self.head = nil
                let collected = body.finish()
                body = BodyCollector()
                finishRequest(head, body: collected, trailers: trailers)
            }
        }
        return (parsed, false)
    }

    private func finishRequest(
        _ head: RequestHead, body collected: (data: Data, file: URL?), trailers: ServerHeaders
    ) {
        requestStartedAt = parser.isInsideRequest ? SocketSystem.monotonicNanos() : 0
        let request = ServerRequest(
            method: head.method, target: head.target, headers: head.headers, body: collected.data,
            bodyFile: collected.file, remoteAddress: remoteAddress, version: head.version, trailers: trailers)
        let slot = Slot(
            method: head.method, rangeHeader: head.headers["Range"], response: ServerResponse(status: 200),
            keepAlive: head.keepAlive && !serverStopping, interim: false, ready: false)
        slot.ifRangeHeader = head.headers["If-Range"]
        slot.arrivedWith = lastRead
        queue.append(slot)
        let context = loop.context
        if collected.file == nil, let quick = context.respondOnLoop(request) {
            settle(slot, quick)
            return
        }
        // Validation, templating, parsing and file I/O run on a handler thread; the loop goes on moving
        // other connections' bytes, and takes the answer back when it is ready.
        handling = true
        let connection = LoopBound(value: (self, slot))
        let loop = self.loop
        let file = collected.file
        context.handlerQueue.async {
            let response = context.respond(request)
            if let file { unlink(file.path) }
            loop.execute {
                let (connection, slot) = connection.value
                connection.handling = false
                connection.settle(slot, response)
                connection.drive()
            }
        }
    }

    /// Puts a request's answer in its slot: now, after its delay, or when another thread supplies it.
    private func settle(_ slot: Slot, _ response: ServerResponse) {
        slot.response = response
        if let connection = response.headers["Connection"], connection.lowercased().contains("close") {
            slot.keepAlive = false
        }
        if !slot.keepAlive { stopParsing = true }
        let delay = response.delay.map(\.nanoseconds) ?? 0
        if let deferred = response.deferred {
            // The response arrives on another thread; it is handed back to this loop, which alone touches
            // the connection and the slot.
            let connection = LoopBound(value: (self, slot))
            let loop = self.loop
            deferred.whenComplete { response in
                loop.execute {
                    let (connection, slot) = connection.value
                    slot.response = response
                    slot.ready = true
                    connection.drive()
                }
            }
        } else if delay > 0 {
            loop.schedule(after: delay) { [self] in
                slot.ready = true
                drive()
            }
        } else {
            slot.ready = true
        }
    }

    /// Answers a request that cannot be read with its error status and closes.
    private func fail(_ error: HTTPParseError) {
        body.discard()
        head = nil
        stopParsing = true
        requestStartedAt = 0
        var response = ServerResponse.text(error.message + "\n", status: error.status)
        response.headers["Connection"] = "close"
        queue.append(
            Slot(
                method: "GET", rangeHeader: nil, response: response, keepAlive: false, interim: false,
                ready: true))
    }

    // MARK: - Timeouts and shutdown

    func checkTimeouts(now: UInt64) {
        guard !closed else { return }
        if lingering {
            if now >= lingerDeadline { close(.abrupt) }
            return
        }
        if writeBlockedSince != 0 && now &- writeBlockedSince > settings.writeTimeout {
            close(.abrupt)
            return
        }
        if responseDeadline != 0 && active == nil && outIndex == out.count { responseDeadline = 0 }
        if responseDeadline != 0 && now > responseDeadline {
            // A client that reads, but too slowly, never trips the write timeout: bound the whole response.
            // Reset rather than close, so the kernel drops what it still buffers for this client too.
            close(.reset)
            return
        }
        if requestStartedAt != 0 && !stopParsing
            && now &- requestStartedAt > settings.requestTimeout
        {
            fail(HTTPParseError(status: 408, message: "the request did not arrive in time"))
            drive()
            return
        }
        if isIdle && now &- lastActivity > settings.idleTimeout {
            close(.abrupt)
        }
    }

    func beginShutdown() {
        serverStopping = true
        if isIdle || lingering {
            close(.abrupt)
        } else {
            stopParsing = stopParsing || head == nil
            drive()
        }
    }

    /// While the server stops, closes a connection whose client has stopped sending while its next response
    /// is still delayed: a cancelled client's delayed stub response must not hold up shutdown. Returns
    /// whether it closed.
    private func cutIfAbandoned() -> Bool {
        guard serverStopping, readEOF, active == nil, outIndex == out.count, closeWhenFlushed == nil,
            queue.first?.ready != true
        else { return false }
        close(.abrupt)
        return true
    }

    /// Ends the connection now (`graceful` is handled by ``performClose(_:)``).
    func close(_ kind: CloseKind) {
        guard !closed else { return }
        closed = true
        if kind == .reset { SocketSystem.setResetOnClose(fd) }
        if case .file(let file, _, _) = active?.source { SocketSystem.closeDescriptor(file) }
        active = nil
        queue.removeAll()
        body.discard()
        loop.forget(fd)
        SocketSystem.closeDescriptor(fd)
    }

    func performClose(_ kind: CloseKind) {
        switch kind {
        case .graceful:
            if readEOF {
                close(.abrupt)
                return
            }
            SocketSystem.shutdownWrite(fd)
            lingering = true
            lingerDeadline = SocketSystem.monotonicNanos() &+ 2_000_000_000
            updateInterest()
        case .abrupt, .reset:
            close(kind)
        }
    }
}
