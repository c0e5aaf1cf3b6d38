import Foundation

extension Connection {
    private static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Writes queued output until it is all sent or the socket would block.
    func pump() {
        yielded = false
        var sentThisTurn = 0
        while !closed {
            if sentThisTurn >= Self.fairnessQuantum {
                // Let the loop serve other connections; EPOLLOUT brings us back at once. If the
                // socket is full by now, EPOLLOUT never comes: start the write timeout here, and
                // the next successful send resets it.
                yielded = true
                if writeBlockedSince == 0 { writeBlockedSince = SocketSystem.monotonicNanos() }
                if !interestWrite {
                    interestWrite = true
                    watch(read: interestRead, write: true)
                }
                return
            }
            fillOutput()
            if closed { return }
            if outIndex < out.count {
                let sent = out.withUnsafeBytes { raw in
                    SocketSystem.send(fd, UnsafeRawBufferPointer(rebasing: raw[outIndex..<raw.count]))
                }
                if sent > 0 {
                    outIndex += sent
                    sentThisTurn += sent
                    writeBlockedSince = 0
                    if outIndex == out.count {
                        out.removeAll(keepingCapacity: true)
                        outIndex = 0
                    } else if outIndex > 4 * Self.outputBudget {
                        out.removeFirst(outIndex)
                        outIndex = 0
                    }
                    continue
                }
                if sent < 0 && SocketSystem.lastErrorIsTransient {
                    if writeBlockedSince == 0 { writeBlockedSince = SocketSystem.monotonicNanos() }
                    if !interestWrite {
                        interestWrite = true
                        watch(read: interestRead, write: true)
                    }
                    return
                }
                close(.abrupt)
                return
            }
            if let kind = closeWhenFlushed {
                closeWhenFlushed = nil
                performClose(kind)
            }
            return
        }
    }

    /// Moves ready responses into `out`, up to the output budget.
    private func fillOutput() {
        while !closed && closeWhenFlushed == nil && !lingering && out.count - outIndex < Self.outputBudget {
            guard var current = active else {
                guard let slot = queue.first, slot.ready else { return }
                queue.removeFirst()
                activate(slot)
                continue
            }
            let budget = Self.outputBudget
            switch current.source {
            case .none:
                active = nil
                if let after = current.closeAfter { finishAndClose(after) }
                continue
            case .bytes(let data, let offset, let end):
                let take = min(end - offset, budget)
                data.withUnsafeBytes { raw in out.append(contentsOf: raw[offset..<offset + take]) }
                current.source = offset + take == end ? .none : .bytes(data, offset: offset + take, end: end)
            case .file(let file, let offset, let remaining):
                let take = Int(min(remaining, Int64(budget)))
                let scratch = UnsafeMutableRawBufferPointer(rebasing: loop.scratch[0..<take])
                let count = SocketSystem.readFile(file, scratch, offset: offset)
                guard count > 0 else {
                    // The file shrank or failed under us: the framing cannot be kept, so end the connection.
                    SocketSystem.closeDescriptor(file)
                    active = nil
                    close(.abrupt)
                    return
                }
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                if Int64(count) == remaining {
                    SocketSystem.closeDescriptor(file)
                    current.source = .none
                } else {
                    current.source = .file(
                        fd: file, offset: offset + Int64(count), remaining: remaining - Int64(count))
                }
            case .generated(let producer, let offset, let remaining):
                let take = Int(min(remaining, Int64(budget)))
                let piece = producer(offset, take)
                guard piece.count >= take else {
                    active = nil
                    close(.abrupt)
                    return
                }
                out.append(contentsOf: piece.prefix(take))
                current.source =
                    Int64(take) == remaining
                    ? .none
                    : .generated(
                        producer: producer, offset: offset + Int64(take), remaining: remaining - Int64(take))
            case .paced(let chunks, let next, let interval, let drop):
                if dribbleWaiting { return }
                if next < chunks.count {
                    ResponseEncoding.appendHex(chunks[next].count, to: &out)
                    out.append(contentsOf: [13, 10])
                    out.append(contentsOf: chunks[next])
                    out.append(contentsOf: [13, 10])
                }
                if next + 1 >= chunks.count {
                    if drop {
                        active = nil
                        finishAndClose(.abrupt)
                        return
                    }
                    out.append(contentsOf: Array("0\r\n\r\n".utf8))
                    current.source = .none
                } else {
                    current.source = .paced(chunks: chunks, next: next + 1, interval: interval, drop: drop)
                    dribbleWaiting = true
                    loop.schedule(after: interval) { [self] in
                        dribbleWaiting = false
                        drive()
                    }
                }
            case .dribble(let chunks, let next, let interval):
                if dribbleWaiting { return }
                if next < chunks.count {
                    ResponseEncoding.appendHex(chunks[next].count, to: &out)
                    out.append(contentsOf: [13, 10])
                    out.append(contentsOf: chunks[next])
                    out.append(contentsOf: [13, 10])
                }
                if next + 1 >= chunks.count {
                    out.append(contentsOf: Array("0\r\n\r\n".utf8))
                    current.source = .none
                } else {
                    current.source = .dribble(chunks: chunks, next: next + 1, interval: interval)
                    dribbleWaiting = true
                    loop.schedule(after: interval) { [self] in
                        dribbleWaiting = false
                        drive()
                    }
                }
            }
            active = current
        }
    }

