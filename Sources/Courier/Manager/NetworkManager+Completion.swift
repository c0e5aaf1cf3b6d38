import Dispatch
import Foundation

extension NetworkManager {
    /// Sends `endpoint` and calls `completion` on `callbackQueue` with the decoded
    /// response or the error.
    ///
    /// - Parameters:
    ///   - endpoint: what to send.
    ///   - type: the type to decode.
    ///   - completion: called exactly once, on `callbackQueue`.
    /// - Returns: the task doing the work; cancel it to cancel the request (the completion
    ///   then receives `.cancelled`).
    @discardableResult
    public func request<T: Decodable & Sendable>(
        _ endpoint: some URLRequestConvertible, as type: T.Type,
        completion: @escaping @Sendable (Result<Response<T>, CourierError>) -> Void
    ) -> Task<Void, Never> {
        performRequest(endpoint, as: type, completion: completion)
    }

    /// Sends on a task and delivers the result on `callbackQueue`: what every `request` does.
    package func performRequest<T: Decodable & Sendable>(
        _ endpoint: some URLRequestConvertible, as type: T.Type,
        completion: @escaping @Sendable (Result<Response<T>, CourierError>) -> Void
    ) -> Task<Void, Never> {
        let queue = callbackQueue
        return Task {
            let result: Result<Response<T>, CourierError>
            do {
                result = .success(try await send(endpoint, as: T.self))
            } catch {
                result = .failure(CourierError.wrapping(error, request: nil))
            }
            queue.async { completion(result) }
        }
    }

    /// Sends `endpoint` and calls `success` with the decoded value or `failure` with the
    /// error, on `callbackQueue`.
    ///
    /// - Parameters:
    ///   - endpoint: what to send.
    ///   - type: the type to decode.
    ///   - success: called with the value.
    ///   - failure: called with the error.
    /// - Returns: the task doing the work.
    @discardableResult
    public func request<T: Decodable & Sendable>(
        _ endpoint: some URLRequestConvertible, as type: T.Type,
        success: @escaping @Sendable (T) -> Void,
        failure: @escaping @Sendable (CourierError) -> Void
    ) -> Task<Void, Never> {
        request(endpoint, as: T.self) { result in
            switch result {
            case .success(let response): success(response.value)
            case .failure(let error): failure(error)
            }
        }
    }
}
