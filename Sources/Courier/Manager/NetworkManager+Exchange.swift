import CourierCookies
import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Response where Value == Void {
    /// What the chain answered for one call, before the call made a value of it: the final
    /// response, its body whole (`.data`) or streaming (`.stream`), with the request sent for it
    /// and the attempts it took.
    package init(_ response: TransportResponse, sent: TransportRequest, attempts: Int) {
        self.init(
            value: (), status: response.status, headers: response.headers, body: response.body, request: sent,
            url: response.url, timings: response.timings, httpVersion: response.httpVersion,
            attempts: attempts, source: response.source)
    }
}

extension NetworkManager {
    /// The one exchange under every call: `step`, then the interceptors, outermost first, then
    /// redirects (with cookies from and to the jar on every hop), then the transport's one
    /// exchange per hop. The final response is validated; its body is handed on as it came,
    /// whole or streaming, for the call to consume (`send` collects it, `download` writes it,
    /// `stream` hands it on).
    ///
    /// - Parameters:
    ///   - request: the request, as `prepare` built it.
    ///   - delivery: how the call would like the body.
    ///   - progress: called as bytes move.
    ///   - validation: the rules that decide success; `nil` uses the manager's.
    ///   - step: a step of the call's own, run outside all of the manager's interceptors (a
    ///     download's resume, which a cache below it then answers from a stored part).
    ///   - record: the attempts so far, when a call makes the exchange more than once.
    ///   - bodyGoesToDisk: whether the call writes the body to a file (a download), so that
    ///     `maxResponseBytes`, a bound on what is held in memory, does not apply to it.
    /// - Returns: the validated response.
    /// - Throws: `CourierError`; a refused response's error carries the start of its body.
    ///
    /// Like every step below a public entry point, it runs on its caller's executor
    /// (`nonisolated(nonsending)`): the entry point has already left the caller's actor, and a
    /// hop back to the global executor around each `await` cost some 400 instructions a step.
    nonisolated(nonsending) package func exchange(
        _ request: consuming TransportRequest, delivery: TransferOptions.BodyDelivery = .whole,
        progress: (@Sendable (TransferProgress) -> Void)? = nil, validation: Validation? = nil,
        outermost step: (any Interceptor)? = nil, record: ExchangeRecord? = nil, bodyGoesToDisk: Bool = false
    ) async throws -> Response<Void> {
        if Task.isCancelled {
            throw CourierError(.cancelled, "the task was cancelled", request: request)
        }
        // Changed in place rather than copied: the caller gave it up.
        var outgoing = consume request
        applyTransferOptions(to: &outgoing, delivery: delivery, progress: progress)
        if bodyGoesToDisk { outgoing.options.maxResponseBytes = .max }
        let exchanged: Response<Void>
        if interceptors.isEmpty, step == nil, record == nil {
            exchanged = try await sendDirectly(outgoing)
        } else {
            exchanged = try await sendIntercepted(outgoing, outermost: step, record: record)
        }
        do {
            try (validation ?? self.validation).validate(exchanged)
        } catch var error as CourierError {
            // A refused streaming body: its first 64 KiB go into the error (see `snapshot`).
            if case .stream(let body) = exchanged.body { error.body = await Self.snapshot(of: body) }
            throw error
        }
        return exchanged
    }

    /// `exchange` through the interceptors, with `step` outermost.
    nonisolated(nonsending) private func sendIntercepted(
        _ outgoing: TransportRequest, outermost step: (any Interceptor)?, record: ExchangeRecord?
    ) async throws -> Response<Void> {
        let record = record ?? ExchangeRecord(request: outgoing)
        let transport = self.transport
        let monitors = eventMonitors
        let jar = cookieJar
        let innermost: TransportCall = { outgoing in
            try record.beginAttempt(outgoing, monitors: monitors)
            do {
                let response = try await Redirects.send(outgoing, cookieJar: jar) { hop in
                    try await transport.send(hop)
                }
                record.received(response.body)
                for monitor in monitors { monitor.handle(.responseReceived(outgoing, response)) }
                return response
            } catch {
                throw CourierError.wrapping(error, request: outgoing, foreign: .transferFailed)
            }
        }
        let next = intercepted(innermost, original: outgoing, outermost: step)
        do {
            let response = try await next(outgoing)
            return Response(response, sent: record.lastSent, attempts: record.attempts)
        } catch {
            record.cancelLatest()
            throw CourierError.wrapping(error, request: record.lastSent)
        }
    }

    /// `exchange` without interceptors, so with one attempt: the steps of its innermost
    /// closure, without the closures and the record that replays need.
    nonisolated(nonsending) private func sendDirectly(
        _ outgoing: TransportRequest
    ) async throws -> Response<Void> {
        for monitor in eventMonitors { monitor.handle(.requestSent(outgoing, attempt: 1)) }
        let response: TransportResponse
        do {
            response = try await Redirects.send(outgoing, cookieJar: cookieJar) { hop in
                try await transport.send(hop)
            }
        } catch {
            throw CourierError.wrapping(error, request: outgoing, foreign: .transferFailed)
        }
        for monitor in eventMonitors { monitor.handle(.responseReceived(outgoing, response)) }
        return Response(response, sent: outgoing, attempts: 1)
    }

