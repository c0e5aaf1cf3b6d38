import Courier
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that retries transient failures with exponential backoff and full
/// jitter.
///
/// A request is retried only when all of these hold:
/// - its method is idempotent (`GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`) or it
///   carries an `Idempotency-Key` header;
/// - its body can be sent again (`RequestBody.isReplayable`);
/// - the status is in `retryableStatuses` (408, 429, 500, 502, 503, 504), or the transport
///   failed with a code in `retryableCodes` (cannot resolve / connect, connection lost,
///   timed out): never for cancellation, TLS or size limits;
/// - fewer than `maxAttempts` attempts have been made.
///
/// Retry n waits a random time in `0...min(maxDelay, baseDelay * 2^(n-1))` ("full jitter"),
/// or what the response's `Retry-After` asks (seconds or HTTP-date), capped at `maxDelay`.
public struct RetryPolicy: Interceptor {
    /// Attempts in all, including the first. Default 3.
    package var maxAttempts: Int
    /// The backoff base. Default 0.5 s.
    package var baseDelay: Duration
    /// The longest wait, for backoff and `Retry-After` alike. Default 30 s.
    package var maxDelay: Duration
    /// Statuses worth retrying.
    package var retryableStatuses: Set<Int>
    /// Transport failures worth retrying.
    package var retryableCodes: Set<CourierError.Code>
    /// Returns a number in `0..<1`; the jitter source.
    package var random: @Sendable () -> Double
    /// Waits the given seconds; throws when cancelled.
    package var sleep: @Sendable (TimeInterval) async throws -> Void
    /// The current time, for `Retry-After` HTTP-dates.
    package var now: @Sendable () -> Date

    /// The default retryable statuses: 408, 429, 500, 502, 503, 504.
    public static let defaultRetryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// The default retryable transport failures.
    public static let defaultRetryableCodes: Set<CourierError.Code> = [
        .cannotResolveHost, .cannotConnect, .connectionLost, .timedOut,
    ]

    /// Creates a policy.
    /// - Parameters:
    ///   - maxAttempts: attempts in all, including the first (at least 1).
    ///   - baseDelay: the backoff base.
    ///   - maxDelay: the longest wait.
    ///   - retryableStatuses: statuses worth retrying.
    ///   - retryableCodes: transport failures worth retrying.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(30),
        retryableStatuses: Set<Int> = RetryPolicy.defaultRetryableStatuses,
        retryableCodes: Set<CourierError.Code> = RetryPolicy.defaultRetryableCodes
    ) {
        self.init(
            maxAttempts: maxAttempts, baseDelay: baseDelay, maxDelay: maxDelay,
            retryableStatuses: retryableStatuses,
            retryableCodes: retryableCodes, random: { Double.random(in: 0..<1) }, sleep: RetryPolicy.taskSleep
        )
    }

    /// Creates a policy with its jitter source, sleeper and clock injected, so tests are
    /// deterministic and instant.
    package init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(30),
        retryableStatuses: Set<Int> = RetryPolicy.defaultRetryableStatuses,
        retryableCodes: Set<CourierError.Code> = RetryPolicy.defaultRetryableCodes,
        random: @escaping @Sendable () -> Double,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = RetryPolicy.taskSleep,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(.zero, baseDelay)
        self.maxDelay = max(.zero, maxDelay)
        self.retryableStatuses = retryableStatuses
        self.retryableCodes = retryableCodes
        self.random = random
        self.sleep = sleep
        self.now = now
    }

    /// Sleeps with `Task.sleep`.
    /// - Throws: `CancellationError` when the task is cancelled.
    @Sendable package static func taskSleep(_ seconds: TimeInterval) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1_000_000_000))
    }

    /// Whether the request may be sent more than once at all.
    package func canRetry(_ request: TransportRequest) -> Bool {
        let method = request.method
        let idempotent =
            method.isIdempotent || request.headers.contains("Idempotency-Key")
        return idempotent && request.body.isReplayable
    }

    /// The backoff before retry number `retry` (1 for the first retry): a random time in
    /// `0...min(maxDelay, baseDelay * 2^(retry-1))`.
    package func backoff(retry: Int) -> TimeInterval {
        let exponent = Double(min(max(retry - 1, 0), 62))
        let ceiling = min(maxDelay.timeInterval, baseDelay.timeInterval * pow(2, exponent))
        let fraction = min(max(random(), 0), 1)
        return ceiling * fraction
    }

    /// The delay a response asks for with `Retry-After`, capped at `maxDelay`; `nil` when
    /// there is no valid header.
    package func retryAfterDelay(_ headers: HTTPHeaders) -> TimeInterval? {
        guard let value = headers["Retry-After"],
            let seconds = RetryAfter.seconds(from: value, now: now())
        else { return nil }
        return min(seconds, maxDelay.timeInterval)
    }

    /// After a body cut part way (a download keeps its part and resumes it), the backoff before
    /// the next attempt, by the same rules as a failed transfer.
    public func retryDelay(afterBodyFailure error: CourierError, of request: TransportRequest, attempts: Int)
        -> Duration?
    {
        guard canRetry(request), attempts < maxAttempts, retryableCodes.contains(error.code) else {
            return nil
        }
        return .seconds(backoff(retry: attempts))
    }

    /// Sends the request, retrying as the policy allows.
    /// - Throws: the last attempt's `CourierError`, or `.cancelled` when cancelled while
    ///   waiting.
    public func intercept(
        _ request: TransportRequest, context: InterceptorContext,
        next: @Sendable (TransportRequest) async throws -> TransportResponse
    ) async throws -> TransportResponse {
        let replayable = canRetry(request)
        var attempt = 1
        while true {
            let delay: TimeInterval
            do {
                let response = try await next(request)
                guard replayable, attempt < maxAttempts, retryableStatuses.contains(response.status) else {
                    return response
                }
                delay = retryAfterDelay(response.headers) ?? backoff(retry: attempt)
            } catch let error as CourierError {
                guard replayable, attempt < maxAttempts, retryableCodes.contains(error.code) else {
                    throw error
                }
                delay = backoff(retry: attempt)
            }
            attempt += 1
            context.emit(.retrying(attempt: attempt, delay: .seconds(delay)))
            do {
                try await sleep(delay)
            } catch {
                throw CourierError(
                    .cancelled, "cancelled while waiting to retry", request: request,
                    underlying: error)
            }
            if Task.isCancelled {
                throw CourierError(
                    .cancelled, "cancelled while waiting to retry", request: request)
            }
        }
    }
}
