import Courier
import CourierContract
import CourierInterceptors
import Dispatch
import Foundation

/// A client of the social API: a `NetworkManager` that signs requests with the session's
/// token, and the session itself. The services (`PostsRequest`, `VideoPostRequest`,
/// `UserRequest`, `TweetService`, `Paginator`) are built on it.
///
/// ```swift
/// let client = SocialClient(transport: transport, baseURL: baseURL)
/// try await UserRequest(client: client).login(email: "user1@example.com", password: "password1")
/// let posts = try await PostsRequest(client: client).getPostsByPages(pageNumber: 1, size: 5)
/// ```
public final class SocialClient: Sendable {
    /// Sends every call, adding `Authorization: Bearer <token>` when signed in.
    public let manager: NetworkManager
    /// The signed-in session.
    public let session: SessionStore

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: what sends the bytes (`URLSessionTransport`, `CurlTransport`).
    ///   - baseURL: the API's base URL.
    ///   - interceptors: interceptors to run outside authentication, such as a `RetryPolicy`.
    ///   - eventMonitors: receive every request's events (for counting, logging).
    ///   - callbackQueue: where completion handlers run.
    public init(
        transport: any Transport, baseURL: URL, interceptors: [any Interceptor] = [],
        eventMonitors: [any EventMonitor] = [], callbackQueue: DispatchQueue = .global()
    ) {
        let plain = NetworkManager(
            transport: transport, baseURL: baseURL, eventMonitors: eventMonitors, callbackQueue: callbackQueue
        )
        let store = SessionStore { refreshToken in
            try await plain.send(OnboardingEndPoint.refresh(refreshToken: refreshToken))
                .value
        }
        session = store
        manager = NetworkManager(
            transport: transport, baseURL: baseURL,
            interceptors: interceptors + [AuthInterceptor(provider: store)],
            eventMonitors: eventMonitors, callbackQueue: callbackQueue)
    }

    /// Creates a client over an existing manager (which must authorize requests itself).
    public init(manager: NetworkManager, session: SessionStore) {
        self.manager = manager
        self.session = session
    }

    /// Sends `endpoint` and decodes `T`, mapping failures to `SocialError`.
    /// - Throws: `SocialError`.
    func call<T>(
        _ endpoint: Endpoint<T>, storage: Bool = false,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(SocialError) -> T {
        do {
            return try await manager.send(endpoint, progress: progress).value
        } catch {
            throw SocialError(error, storage: storage)
        }
    }

    /// Runs `work` and calls `success` or `failure` on the manager's callback queue.
    /// - Returns: the task, to cancel.
    @discardableResult
    func deliver<T: Sendable>(
        _ work: @escaping @Sendable () async throws -> T, success: @escaping @Sendable (T) -> Void,
        failure: @escaping @Sendable (SocialError) -> Void
    ) -> Task<Void, Never> {
        let queue = manager.callbackQueue
        return Task {
            do {
                let value = try await work()
                queue.async { success(value) }
            } catch {
                let mapped = SocialError(error)
                queue.async { failure(mapped) }
            }
        }
    }
}