    /// A call down the interceptor chain to the transport.
    typealias TransportCall = @Sendable (TransportRequest) async throws -> TransportResponse

    /// Gives `request` this manager's transfer options, `delivery` and `progress`. The
    /// manager's idle timeout, when set, wins over the endpoint's.
    func applyTransferOptions(
        to request: inout TransportRequest, delivery: TransferOptions.BodyDelivery,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) {
        let idleTimeout = transferOptions.idleTimeout ?? request.options.idleTimeout
        request.options = transferOptions
        request.options.idleTimeout = idleTimeout
        request.options.delivery = delivery
        request.progress = progress
    }

    /// `transport` wrapped in the manager's interceptors, the first outermost, and `step`
    /// outside them all.
    func intercepted(
        _ transport: @escaping TransportCall, original request: TransportRequest,
        outermost step: (any Interceptor)? = nil
    ) -> TransportCall {
        var next = transport
        let context = InterceptorContext(originalRequest: request, baseURL: baseURL, monitors: eventMonitors)
        for interceptor in ((step.map { [$0] } ?? []) + interceptors).reversed() {
            let inner = next
            next = { outgoing in try await interceptor.intercept(outgoing, context: context, next: inner) }
        }
        return next
    }

    /// The body of an exchange in memory: a whole body as it is, a stream collected up to
    /// `maxResponseBytes`.
    /// - Throws: `CourierError`: `.responseTooLarge`, or what ended the stream.
    nonisolated(nonsending) func collect(_ exchanged: Response<Void>) async throws -> Data {
        switch exchanged.body {
        case .data(let data):
            return data
        case .stream(let stream):
            do {
                return try await stream.collect(upTo: Int(clamping: transferOptions.maxResponseBytes))
            } catch {
                throw CourierError.wrapping(error, request: exchanged.request)
            }
        case .file(let url, _):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw CourierError(
                    .fileReadFailed, "cannot read \(url.path): \(error)", request: exchanged.request,
                    underlying: error)
            }
        }
    }

    /// The first 64 KiB of a refused response's body, for its error; the transfer is then
    /// cancelled. A body that does not arrive within a second is cut short.
    static func snapshot(of body: ResponseStream) async -> Data {
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

/// What happened during one call: how many attempts, the last request sent, and the body of
/// the latest attempt, which a new attempt cancels.
package final class ExchangeRecord: Sendable {
    private struct State {
        var attempts = 0
        var lastSent: TransportRequest
        var latest: ResponseStream?
    }

    private let state: Locked<State>

    package init(request: TransportRequest) { state = Locked(State(lastSent: request)) }

    /// Starts an attempt: it is recorded and announced to `monitors`, and the body of the
    /// attempt it replaces is cancelled before the new request goes out (a paused transfer
    /// still holds its connection, and with all of an origin's held it would wait for good).
    /// - Throws: `.cancelled` when the task was cancelled.
    func beginAttempt(_ request: TransportRequest, monitors: [any EventMonitor]) throws {
        let (attempt, previous) = state.withLock { state in
            state.attempts += 1
            state.lastSent = request
            defer { state.latest = nil }
            return (state.attempts, state.latest)
        }
        previous?.cancel()
        if Task.isCancelled {
            throw CourierError(.cancelled, "the task was cancelled", request: request)
        }
        for monitor in monitors { monitor.handle(.requestSent(request, attempt: attempt)) }
    }

    /// An attempt's response arrived with `body`.
    func received(_ body: ResponseBody) {
        guard case .stream(let stream) = body else { return }
        state.withLock { $0.latest = stream }
    }

    /// Cancels the latest attempt's streaming body, when the call failed above it.
    func cancelLatest() {
        state.withLock { state in
            defer { state.latest = nil }
            return state.latest
        }?.cancel()
    }

    package var attempts: Int { state.withLock { max(1, $0.attempts) } }
    package var lastSent: TransportRequest { state.withLock { $0.lastSent } }
}

extension CourierError {
    /// `error` as a `CourierError`: itself with `request` filled in if missing,
    /// cancellation as `.cancelled`, anything else as `foreign`: `.interceptorFailed` by default,
    /// `.transferFailed` where a transport threw it.
    package static func wrapping(
        _ error: any Error, request: TransportRequest?, foreign: Code = .interceptorFailed
    ) -> CourierError {
        if var courierError = error as? CourierError {
            if courierError.request == nil { courierError.request = request }
            return courierError
        }
        if error is CancellationError {
            return CourierError(.cancelled, "the task was cancelled", request: request, underlying: error)
        }
        return CourierError(foreign, "\(error)", request: request, underlying: error)
    }

    /// A wrapped foreign error (`.interceptorFailed`) relabelled with `code`; others as they are.
    package func withCode(_ code: Code) -> CourierError {
        guard self.code == .interceptorFailed else { return self }
        var copy = self
        copy.code = code
        return copy
    }
}
