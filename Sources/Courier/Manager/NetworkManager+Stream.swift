import CourierCookies
import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkManager {
    /// Sends `endpoint` and returns as soon as the response head has arrived, with the body
    /// to read as it comes.
    ///
    /// The head goes through the same pipeline as `send`: interceptors (an auth header, a
    /// retry of a failed or refused attempt, which happens before any body byte is handed
    /// out) and validation. The body is not held in memory: while the consumer is behind by
    /// `TransferOptions.streamBufferBytes`, the transport stops reading from the network.
    /// Interceptors see the head with an empty body.
    ///
    /// ```swift
    /// let response = try await manager.stream(URLRequest(url: URL(string: "/notes/export")!))
    /// for try await chunk in response.value { try handle.write(contentsOf: chunk) }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: what to send.
    ///   - progress: called as bytes move.
    /// - Returns: the validated head, with the body stream as its value.
    /// - Throws: `CourierError`: as `send`; an unacceptable status or content type carries
    ///   the first 64 KiB of the body (and the transfer is cancelled);
    ///   `.invalidConfiguration` when the transport cannot stream.
    public func stream(
        _ endpoint: some URLRequestConvertible, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(CourierError) -> Response<ResponseStream> {
        try await reportingFailure {
            let prepared = try prepare(endpoint)
            return try await streamExchange(
                prepared.request, progress: progress, validation: prepared.validation)
        }
    }

    /// Sends a built request through the interceptors and `Transport.stream`, then validates
    /// the head.
    package func streamExchange(
        _ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)? = nil,
        validation: Validation? = nil
    ) async throws -> Response<ResponseStream> {
        if Task.isCancelled {
            throw CourierError(.cancelled, "the task was cancelled", request: request)
        }
        let record = ExchangeRecord(request: request)
        // The body of the latest attempt; it is cancelled when a retry replaces it.
        let latest = Locked<ResponseStream?>(nil)
        let transport = self.transport
        let monitors = eventMonitors
        let jar = cookieJar
        let innermost: TransportCall = { outgoing in
            let outgoing = try record.beginAttempt(outgoing, jar: jar, monitors: monitors)
            do {
                // A retry replaces the earlier attempt: its body is cancelled before the new request
                // goes out, not after, since a paused transfer still holds its connection, and with
                // the origin's connections all held the new request would wait for one for good.
                let previous = latest.withLock { latest in
                    defer { latest = nil }
                    return latest
                }
                previous?.cancel()
                let streamed = try await Self.streamFollowingRedirects(outgoing, on: transport)
                latest.withLock { $0 = streamed.body }
                for monitor in monitors {
                    monitor.handle(.responseReceived(outgoing, streamed.head))
                }
                return streamed.head
            } catch {
                throw CourierError.wrapping(error, request: outgoing, foreign: .transferFailed)
            }
        }
        let next = intercepted(innermost, original: request)
        let head: TransportResponse
        do {
            head = try await next(withTransferOptions(request, progress: progress))
        } catch {
            latest.withLock { $0 }?.cancel()
            throw CourierError.wrapping(error, request: record.lastSent)
        }
        let sent = record.lastSent
        guard let body = latest.withLock({ $0 }) else {
            throw CourierError(
                .interceptorFailed, "an interceptor answered without calling the transport", request: sent)
        }
        do {
            // The body has not been read, so validation is told that one follows (unless the
            // status or method says none does) for its content-type rule to apply.
            var checked = head
            if !TransferOptions.hasNoBody(status: head.status, method: record.lastSent.method) {
                checked.body = .data(Data([0]))
            }
            try (validation ?? self.validation).validate(checked, request: sent)
        } catch var error as CourierError {
            error.body = await Self.snapshot(of: body)
            throw error
        }
        return Response(
            value: body, status: head.status, headers: head.headers, body: .data(Data()), request: sent,
            url: head.url, timings: head.timings, httpVersion: head.httpVersion, attempts: record.attempts)
    }

    /// `request` streamed over `transport`, one exchange per hop, with its redirects followed by
    /// `Redirects`: a redirect's body is cancelled unread, and the final hop's body is returned
    /// with the head.
    private static func streamFollowingRedirects(
        _ request: TransportRequest, on transport: any Transport
    ) async throws -> TransportStream {
        var current: TransportStream?
        let head: TransportResponse
        do {
            head = try await Redirects.send(request) { hop in
                current?.body.cancel()  // a redirect's body is not read
                let streamed = try await transport.stream(hop)
                current = streamed
                return streamed.head
            }
        } catch {
            current?.body.cancel()
            throw error
        }
        guard var streamed = current else {
            throw CourierError(.transferFailed, "no response was streamed", request: request)
        }
        streamed.head = head
        return streamed
    }

    /// The first 64 KiB of a refused response's body, for its error; the transfer is then
    /// cancelled. A body that does not arrive within a second is cut short.
    private static func snapshot(of body: ResponseStream) async -> Data {
        let limit = 64 * 1024
        let reader = Task {
            var data = Data()
            do {
                for try await chunk in body {
                    data.append(chunk.prefix(limit - data.count))
                    if data.count >= limit { break }
                }
            } catch {}
            return data
        }
        let timer = Task {
            try await Task.sleep(for: .seconds(1))
            body.cancel()
        }
        let data = await reader.value
        timer.cancel()
        body.cancel()
        return data
    }
}
