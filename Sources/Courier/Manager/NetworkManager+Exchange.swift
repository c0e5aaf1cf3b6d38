import CourierCookies
import CourierPrimitives
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkManager {
    /// Sends a built request through the interceptors and transport, then validates it.
    ///
    /// Innermost, next to the transport, each attempt is validated and its redirects followed
    /// (`Redirects`), with cookies from and to the jar on every hop: the transport makes one
    /// exchange per hop.
    ///
    /// - Parameters:
    ///   - request: the request, as `makeRequest` built it.
    ///   - progress: called as bytes move.
    ///   - validation: the rules that decide success; `nil` uses the manager's.
    ///   - innermost: an interceptor run inside all of the manager's, next to the transport.
    /// - Returns: the validated response with the raw body as its value.
    /// - Throws: `CourierError`.
    package func exchange(
        _ request: consuming TransportRequest, progress: (@Sendable (TransferProgress) -> Void)? = nil,
        validation: Validation? = nil, innermost step: (any Interceptor)? = nil
    ) async throws -> Response<Data> {
        if Task.isCancelled {
            throw CourierError(.cancelled, "the task was cancelled", request: request)
        }
        guard interceptors.isEmpty, step == nil else {
            return try await exchangeIntercepted(
                request, progress: progress, validation: validation, innermost: step)
        }
        // Changed in place rather than copied: the caller gave it up.
        var outgoing = consume request
        applyTransferOptions(to: &outgoing, progress: progress)
        if outgoing.cookieJar == nil, let cookieJar { outgoing.cookieJar = cookieJar }
        return try await sendDirectly(outgoing, validation: validation)
    }

    /// `exchange` through the interceptors, with `step` innermost.
    private func exchangeIntercepted(
        _ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?,
        validation: Validation?, innermost step: (any Interceptor)?
    ) async throws -> Response<Data> {
        let outgoing = withTransferOptions(request, progress: progress)
        let record = ExchangeRecord(request: request)
        let transport = self.transport
        let monitors = eventMonitors
        let jar = cookieJar
        let innermost: TransportCall = { outgoing in
            let outgoing = try record.beginAttempt(outgoing, jar: jar, monitors: monitors)
            do {
                let response = try await Redirects.send(outgoing) { hop in try await transport.send(hop) }
                for monitor in monitors { monitor.handle(.responseReceived(outgoing, response)) }
                return response
            } catch {
                throw CourierError.wrapping(error, request: outgoing, foreign: .transferFailed)
            }
        }
        let next = intercepted(innermost, original: request, innermost: step)
        let response: TransportResponse
        do {
            response = try await next(outgoing)
        } catch {
            throw CourierError.wrapping(error, request: record.lastSent)
        }
        return try validated(
            response, sent: record.lastSent, validation, attempts: record.attempts)
    }

    /// A call down the interceptor chain to the transport.
    typealias TransportCall = @Sendable (TransportRequest) async throws -> TransportResponse

    /// `request` with this manager's transfer options and `progress`. The manager's idle
    /// timeout, when set, wins over the endpoint's.
    func withTransferOptions(
        _ request: TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> TransportRequest {
        var outgoing = request
        applyTransferOptions(to: &outgoing, progress: progress)
        return outgoing
    }

    /// Gives `request` this manager's transfer options and `progress` (see `withTransferOptions`).
    func applyTransferOptions(
        to request: inout TransportRequest, progress: (@Sendable (TransferProgress) -> Void)?
    ) {
        let idleTimeout = transferOptions.idleTimeout ?? request.options.idleTimeout
        request.options = transferOptions
        request.options.idleTimeout = idleTimeout
        request.progress = progress
    }

    /// `transport` wrapped in the manager's interceptors, the first outermost, and `step`
    /// inside them all, next to the transport.
    func intercepted(
        _ transport: @escaping TransportCall, original request: TransportRequest,
        innermost step: (any Interceptor)? = nil
    ) -> TransportCall {
        var next = transport
        let context = InterceptorContext(originalRequest: request, baseURL: baseURL, monitors: eventMonitors)
        for interceptor in (interceptors + (step.map { [$0] } ?? [])).reversed() {
            let inner = next
            next = { outgoing in try await interceptor.intercept(outgoing, context: context, next: inner) }
        }
        return next
    }

    /// `exchange` without interceptors, so with one attempt: the steps of its innermost
    /// closure, without the closures and the record that replays need. `outgoing` already has
    /// the manager's cookie jar unless it has its own.
    private func sendDirectly(_ outgoing: TransportRequest, validation: Validation?) async throws -> Response<
        Data
    > {
        for monitor in eventMonitors { monitor.handle(.requestSent(outgoing, attempt: 1)) }
        let response: TransportResponse
        do {
            response = try await Redirects.send(outgoing) { hop in try await transport.send(hop) }
        } catch {
            throw CourierError.wrapping(error, request: outgoing, foreign: .transferFailed)
        }
        for monitor in eventMonitors { monitor.handle(.responseReceived(outgoing, response)) }
        return try validated(response, sent: outgoing, validation, attempts: 1)
    }

    /// The response, after `validation` (or the manager's) accepted it.
    private func validated(
        _ response: TransportResponse, sent: TransportRequest, _ validation: Validation?, attempts: Int
    ) throws -> Response<Data> {
        try (validation ?? self.validation).validate(response, request: sent)
        return Response(
            value: response.body.data, status: response.status, headers: response.headers,
            body: response.body, request: sent, url: response.url, timings: response.timings,
            httpVersion: response.httpVersion, attempts: attempts, source: response.source)
    }
}

/// What happened during one call: how many attempts, and the last request sent.
final class ExchangeRecord: Sendable {
    private struct State {
        var attempts = 0
        var lastSent: TransportRequest
    }

    private let state: Locked<State>

    init(request: TransportRequest) { state = Locked(State(lastSent: request)) }

    /// Starts an attempt: the request gets `jar` unless it carries its own, and the attempt is
    /// recorded and announced to `monitors`.
    /// - Returns: the request to send.
    /// - Throws: `.cancelled` when the task was cancelled.
    func beginAttempt(
        _ request: TransportRequest, jar: CookieJar?, monitors: [any EventMonitor]
    ) throws -> TransportRequest {
        var outgoing = request
        if outgoing.cookieJar == nil { outgoing.cookieJar = jar }
        let attempt = state.withLock { state in
            state.attempts += 1
            state.lastSent = outgoing
            return state.attempts
        }
        if Task.isCancelled {
            throw CourierError(.cancelled, "the task was cancelled", request: outgoing)
        }
        for monitor in monitors { monitor.handle(.requestSent(outgoing, attempt: attempt)) }
        return outgoing
    }

    var attempts: Int { state.withLock { max(1, $0.attempts) } }
    var lastSent: TransportRequest { state.withLock { $0.lastSent } }
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