    private func finishAndClose(_ kind: CloseKind) {
        closeWhenFlushed = kind
        stopParsing = true
        queue.removeAll()
        body.discard()
        head = nil
    }

    // MARK: - Starting a response

    private func activate(_ slot: Slot) {
        if slot.interim {
            out.append(contentsOf: Self.continueBytes)
            return
        }
        let response = slot.response
        if let prepared = response.prepared, activate(prepared, slot: slot, response: response) { return }
        switch response.fault {
        case .emptyResponse?:
            finishAndClose(.abrupt)
            return
        case .connectionResetByPeer?:
            finishAndClose(.reset)
            return
        case .randomDataThenClose?:
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<1024 { out.append(UInt8.random(in: 0...255, using: &generator) | 0x80) }
            finishAndClose(.abrupt)
            return
        case .malformedResponseChunk?:
            out.append(contentsOf: Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
            out.append(contentsOf: Array("lskdu018973t09sylgasjkfg1][]'./.sdlv\r\n".utf8))
            finishAndClose(.abrupt)
            return
        case .truncatedBody?, nil:
            break
        }
        let truncate = response.fault == .truncatedBody
        let keepAlive = slot.keepAlive && !serverStopping && !truncate
        // Anything else (a 1xx a handler returned) is answered 500.
        var status = ResponseEncoding.finalStatuses.contains(response.status) ? response.status : 500
        var reason = response.reason
        var source = BodySource.none
        var length: Int64 = 0
        var rangeable = false
        var contentRange: String?

        switch response.body {
        case .empty:
            break
        case .data(let data):
            source = .bytes(data, offset: 0, end: data.count)
            length = Int64(data.count)
        case .file(let url):
            if let opened = openBodyFile(url.path, arrivedWith: slot.arrivedWith) {
                rangeable = true
                (source, length) = opened
            } else {
                status = 404
                reason = nil
                let message = Data("file not found: \(url.lastPathComponent)\n".utf8)
                source = .bytes(message, offset: 0, end: message.count)
                length = Int64(message.count)
            }
        case .generated(let total, let producer):
            rangeable = true
            source = .generated(producer: producer, offset: 0, remaining: max(0, total))
            length = max(0, total)
        }

        if rangeable && status == 200 && (slot.method == "GET" || slot.method == "HEAD") {
            let range = ResponseEncoding.honouredRange(
                slot.rangeHeader, ifRange: slot.ifRangeHeader, headers: response.headers)
            switch ResponseEncoding.resolveRange(range, size: length) {
            case .whole:
                break
            case .partial(let lower, let upper):
                status = 206
                reason = nil
                contentRange = "bytes \(lower)-\(upper)/\(length)"
                source = Self.advance(source, to: lower, count: upper - lower + 1)
                length = upper - lower + 1
            case .unsatisfiable:
                status = 416
                reason = nil
                contentRange = "bytes */\(length)"
                Self.release(source)
                source = .none
                length = 0
            }
        }

        // A dribbled body is read into memory to be cut into chunks: a bigger one gets a 500 that says so,
        // not an allocation of the whole file (or a silent cut at the 2 GiB a single read returns).
        var dribble = response.dribble
        if dribble != nil, length > Self.maxDribbledBytes {
            Self.release(source)
            status = 500
            reason = nil
            let message = Data(
                "chunkedDribbleDelay serves bodies up to \(Self.maxDribbledBytes) bytes; this one is \(length)\n"
                    .utf8)
            source = .bytes(message, offset: 0, end: message.count)
            length = Int64(message.count)
            contentRange = nil
            dribble = nil
        }
        let noBody = ResponseEncoding.hasNoBody(status: status, method: slot.method)
        let framesLength = !(100..<200).contains(status) && status != 204 && status != 304
        var chunked = false
        if let dribble, !noBody, framesLength {
            let bytes = Self.collect(source, length: length)
            source = Self.dribbleSource(bytes, dribble: dribble)
            chunked = true
        }
        if let events = response.eventStream, !noBody, framesLength {
            Self.release(source)
            source = .paced(
                chunks: events.chunks, next: 0, interval: max(1, events.interval.nanoseconds),
                drop: events.dropAfter != nil)
            chunked = true
        }

        // Status line and headers.
        let found = ResponseEncoding.appendHead(
            status: status, reason: reason, headers: response.headers, to: &out)
        if !found.hasDate { appendDate() }
        if rangeable && !found.hasAcceptRanges { out.append(contentsOf: Self.acceptRangesBytes) }
        if let contentRange { out.append(contentsOf: Array("Content-Range: \(contentRange)\r\n".utf8)) }
        if chunked {
            out.append(contentsOf: Array("Transfer-Encoding: chunked\r\n".utf8))
        } else if framesLength {
            appendContentLength(length)
        }
        out.append(contentsOf: keepAlive ? Self.keepAliveEnd : Self.closeEnd)

        if noBody {
            Self.release(source)
            source = .none
        } else if truncate {
            source = Self.advance(
                source, to: 0, count: min(length, max(0, response.truncateAfter ?? length / 2)))
        }
        let closeAfter: CloseKind? = truncate ? .abrupt : (keepAlive ? nil : .graceful)
        active = Active(source: source, closeAfter: closeAfter)
        var dribbling = chunked ? response.dribble?.totalDuration.nanoseconds ?? 0 : 0
        if chunked, let events = response.eventStream {
            dribbling &+= events.interval.nanoseconds &* UInt64(events.chunks.count)
        }
        responseDeadline =
            SocketSystem.monotonicNanos() &+ settings.responseTimeout &+ dribbling
    }

    private static let acceptRangesBytes = Array("Accept-Ranges: bytes\r\n".utf8)
    private static let keepAliveEnd = Array("Connection: keep-alive\r\n\r\n".utf8)
    private static let closeEnd = Array("Connection: close\r\n\r\n".utf8)

    private func appendDate() {
        out.append(contentsOf: loop.dateCache.currentLine())
    }

    private func appendContentLength(_ length: Int64) {
        Self.appendContentLength(length, to: &out)
    }

    private static func appendContentLength(_ length: Int64, to bytes: inout [UInt8]) {
        // "Content-Length: "
        bytes.append(contentsOf: [67, 111, 110, 116, 101, 110, 116, 45, 76, 101, 110, 103, 116, 104, 58, 32])
        ResponseEncoding.appendDecimal(length, to: &bytes)
        bytes.append(contentsOf: [13, 10])
    }

    /// A body file: from this loop's cache when kept and unchanged, else opened (and kept when small and
    /// settled); nil when it cannot be opened as a regular file.
    private func openBodyFile(_ path: String, arrivedWith: UInt64) -> (source: BodySource, length: Int64)? {
        let loop = self.loop
        if let data = loop.fileCache.cached(path: path, arrivedWith: arrivedWith, reads: loop.readsCompleted)
        {
            return (.bytes(data, offset: 0, end: data.count), Int64(data.count))
        }
        guard let opened = SocketSystem.openRegularFile(path) else { return nil }
        if let data = loop.fileCache.keep(
            path: path, fd: opened.fd, size: opened.size, reads: loop.readsCompleted)
        {
            SocketSystem.closeDescriptor(opened.fd)
            return (.bytes(data, offset: 0, end: data.count), Int64(data.count))
        }
        return (.file(fd: opened.fd, offset: 0, remaining: opened.size), opened.size)
    }

    /// Starts a stub's response from its prepared head, when nothing of this exchange needs the general
    /// path (a range, HEAD, a fault, a dribble, an event stream, a missing body file); false otherwise,
    /// with nothing written.
    private func activate(_ prepared: PreparedResponse, slot: Slot, response: ServerResponse) -> Bool {
        guard slot.rangeHeader == nil, slot.method != "HEAD", response.fault == nil, response.dribble == nil,
            response.eventStream == nil, response.status == prepared.status,
            response.headers.count == prepared.headerCount
        else { return false }
        let source: BodySource
        let length: Int64
        switch prepared.body {
        case .empty:
            (source, length) = (.none, 0)
        case .data(let data):
            (source, length) = (.bytes(data, offset: 0, end: data.count), Int64(data.count))
        case .file(let path):
            guard let opened = openBodyFile(path, arrivedWith: slot.arrivedWith) else { return false }
            (source, length) = opened
        }
        let keepAlive = slot.keepAlive && !serverStopping
        // Written into a local array taken from `out` and put back: one access to the connection's
        // output instead of one per piece.
        var bytes: [UInt8] = []
        swap(&bytes, &out)
        bytes.append(contentsOf: prepared.head)
        if !prepared.hasDate { bytes.append(contentsOf: loop.dateCache.currentLine()) }
        if case .file = prepared.body, !prepared.hasAcceptRanges {
            bytes.append(contentsOf: Self.acceptRangesBytes)
        }
        Self.appendContentLength(length, to: &bytes)
        bytes.append(contentsOf: keepAlive ? Self.keepAliveEnd : Self.closeEnd)
        var rest = source
        if case .bytes(let data, _, _) = source, data.count <= Self.outputBudget {
            // A small body joins its head here, in the same pass.
            data.withUnsafeBytes { bytes.append(contentsOf: $0) }
            rest = .none
        }
        swap(&bytes, &out)
        active = Active(source: rest, closeAfter: keepAlive ? nil : .graceful)
        responseDeadline = SocketSystem.monotonicNanos() &+ settings.responseTimeout
        return true
    }

    /// Narrows a body source to `count` bytes starting at `lower`.
    private static func advance(_ source: BodySource, to lower: Int64, count: Int64) -> BodySource {
        switch source {
        case .none, .dribble, .paced:
            return source
        case .bytes(let data, let offset, _):
            return .bytes(data, offset: offset + Int(lower), end: offset + Int(lower + count))
        case .file(let fd, let offset, _):
            return .file(fd: fd, offset: offset + lower, remaining: count)
        case .generated(let producer, let offset, _):
            return .generated(producer: producer, offset: offset + lower, remaining: count)
        }
    }

    private static func release(_ source: BodySource) {
        if case .file(let fd, _, _) = source { SocketSystem.closeDescriptor(fd) }
    }

    /// The largest body `chunkedDribbleDelay` serves (it is held in memory while dribbled).
    static let maxDribbledBytes: Int64 = 64 << 20

    /// Reads a whole (small) body into memory, for dribbling.
    private static func collect(_ source: BodySource, length: Int64) -> [UInt8] {
        switch source {
        case .none, .dribble, .paced:
            return []
        case .bytes(let data, let offset, let end):
            return data.withUnsafeBytes { Array($0[offset..<end]) }
        case .file(let fd, let offset, let remaining):
            var bytes = [UInt8](repeating: 0, count: Int(remaining))
            let count = bytes.withUnsafeMutableBytes { SocketSystem.readFile(fd, $0, offset: offset) }
            SocketSystem.closeDescriptor(fd)
            return Array(bytes.prefix(max(0, count)))
        case .generated(let producer, let offset, let remaining):
            return Array(producer(offset, Int(remaining)).prefix(Int(remaining)))
        }
    }

    private static func dribbleSource(_ bytes: [UInt8], dribble: ChunkedDribble) -> BodySource {
        let count = max(1, min(dribble.numberOfChunks, max(1, bytes.count)))
        var chunks: [[UInt8]] = []
        let size = bytes.count / count
        var start = 0
        for index in 0..<count {
            let end = index == count - 1 ? bytes.count : start + size
            chunks.append(Array(bytes[start..<end]))
            start = end
        }
        chunks.removeAll { $0.isEmpty }
        let interval = dribble.totalDuration.nanoseconds / UInt64(max(1, chunks.count))
        return .dribble(chunks: chunks, next: 0, interval: max(1, interval))
    }
}
